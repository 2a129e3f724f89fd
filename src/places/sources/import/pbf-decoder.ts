// The .osm.pbf reader's decoder thread (pbf.ts): inflates and decodes the blobs it is asked for.
import { parentPort, workerData } from 'node:worker_threads';
import { runDecoder } from './pbf.js';

runDecoder(parentPort!, workerData as Parameters<typeof runDecoder>[1]);
