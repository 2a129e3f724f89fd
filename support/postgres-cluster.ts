// A private, throwaway PostgreSQL cluster for the tests (initdb + pg_ctl in a temp folder, on a
// free loopback port), or the server in TEST_DATABASE_URL. Run as root, the server runs as the
// `postgres` user: PostgreSQL refuses to run as root.
import { execFileSync, spawnSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const INSTALL_HINT =
  'install the server with `sudo apt-get install -y postgresql postgis` (Debian: postgresql-15 and postgresql-15-postgis-3), or set TEST_DATABASE_URL';

/** The newest PostgreSQL (15 or newer) whose programs are installed, or null. */
export function findPostgresBin(root = '/usr/lib/postgresql', share = '/usr/share/postgresql'): string | null {
  if (!existsSync(root)) return null;
  const versions = readdirSync(root)
    .filter((v) => /^\d+$/.test(v) && Number(v) >= 15)
    .sort((a, b) => Number(b) - Number(a));
  for (const version of versions) {
    const bin = join(root, version, 'bin');
    const extensions = join(share, version, 'extension');
    if (
      existsSync(join(bin, 'initdb')) &&
      existsSync(join(bin, 'pg_ctl')) &&
      existsSync(join(extensions, 'postgis.control'))
    )
      return bin;
  }
  return null;
}

/** Why the PostgreSQL tests cannot run here, or null when they can. */
export function postgresUnavailableReason(
  env: NodeJS.ProcessEnv = process.env,
  bin: () => string | null = findPostgresBin,
): string | null {
  if (env.TEST_DATABASE_URL) return null;
  if (bin()) return null;
  return `PostgreSQL tests skipped: no TEST_DATABASE_URL and no PostgreSQL 15+ with PostGIS installed; ${INSTALL_HINT}.`;
}

export interface Cluster {
  /** a superuser URL to the `postgres` database */
  url: string;
  bin: string;
  dir: string;
  port: number;
  /** runs one of the server's programs as the cluster's owner */
  run(program: string, args: string[]): string;
  stop(mode?: 'fast' | 'immediate'): void;
  start(): void;
  remove(): void;
}

const isRoot = () => process.getuid?.() === 0;

/**
 * Starts a private cluster. `durable: false` (tests) trades crash safety for speed; the
 * benchmark runs a durable one, as a real site would.
 */
export function startCluster(port: number, options: { durable?: boolean } = {}): Cluster {
  const bin = findPostgresBin();
  if (!bin) throw new Error(`no PostgreSQL server programs: ${INSTALL_HINT}`);
  const dir = mkdtempSync(join(tmpdir(), 'places-pg-'));
  if (isRoot())
    chownSync(
      dir,
      Number(execFileSync('id', ['-u', 'postgres']).toString()),
      Number(execFileSync('id', ['-g', 'postgres']).toString()),
    );
  const run = (program: string, args: string[]) => {
    const [cmd, cmdArgs] = isRoot()
      ? ['runuser', ['-u', 'postgres', '--', join(bin, program), ...args]]
      : [join(bin, program), args];
    const result = spawnSync(cmd, cmdArgs as string[], { encoding: 'utf8' });
    if (result.status !== 0) throw new Error(`${program} failed: ${result.stderr || result.stdout}`);
    return result.stdout;
  };
  const data = join(dir, 'data');
  run('initdb', ['-D', data, '-U', 'postgres', '-A', 'trust', '-E', 'UTF8', '--locale=C.UTF-8']);
  const fast = options.durable ? '' : ' -c fsync=off -c synchronous_commit=off -c full_page_writes=off';
  const serverOptions = `-c listen_addresses=127.0.0.1 -p ${port} -k ${dir} -c max_connections=300${fast}`;
  const start = () =>
    void run('pg_ctl', ['-D', data, '-l', join(dir, 'log'), '-w', '-t', '60', '-o', serverOptions, 'start']);
  start();
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    bin,
    dir,
    port,
    run,
    start,
    stop: (mode = 'fast') => void run('pg_ctl', ['-D', data, '-m', mode, '-w', 'stop']),
    remove() {
      try {
        run('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']);
      } catch {
        // already stopped
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
