// A replication feed on loopback in the real layout: `state.txt` at the root and, per sequence,
// `AAA/BBB/CCC.osc.gz` with its `AAA/BBB/CCC.state.txt`, served from a folder the test writes.
// It records every request and can answer 429, 503 or 404 for chosen paths, or cut a body short.
import { mkdirSync, readFileSync, writeFileSync, existsSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { dirname, join, normalize } from 'node:path';
import { gzipSync } from 'node:zlib';
import { sequencePath } from '../../src/places/sources/replication/state.js';

export interface FeedRequest {
  path: string;
  userAgent: string;
  status: number;
}

export type FeedReply = { status: 429 | 503 | 404 | 500; retryAfter?: string } | { truncate: true };

export interface FakeFeed {
  /** the base URL, ending in a slash */
  url: string;
  dir: string;
  requests: FeedRequest[];
  /** the most requests it was answering at the same time */
  maxConcurrent: number;
  /** replies for the next requests of a path (matched by its end, e.g. "948.osc.gz"), in order */
  script: { path: string; reply: FeedReply }[];
  /** delay before each answer, so overlapping requests would show */
  delayMs: number;
  /** writes sequence N (its change file, gzipped, and its state file) without announcing it */
  write(sequence: number, osc: string, timestamp: string): void;
  /** writes the root state.txt: sequence N is the newest complete one */
  announce(sequence: number, timestamp: string): void;
  close(): Promise<void>;
}

export function stateText(sequence: number, timestamp: string): string {
  return `#${new Date(timestamp).toUTCString()}\nsequenceNumber=${sequence}\ntimestamp=${timestamp.replace(/:/g, '\\:')}\n`;
}

export async function startFeed(dir: string): Promise<FakeFeed> {
  mkdirSync(dir, { recursive: true });
  const sockets = new Set<Socket>();
  let active = 0;
  const feed: FakeFeed = {
    url: '',
    dir,
    requests: [],
    maxConcurrent: 0,
    script: [],
    delayMs: 5,
    write(sequence, osc, timestamp) {
      const base = join(dir, sequencePath(sequence));
      mkdirSync(dirname(base), { recursive: true });
      writeFileSync(`${base}.osc.gz`, gzipSync(osc));
      writeFileSync(`${base}.state.txt`, stateText(sequence, timestamp));
    },
    announce(sequence, timestamp) {
      writeFileSync(join(dir, 'state.txt'), stateText(sequence, timestamp));
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };

  const server = createServer((request, response) => {
    active++;
    feed.maxConcurrent = Math.max(feed.maxConcurrent, active);
    // The feed lives below a folder, as Geofabrik's do: `/monaco-updates/...` is `dir`.
    const path = decodeURIComponent(new URL(request.url ?? '/', 'http://feed').pathname).replace(
      /^\/monaco-updates\//,
      '',
    );
    const record: FeedRequest = { path, userAgent: request.headers['user-agent'] ?? '', status: 200 };
    feed.requests.push(record);
    const finish = (status: number, body: Buffer | string, headers: Record<string, string> = {}) => {
      record.status = status;
      response.writeHead(status, headers);
      response.end(body, () => active--);
    };
    setTimeout(() => {
      const scripted = feed.script.findIndex((entry) => path.endsWith(entry.path));
      const reply = scripted >= 0 ? feed.script.splice(scripted, 1)[0].reply : null;
      const file = join(dir, normalize(path));
      if (reply && 'status' in reply)
        return finish(reply.status, 'no', reply.retryAfter ? { 'retry-after': reply.retryAfter } : {});
      if (path.startsWith('/') || !file.startsWith(dir) || !existsSync(file) || path === '')
        return finish(404, 'not found');
      const body = readFileSync(file);
      if (reply && 'truncate' in reply) {
        // Says the whole length, sends half, and hangs up: a download cut short.
        record.status = 200;
        response.writeHead(200, { 'content-length': String(body.length) });
        response.write(body.subarray(0, Math.floor(body.length / 2)), () => {
          active--;
          request.socket.destroy();
        });
        return;
      }
      finish(200, body);
    }, feed.delayMs);
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  feed.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/monaco-updates/`;
  return feed;
}
