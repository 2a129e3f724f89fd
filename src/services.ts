// Long-lived parts shared by all requests, built once by createApp.
import type { DbHandle } from '../db/index.js';
import type { Config } from './config.js';
import { LoginThrottle } from './auth/throttle.js';
import { MediaStore } from './media/store.js';

export interface Services {
  throttle: LoginThrottle;
  media: MediaStore;
}

export function createServices(config: Readonly<Config>, handle: DbHandle, now: () => number): Services {
  return {
    throttle: new LoginThrottle(now),
    media: new MediaStore(config.uploadDir),
  };
}
