// Long-lived parts shared by all requests, built once by createApp.
import type { DbHandle } from '../db/index.js';
import { siteUserAgent, type Config } from './config.js';
import { LoginThrottle } from './auth/throttle.js';
import { createMediaStore } from './media/index.js';
import type { MediaStore } from './media/store.js';
import { DataJobs } from './places/jobs/data-jobs.js';
import { createPlaceStore, type PlaceStore } from './places/store/index.js';
import { describeJobError } from './places/jobs/job-errors.js';
import { Replication } from './places/sources/replication/index.js';
import { createPlacesService, type PlacesService } from './places/search/service.js';
import { SearchStats } from './places/jobs/search-stats.js';
import { withLease } from './shared/leases.js';
import { OutboundClient } from './net/outbound.js';
import { KeyUsage } from './site-keys/keys.js';

export interface Services {
  throttle: LoginThrottle;
  media: MediaStore;
  /** The places index and the live source (one Overpass request at a time for the site) */
  places: PlacesService;
  /** what visitors look for, counted in memory and flushed every few seconds */
  searchStats: SearchStats;
  /** imported sources kept fresh from their OSM replication feeds */
  replication: Replication;
  /** the places index itself: sources and own places (the admin data page) */
  placeIndex: PlaceStore;
  /** the admin data page's long tasks, readable from every process */
  dataJobs: DataJobs;
  /** fetches URLs the operator did not give (the admin's import, feeds named by data): public addresses only */
  outbound: OutboundClient;
  /** site keys' requests today, counted in memory and shared once a second (app.ts shares them) */
  keyUsage: KeyUsage;
}

export function createServices(config: Readonly<Config>, handle: DbHandle, now: () => number): Services {
  const index = createPlaceStore(handle);
  const outbound = new OutboundClient({ allow: config.outboundAllow });
  return {
    throttle: new LoginThrottle(now),
    media: createMediaStore(config, handle, now),
    places: createPlacesService({
      index,
      overpassUrl: config.overpassUrl,
      siteOrigin: config.publicOrigins[0],
      now,
      // One Overpass request at a time for the whole site, whatever the processes and nodes.
      overpass: { lock: (task) => withLease(handle.db, 'overpass', task) },
    }),
    searchStats: new SearchStats(handle.db),
    replication: new Replication(index, handle.db, {
      url: config.replicationUrl,
      userAgent: siteUserAgent(config),
      guardedFetch: outbound.fetch,
    }),
    placeIndex: index,
    dataJobs: new DataJobs(handle.db, describeJobError),
    outbound,
    keyUsage: new KeyUsage(now),
  };
}
