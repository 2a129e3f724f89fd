// The media store MEDIA_STORE asks for: a folder (UPLOAD_DIR) or the database.
import type { DbHandle } from '../../db/index.js';
import type { Config } from '../config.js';
import { DatabaseMediaStore } from './database-store.js';
import { FolderMediaStore, type MediaStore } from './store.js';

export function createMediaStore(config: Readonly<Config>, handle: DbHandle, now: () => number): MediaStore {
  return config.mediaStore === 'database'
    ? new DatabaseMediaStore(handle.db, now)
    : new FolderMediaStore(config.uploadDir);
}
