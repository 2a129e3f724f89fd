// The outbound guard: URLs that the admin or imported data name are fetched only from public
// addresses. Real HTTP servers on loopback only: every spelling of a loopback address is refused
// before anything reaches them, and allowed once OUTBOUND_ALLOW names it; a redirect from an
// allowed server to a refused one is refused. Other ranges are classified without connecting.
import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/config.js';
import { OutboundClient, OutboundRefused, parseOutboundAllow, refusedRange } from '../../../src/net/outbound.js';

interface Target {
  server: Server;
  port: number;
  hits: string[];
}

/** A server on `host` that answers `ok`, or redirects `/to?url` to that URL. */
async function serve(host: string): Promise<Target> {
  const hits: string[] = [];
  const server = createServer((request, response) => {
    hits.push(request.url ?? '');
    if (request.url?.startsWith('/to?')) {
      response.writeHead(302, { location: decodeURIComponent(request.url.slice(4)) });
      return response.end();
    }
    if (request.url === '/silent') return; // never answers
    response.end('ok');
  });
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  return { server, port: (server.address() as { port: number }).port, hits };
}

let one: Target; // on 127.0.0.1
let two: Target; // on 127.0.0.2
let six: Target; // on ::1
const clients: OutboundClient[] = [];
const client = (allow: string, options = {}) => {
  const made = new OutboundClient({ allow: parseOutboundAllow(allow)!, ...options });
  clients.push(made);
  return made;
};
const get = async (guard: OutboundClient, url: string) => {
  const response = await guard.fetch(new URL(url), { headers: {} });
  return { status: response.status, text: await response.text() };
};

beforeAll(async () => {
  one = await serve('127.0.0.1');
  two = await serve('127.0.0.2');
  six = await serve('::1');
});

afterAll(async () => {
  await Promise.all(clients.map((c) => c.close()));
  for (const target of [one, two, six]) target?.server.close();
});

describe('addresses', () => {
  it('refuses every range but public unicast, in every spelling', () => {
    const refused: [string, string][] = [
      ['127.0.0.1', 'loopback'],
      ['127.255.0.9', 'loopback'],
      ['::1', 'loopback'],
      ['10.1.2.3', 'private'],
      ['172.16.0.1', 'private'],
      ['192.168.1.1', 'private'],
      ['169.254.169.254', 'linkLocal'],
      ['fe80::1', 'linkLocal'],
      ['fc00::1', 'uniqueLocal'],
      ['fd12:3456::1', 'uniqueLocal'],
      ['224.0.0.1', 'multicast'],
      ['ff02::1', 'multicast'],
      ['255.255.255.255', 'broadcast'],
      ['0.0.0.0', 'unspecified'],
      ['::', 'unspecified'],
      ['100.64.0.1', 'carrierGradeNat'],
      ['192.0.2.1', 'reserved'],
      ['240.0.0.1', 'reserved'],
      ['::ffff:127.0.0.1', 'loopback'],
      ['::ffff:7f00:1', 'loopback'],
      ['::ffff:10.0.0.1', 'private'],
      ['::127.0.0.1', 'ipv4Compatible'],
      ['::8.8.8.8', 'ipv4Compatible'],
      ['::a:b', 'ipv4Compatible'],
      ['64:ff9b::7f00:1', 'rfc6052'],
      ['2002:7f00:1::', '6to4'],
      ['2001::1', 'teredo'],
      ['[::1]', 'loopback'],
      ['localhost', 'not an address'],
    ];
    for (const [address, range] of refused) expect([address, refusedRange(address)]).toEqual([address, range]);
    for (const address of ['8.8.8.8', '93.184.216.34', '2606:4700::1111', '::ffff:8.8.8.8'])
      expect(refusedRange(address)).toBeNull();
  });

  it('reads OUTBOUND_ALLOW, and stops the start-up with a clear line on a bad one', () => {
    const allow = parseOutboundAllow(' Mirror.LAN , 10.0.0.5, 192.168.0.0/16, fd00::/8, [::1] ')!;
    expect([...allow.hosts]).toEqual(['mirror.lan']);
    expect(allow.ranges.map(([address, bits]) => `${address.toString()}/${bits}`)).toEqual([
      '10.0.0.5/32',
      '192.168.0.0/16',
      'fd00::/8',
      '::1/128',
    ]);
    for (const bad of ['10.0.0.0/33', 'http://mirror.lan', 'a b', '10.0.0.1,', '300.1.1.1', '127.1']) {
      expect([bad, parseOutboundAllow(bad)]).toEqual([bad, null]);
      expect(() => loadConfig({ OUTBOUND_ALLOW: bad })).toThrow(
        /^OUTBOUND_ALLOW: invalid value; expected comma-separated host names, IP addresses and CIDR ranges/,
      );
    }
    expect(loadConfig({}).outboundAllow).toEqual({ hosts: new Set(), ranges: [] });
  });
});

describe('fetching', () => {
  it('refuses every spelling of a loopback address, and nothing reaches the server', async () => {
    const guard = client('');
    const p = one.port;
    const spellings = [
      `http://127.0.0.1:${p}/`,
      `http://127.1:${p}/`,
      `http://2130706433:${p}/`,
      `http://0x7f000001:${p}/`,
      `http://0177.0.0.1:${p}/`,
      `http://0x7f.1:${p}/`,
      `http://localhost:${p}/`,
      `http://LocalHost:${p}/`,
      `http://[::ffff:127.0.0.1]:${p}/`,
      `http://[::ffff:7f00:1]:${p}/`,
      `http://[::127.0.0.1]:${p}/`,
      `http://0:${p}/`,
      `http://0.0.0.0:${p}/`,
      `http://[::]:${p}/`,
      `https://127.0.0.1:${p}/`,
      `http://127.0.0.2:${two.port}/`,
      `http://[::1]:${six.port}/`,
    ];
    for (const url of spellings) {
      const error = await guard.fetch(new URL(url), { headers: {} }).catch((e: unknown) => e);
      expect([url, error]).toEqual([url, expect.any(OutboundRefused)]);
      await expect(guard.check(url)).rejects.toBeInstanceOf(OutboundRefused);
    }
    expect([one.hits, two.hits, six.hits]).toEqual([[], [], []]);
  });

  it('allows what OUTBOUND_ALLOW names: an address, a range, a host name', async () => {
    expect(await get(client('127.0.0.1'), `http://127.0.0.1:${one.port}/a`)).toEqual({ status: 200, text: 'ok' });
    expect(await get(client('127.0.0.0/8'), `http://2130706433:${one.port}/b`)).toEqual({ status: 200, text: 'ok' });
    expect(await get(client('::1'), `http://[::1]:${six.port}/c`)).toEqual({ status: 200, text: 'ok' });
    expect(await get(client('localhost'), `http://localhost:${one.port}/d`)).toEqual({ status: 200, text: 'ok' });
    await expect(client('127.0.0.1').check(`http://127.0.0.1:${one.port}/`)).resolves.toBeInstanceOf(URL);
    // One address allowed is not its neighbour.
    await expect(
      client('127.0.0.1').fetch(new URL(`http://127.0.0.2:${two.port}/`), { headers: {} }),
    ).rejects.toBeInstanceOf(OutboundRefused);
    expect(one.hits).toEqual(['/a', '/b', '/d']);
    expect(six.hits).toEqual(['/c']);
  });

  it('checks every redirect: an allowed server cannot send the request to a refused one', async () => {
    one.hits.length = 0;
    two.hits.length = 0;
    const guard = client('127.0.0.2');
    const toOne = `http://127.0.0.2:${two.port}/to?${encodeURIComponent(`http://127.0.0.1:${one.port}/secret`)}`;
    await expect(guard.fetch(new URL(toOne), { headers: {} })).rejects.toThrow(
      /127\.0\.0\.1 is a private or local address/,
    );
    const toLocalhost = `http://127.0.0.2:${two.port}/to?${encodeURIComponent(`http://localhost:${one.port}/secret`)}`;
    await expect(guard.fetch(new URL(toLocalhost), { headers: {} })).rejects.toBeInstanceOf(OutboundRefused);
    const toFile = `http://127.0.0.2:${two.port}/to?${encodeURIComponent('file:///etc/passwd')}`;
    await expect(guard.fetch(new URL(toFile), { headers: {} })).rejects.toThrow(/not an http\(s\) URL/);
    expect(one.hits).toEqual([]);
    // Redirects between allowed addresses are followed, up to the hop limit.
    const within = `http://127.0.0.2:${two.port}/to?${encodeURIComponent(`http://127.0.0.2:${two.port}/end`)}`;
    expect(await get(guard, within)).toEqual({ status: 200, text: 'ok' });
    let loop = `http://127.0.0.2:${two.port}/end`;
    for (let i = 0; i < 3; i++) loop = `http://127.0.0.2:${two.port}/to?${encodeURIComponent(loop)}`;
    await expect(client('127.0.0.2', { maxRedirects: 2 }).fetch(new URL(loop), { headers: {} })).rejects.toThrow(
      /more than 2 redirects/,
    );
  });

  it('gives up on a server that does not answer', async () => {
    const guard = client('127.0.0.1', { headersTimeoutMs: 300 });
    await expect(guard.fetch(new URL(`http://127.0.0.1:${one.port}/silent`), { headers: {} })).rejects.toThrow();
  });
});
