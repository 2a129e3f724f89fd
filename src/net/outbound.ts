// Outbound requests that someone else's words name (a URL typed into the admin, a replication feed
// named by an imported file) go through this one client, so that they cannot make the server call
// its own private network. The host's every address is checked when the connection is made (the
// checked address is the one connected: no second lookup a rebinding name could answer
// differently), each redirect is followed by hand and checked again, with a hop limit and time
// limits. URLs the operator gives (command line, settings) are trusted and fetched directly.
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';
import { Agent, buildConnector, fetch as undiciFetch } from 'undici';

/** How a caller fetches: `fetch`'s shape, with the options the site's downloads use. */
export type Fetcher = (url: URL, init: { headers: Record<string, string>; signal?: AbortSignal }) => Promise<Response>;

/** A URL whose host is (or resolves to) an address the server does not call. */
export class OutboundRefused extends Error {
  override name = 'OutboundRefused';
  constructor(
    readonly host: string,
    readonly range: string,
  ) {
    super(
      `${host} is a private or local address (${range}); only public addresses are fetched unless OUTBOUND_ALLOW names it`,
    );
  }
}

/** OUTBOUND_ALLOW: host names, addresses and CIDR ranges the operator lets through. */
export interface OutboundAllow {
  hosts: ReadonlySet<string>;
  ranges: readonly [ipaddr.IPv4 | ipaddr.IPv6, number][];
}

export const NOTHING_ALLOWED: OutboundAllow = { hosts: new Set(), ranges: [] };

const HOST_NAME = /^(?=.{1,253}$)([a-z0-9_]([a-z0-9_-]{0,61}[a-z0-9_])?)(\.[a-z0-9_]([a-z0-9_-]{0,61}[a-z0-9_])?)*\.?$/;

/** `mirror.lan, 10.0.0.5, 192.168.0.0/16, fd00::/8` → the allow list; null when a part is unreadable. */
export function parseOutboundAllow(text: string | undefined): OutboundAllow | null {
  if (text === undefined || text.trim() === '') return NOTHING_ALLOWED;
  const hosts = new Set<string>();
  const ranges: [ipaddr.IPv4 | ipaddr.IPv6, number][] = [];
  for (const raw of text.split(',')) {
    const part = raw
      .trim()
      .toLowerCase()
      .replace(/^\[(.*)\]$/, '$1');
    if (!part) return null;
    if (part.includes('/')) {
      const [address, bits] = part.split('/');
      if (!isIP(address) || !/^\d{1,3}$/.test(bits)) return null;
      try {
        ranges.push(ipaddr.parseCIDR(part));
      } catch {
        return null;
      }
    } else if (isIP(part)) {
      const address = ipaddr.parse(part);
      ranges.push([address, address.kind() === 'ipv4' ? 32 : 128]);
    } else if (HOST_NAME.test(part) && !/^[\d.]+$/.test(part)) {
      hosts.add(part.replace(/\.$/, ''));
    } else return null;
  }
  return { hosts, ranges };
}

/**
 * The name of the range that makes an address one the server does not call, or null for a public
 * (unicast) one. Every range but unicast is refused: loopback, private, link-local, unique-local,
 * multicast, unspecified, carrier-grade NAT, reserved, and the IPv6 forms that carry an IPv4
 * address (mapped, NAT64, 6to4, Teredo) or the deprecated IPv4-compatible ::/96.
 */
export function refusedRange(address: string): string | null {
  const bare = canonical(address);
  if (bare === null) return 'not an address';
  const range = ipaddr.process(bare).range();
  if (range !== 'unicast') return range;
  const parsed = ipaddr.parse(bare);
  return parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).match(IPV4_COMPATIBLE) ? 'ipv4Compatible' : null;
}

/**
 * An address as the WHATWG URL parser writes it (IPv6 in hex groups: ipaddr.js reads `::8.8.8.8`
 * as IPv4-mapped), or null when it is not an address.
 */
function canonical(address: string): string | null {
  const bare = address.replace(/^\[(.*)\]$/, '$1');
  const version = isIP(bare);
  if (version === 0) return null;
  return version === 4 ? bare : new URL(`http://[${bare}]/`).hostname.slice(1, -1);
}

const IPV4_COMPATIBLE = ipaddr.parseCIDR('::/96') as [ipaddr.IPv6, number];

/** Whether OUTBOUND_ALLOW lets `address` through (an IPv4-mapped form counts as its IPv4 address). */
function allowedAddress(address: string, allow: OutboundAllow): boolean {
  const parsed = ipaddr.process(canonical(address) ?? '');
  return allow.ranges.some(([base, bits]) => parsed.kind() === base.kind() && parsed.match(base, bits));
}

/** Throws OutboundRefused unless `address` is public or allowed. */
function checkAddress(host: string, address: string, allow: OutboundAllow): void {
  const range = refusedRange(address);
  if (range !== null && !allowedAddress(address, allow)) throw new OutboundRefused(host, range);
}

export interface OutboundOptions {
  allow: OutboundAllow;
  /** redirects followed at most */
  maxRedirects?: number;
  connectTimeoutMs?: number;
  /** until the answer's headers have come */
  headersTimeoutMs?: number;
  /** the longest silence while the body comes */
  bodyTimeoutMs?: number;
}

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

export class OutboundClient {
  private readonly allow: OutboundAllow;
  private readonly maxRedirects: number;
  private readonly agent: Agent;

  constructor(options: OutboundOptions) {
    this.allow = options.allow;
    this.maxRedirects = options.maxRedirects ?? 5;
    const allow = this.allow;
    // Names are resolved here, and every answer checked before the socket connects to one of them.
    const lookup = (hostname: string, opts: { all?: boolean; family?: number }, callback: LookupCallback) => {
      dnsLookup(hostname, { ...opts, all: true }, (error, addresses) => {
        if (error) return callback(error, []);
        if (!allow.hosts.has(hostname.toLowerCase())) {
          try {
            for (const { address } of addresses) checkAddress(hostname, address, allow);
          } catch (refused) {
            return callback(refused as NodeJS.ErrnoException, []);
          }
        }
        if (opts.all) callback(null, addresses);
        else callback(null, addresses[0].address, addresses[0].family);
      });
    };
    const connector = buildConnector({
      timeout: options.connectTimeoutMs ?? 10_000,
      lookup,
    } as buildConnector.BuildOptions);
    this.agent = new Agent({
      // A literal address is never looked up: it is checked here, where the connection is made.
      connect: (opts, callback) => {
        const host = opts.hostname.replace(/^\[(.*)\]$/, '$1');
        if (isIP(host)) {
          try {
            checkAddress(host, host, allow);
          } catch (refused) {
            return callback(refused as Error, null);
          }
        }
        return connector(opts, callback);
      },
      headersTimeout: options.headersTimeoutMs ?? 30_000,
      bodyTimeout: options.bodyTimeoutMs ?? 60_000,
    });
  }

  /** Whether `host` (a name or a literal from a URL) is named in OUTBOUND_ALLOW. */
  private hostAllowed(host: string): boolean {
    return this.allow.hosts.has(host.toLowerCase());
  }

  /**
   * Checks a URL without fetching it: http(s), and its host's addresses public or allowed. Throws
   * OutboundRefused for a refused address, TypeError for an unusable URL; a name that does not
   * resolve passes (the fetch will say so).
   */
  async check(input: string | URL): Promise<URL> {
    const url = httpUrl(input);
    const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
    if (this.hostAllowed(host)) return url;
    if (isIP(host)) {
      checkAddress(host, host, this.allow);
      return url;
    }
    let addresses: LookupAddress[];
    try {
      addresses = await new Promise((resolve, reject) =>
        dnsLookup(host, { all: true }, (error, found) => (error ? reject(error) : resolve(found))),
      );
    } catch {
      return url;
    }
    for (const { address } of addresses) checkAddress(host, address, this.allow);
    return url;
  }

  /** `fetch` through the guard: every hop's address checked, redirects followed by hand. */
  readonly fetch: Fetcher = async (input, init) => {
    let url = httpUrl(input);
    for (let hop = 0; ; hop++) {
      let response: Response;
      try {
        response = (await undiciFetch(url, {
          headers: init.headers,
          signal: init.signal,
          redirect: 'manual',
          dispatcher: this.agent,
        })) as unknown as Response;
      } catch (error) {
        throw refusalIn(error) ?? error;
      }
      const location = response.headers.get('location');
      if (!REDIRECTS.has(response.status) || location === null) return response;
      await response.body?.cancel().catch(() => {});
      if (hop >= this.maxRedirects) throw new TypeError(`more than ${this.maxRedirects} redirects`);
      url = httpUrl(new URL(location, url));
    }
  };

  async close(): Promise<void> {
    await this.agent.close();
  }
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

function httpUrl(input: string | URL): URL {
  const url = new URL(input);
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new TypeError(`not an http(s) URL: ${url.protocol}`);
  return url;
}

/** The OutboundRefused behind a failed fetch (undici wraps the connector's error as its cause). */
export function refusalIn(error: unknown): OutboundRefused | null {
  for (let e = error, depth = 0; e && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    if (e instanceof OutboundRefused) return e;
  }
  return null;
}

/** The operator's own URLs: fetched as given, redirects followed. */
export const trustedFetch: Fetcher = (url, init) => fetch(url, { ...init, redirect: 'follow' });
