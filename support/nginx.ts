// Debian's nginx, started privately for a test with the project's own deploy/nginx.conf: only its
// addresses, ports and certificate are filled in, so what the tests prove is what operators run.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { request as httpsRequest } from 'node:https';
import { join } from 'node:path';
import type { IncomingHttpHeaders } from 'node:http';
import { freePort } from './ports.js';

const ROOT = join(import.meta.dirname, '..');

export const NGINX = '/usr/sbin/nginx';
export const SERVER_NAME = 'places.test';

export interface Nginx {
  /** the https port it listens on (127.0.0.1) */
  port: number;
  errors(): string;
  stop(): Promise<void>;
}

/** deploy/nginx.conf with the test's upstreams, ports and certificate; fails if the file changed shape. */
export function fillNginxConf(
  text: string,
  fill: { upstreams: number[]; httpPort: number; httpsPort: number; cert: string; key: string; webRoot: string },
): string {
  const replace = (from: RegExp, to: string) => {
    if (!from.test(text)) throw new Error(`deploy/nginx.conf no longer has ${from}: update support/nginx.ts`);
    text = text.replace(from, to);
  };
  replace(
    /(\n\s*server 127\.0\.0\.1:\d+ ([^\n]*))+/,
    fill.upstreams.map((port) => `\n    server 127.0.0.1:${port} $2`).join(''),
  );
  replace(/listen 80;/, `listen 127.0.0.1:${fill.httpPort};`);
  replace(/listen 443 ssl http2;/, `listen 127.0.0.1:${fill.httpsPort} ssl http2;`);
  replace(/\n\s*listen \[::\]:80;/, '');
  replace(/\n\s*listen \[::\]:443 ssl http2;/, '');
  replace(/server_name places\.example\.org;/g, `server_name ${SERVER_NAME};`);
  replace(/ssl_certificate \S+;/, `ssl_certificate ${fill.cert};`);
  replace(/ssl_certificate_key \S+;/, `ssl_certificate_key ${fill.key};`);
  replace(/root \/srv\/places\/dist\/web;/, `root ${fill.webRoot};`);
  return text;
}

/** Starts nginx in `dir` in front of the given app ports; resolves once it answers. */
export async function startNginx(dir: string, upstreams: number[]): Promise<Nginx> {
  mkdirSync(dir, { recursive: true });
  const cert = join(dir, 'cert.pem');
  const key = join(dir, 'key.pem');
  if (!existsSync(cert)) {
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'rsa:2048',
        '-nodes',
        '-days',
        '1',
        '-subj',
        `/CN=${SERVER_NAME}`,
        '-keyout',
        key,
        '-out',
        cert,
      ],
      { stdio: 'ignore' },
    );
  }
  const [httpPort, httpsPort] = [await freePort(), await freePort()];
  const site = fillNginxConf(readFileSync(join(ROOT, 'deploy', 'nginx.conf'), 'utf8'), {
    upstreams,
    httpPort,
    httpsPort,
    cert,
    key,
    webRoot: join(ROOT, 'dist', 'web'),
  });
  writeFileSync(join(dir, 'site.conf'), site);
  const temp = (name: string) => `${name}_temp_path ${join(dir, name)};`;
  writeFileSync(
    join(dir, 'nginx.conf'),
    [
      // Run as root, nginx's workers would become `nobody` and could not read this folder.
      process.getuid?.() === 0 ? 'user root;' : '',
      'worker_processes 1;',
      `pid ${join(dir, 'nginx.pid')};`,
      `error_log ${join(dir, 'error.log')} warn;`,
      'events { worker_connections 4096; }',
      'http {',
      '  access_log off;',
      `  ${temp('client_body')} ${temp('proxy')} ${temp('fastcgi')} ${temp('uwsgi')} ${temp('scgi')}`,
      `  include ${join(dir, 'site.conf')};`,
      '}',
    ].join('\n'),
  );
  const child: ChildProcess = spawn(
    NGINX,
    ['-p', dir, '-c', join(dir, 'nginx.conf'), '-e', join(dir, 'error.log'), '-g', 'daemon off;'],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let output = '';
  child.stdout!.on('data', (chunk) => (output += String(chunk)));
  child.stderr!.on('data', (chunk) => (output += String(chunk)));
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
  const errors = () =>
    output + (existsSync(join(dir, 'error.log')) ? readFileSync(join(dir, 'error.log'), 'utf8') : '');
  const until = Date.now() + 10_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`nginx exited (${child.exitCode}): ${errors()}`);
    const ok = await through(httpsPort, 'GET', '/healthz', { from: '127.0.0.1' }).then(
      (r) => r.status === 200,
      () => false,
    );
    if (ok) break;
    if (Date.now() > until) throw new Error(`nginx did not answer: ${errors()}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return {
    port: httpsPort,
    errors,
    async stop() {
      if (child.exitCode === null) child.kill('SIGQUIT');
      await exited;
    },
  };
}

export interface Reply {
  status: number;
  headers: IncomingHttpHeaders;
  body: any;
  raw: Buffer;
}

/** One https request to nginx from the loopback address `from`, as a browser on the site sends it. */
export function through(
  port: number,
  method: string,
  path: string,
  options: { from: string; json?: unknown; body?: Buffer; headers?: Record<string, string>; cookie?: string },
): Promise<Reply> {
  const body = options.body ?? (options.json === undefined ? undefined : Buffer.from(JSON.stringify(options.json)));
  return new Promise((resolve, reject) => {
    const req = httpsRequest(
      {
        host: '127.0.0.1',
        port,
        path,
        method,
        servername: SERVER_NAME,
        rejectUnauthorized: false,
        localAddress: options.from,
        agent: false,
        timeout: 20_000,
        headers: {
          host: SERVER_NAME,
          ...(options.json === undefined ? {} : { 'content-type': 'application/json' }),
          ...(body === undefined ? {} : { 'content-length': String(body.length) }),
          ...(options.cookie ? { cookie: options.cookie } : {}),
          ...options.headers,
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => {
          const raw = Buffer.concat(chunks);
          const json = /json/.test(res.headers['content-type'] ?? '') && raw.length > 0;
          resolve({
            status: res.statusCode!,
            headers: res.headers,
            body: json ? JSON.parse(raw.toString('utf8')) : raw.toString('utf8'),
            raw,
          });
        });
      },
    );
    req.on('timeout', () => req.destroy(new Error(`${method} ${path}: no answer in 20 s`)));
    req.on('error', reject);
    req.end(body);
  });
}
