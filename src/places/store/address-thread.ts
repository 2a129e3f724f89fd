// The import's address thread (staged-addresses.ts): derives the staged places' addresses.
import { parentPort, workerData } from 'node:worker_threads';
import { runAddressThread } from './staged-addresses.js';

runAddressThread(parentPort!, workerData as Parameters<typeof runAddressThread>[1]);
