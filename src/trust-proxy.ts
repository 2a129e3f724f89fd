// TRUST_PROXY -> who the visitor is. Fastify 5.12 treats a number in `trustProxy` as "trust
// nothing" (it cannot validate the immediate peer), so a hop count is a function of our own.
// Proxies append the address they saw to X-Forwarded-For and a client can write anything to the
// left of it: the visitor is the rightmost address that is not one of our own proxies.
import proxyAddr from '@fastify/proxy-addr';

export type TrustProxy =
  /** X-Forwarded-* ignored: the visitor is the connection's peer */
  | { kind: 'none' }
  /** every entry trusted, so the leftmost is the visitor: only where no client reaches the app */
  | { kind: 'all' }
  /** the peer and the N-1 proxies before it: the visitor is N from the right of X-Forwarded-For */
  | { kind: 'hops'; hops: number }
  /** peers within these addresses, CIDR ranges or names (loopback, linklocal, uniquelocal) */
  | { kind: 'addresses'; list: string[] };

/**
 * With TRUST_PROXY unset: a proxy on the same machine (nginx, Caddy: the commonest deployment) is
 * trusted, nothing else. A client that reaches the app directly from another machine has a peer
 * address outside loopback, so its X-Forwarded-For is ignored and it cannot pose as another.
 * Rails trusts the private ranges too; we do not, since on a shared private network a client may
 * reach the app directly from a private address.
 */
export const DEFAULT_TRUST_PROXY: TrustProxy = { kind: 'addresses', list: ['loopback'] };

/** TRUST_PROXY's text -> TrustProxy; null when unreadable. */
export function parseTrustProxy(text: string | undefined): TrustProxy | null {
  if (text === undefined) return DEFAULT_TRUST_PROXY;
  const value = text.trim().toLowerCase();
  if (['off', 'false', 'no', '0'].includes(value)) return { kind: 'none' };
  if (['on', 'true', 'yes'].includes(value)) return { kind: 'all' };
  if (/^[1-9]\d?$/.test(value)) return { kind: 'hops', hops: Number(value) };
  const list = value.split(',').map((part) => part.trim());
  try {
    // proxy-addr throws on an address or range it cannot read; the server would, at start.
    proxyAddr.compile(list);
    return { kind: 'addresses', list };
  } catch {
    return null;
  }
}

/** What Fastify's `trustProxy` option takes for it. */
export function fastifyTrustProxy(trust: TrustProxy): boolean | string | ((address: string, hop: number) => boolean) {
  switch (trust.kind) {
    case 'none':
      return false;
    case 'all':
      return true;
    case 'hops':
      // Hop 0 is the peer (our nearest proxy); each trusted hop lets proxy-addr look one entry
      // further left, and the first untrusted one is the visitor.
      return (_address, hop) => hop < trust.hops;
    case 'addresses':
      return remembered(proxyAddr.compile(trust.list));
  }
}

/** Addresses remembered, at most; then the memory starts again (a flood of new ones costs no more). */
const REMEMBERED = 10_000;

/**
 * proxy-addr's matcher parses the address at every call, and Fastify asks again at every read of
 * `req.ip` (the limits and the access log each read it): some 5% of a cheap request's CPU. The
 * answer for an address never changes, so it is remembered.
 */
function remembered(trusts: (address: string, hop: number) => boolean): (address: string, hop: number) => boolean {
  const known = new Map<string, boolean>();
  return (address, hop) => {
    let trusted = known.get(address);
    if (trusted === undefined) {
      trusted = trusts(address, hop);
      if (known.size >= REMEMBERED) known.clear();
      known.set(address, trusted);
    }
    return trusted;
  };
}
