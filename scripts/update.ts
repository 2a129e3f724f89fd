// npm run update [-- --url <base>] [--source NAME]   Follows the OSM replication feed of the imported data.
import { checkDb, createDb, migrate } from '../db/index.js';
import { ConfigError, loadConfig, loadDotEnv, siteUserAgent } from '../src/config.js';
import { ImportError } from '../src/places/sources/import/index.js';
import { createPlaceStore } from '../src/places/store/index.js';
import { FeedError, Replication, type UpdateSummary } from '../src/places/sources/replication/index.js';
import { LeaseTimeout } from '../src/shared/leases.js';
import { OutboundClient } from '../src/net/outbound.js';

const HELP = `Usage: npm run update [-- --url <base>] [--source NAME] [--json]

Brings the imported OpenStreetMap data up to date from its replication feed: reads
<base>/state.txt, then downloads and applies <base>/AAA/BBB/CCC.osc.gz for every sequence
after the one stored, in order, each in one transaction with its sequence; stops at the
newest. Running it again with nothing new changes nothing; a run that failed or was killed
resumes where it stopped.

The feed is the one the imported .osm.pbf header names (Geofabrik extracts do), else
--url or REPLICATION_URL. Every source that has a feed is updated, or only --source NAME.
Feeds keep a few months of files: a source further behind must be imported again.

Options:
  --url <base>     the feed's base URL, e.g. https://download.geofabrik.de/europe/monaco-updates
  --source NAME    update this source only (see the admin's data page for the names)
  --json           print the summaries as JSON on stdout
  --help           show this text`;

async function main(): Promise<number> {
  const args = process.argv.slice(2);
  if (args.includes('--help') || args.includes('-h')) {
    console.log(HELP);
    return 0;
  }
  let url: string | undefined;
  let source: string | undefined;
  let json = false;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    if (arg === '--json') json = true;
    else if ((arg === '--url' || arg === '--source') && args[i + 1] !== undefined && !args[i + 1].startsWith('--')) {
      if (arg === '--url') url = args[++i];
      else source = args[++i];
    } else {
      console.error(
        `${arg === '--url' || arg === '--source' ? `${arg} needs a value` : `Unknown argument: ${arg}`} (see --help)`,
      );
      return 2;
    }
  }

  loadDotEnv();
  const config = loadConfig();
  const handle = createDb(config.database);
  // A feed named by the imported data (not by --url or REPLICATION_URL) is fetched through the guard.
  const outbound = new OutboundClient({ allow: config.outboundAllow });
  try {
    await checkDb(handle);
    await migrate(handle);
    const replication = new Replication(createPlaceStore(handle), handle.db, {
      url: config.replicationUrl,
      userAgent: siteUserAgent(config),
      guardedFetch: outbound.fetch,
    });
    const onTerminal = process.stderr.isTTY && !json;
    const summaries = await replication.update({
      source,
      url,
      onProgress: onTerminal
        ? (p) =>
            process.stderr.write(
              `\r${p.source}: sequence ${p.sequence} (${p.sequence - p.first + 1} of ${p.last - p.first + 1})\x1b[K`,
            )
        : undefined,
    });
    if (onTerminal) process.stderr.write('\r\x1b[K');
    if (json) console.log(JSON.stringify(summaries));
    else for (const summary of summaries) console.log(formatSummary(summary));
    return 0;
  } catch (error) {
    if (error instanceof FeedError || error instanceof ImportError) {
      console.error(`Update failed: ${error.message}. What was applied before stays; run again to resume.`);
      return 1;
    }
    if (error instanceof LeaseTimeout) {
      console.error('Another update is running (on this or another node); try again when it has finished.');
      return 1;
    }
    throw error;
  } finally {
    await outbound.close();
    await handle.close();
  }
}

function formatSummary(s: UpdateSummary): string {
  if (s.sequences === 0)
    return `${s.source}: up to date at sequence ${s.to}${s.timestamp ? ` (data as of ${s.timestamp})` : ''}.`;
  return [
    `${s.source}: applied ${s.sequences} change file${s.sequences === 1 ? '' : 's'} (sequences ${s.from + 1} to ${s.to}) from ${s.feed}`,
    `  places created ${s.created}, modified ${s.modified}, deleted ${s.deleted}` +
      (s.skippedOlder ? `; ${s.skippedOlder} older versions skipped` : '') +
      (s.unknownLocations ? `; ${s.unknownLocations} places kept their position (node locations unknown)` : ''),
    `  data as of ${s.timestamp}`,
  ].join('\n');
}

main().then(
  (code) => (process.exitCode = code),
  (error) => {
    console.error(error instanceof ConfigError ? error.message : error);
    process.exitCode = 1;
  },
);
