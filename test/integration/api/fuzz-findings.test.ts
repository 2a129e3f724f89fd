// What the fuzz battery (test/reliability/fuzz.test.ts) found, kept as plain cases on both engines:
// ids past 32 bits were a PostgreSQL 500 ("out of range for type integer"), and a multipart body
// on /trpc made tRPC's adapter throw (a 500) on every procedure. Found by hand while reading a fuzz
// run (the generator seldom makes an otherwise valid body): a NUL character in text was a
// PostgreSQL 500 (it cannot store one) where SQLite stored it. The full-size run found a field
// of an otherwise valid input nested ~2,000 deep a 500 on both engines: zod's error message is
// its issues as JSON, the refused value among them, and writing that overflowed the stack.
import { findInputProblem, MAX_INPUT_DEPTH } from '../../../src/trpc/init.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../helpers.js';

let t: TestApp;
let cookie: string;
beforeAll(async () => {
  t = await buildTestApp();
  cookie = await t.login();
});
afterAll(() => t.close());

describe('what the fuzz found', () => {
  it.each([
    ['DELETE', '/api/messages?id=2147483648'],
    ['DELETE', '/api/messages?id[]=6.02e127'],
    ['DELETE', '/api/ads?id=1e20'],
    ['DELETE', '/api/plans?id=9007199254740993'],
    ['DELETE', '/api/background_videos?id=4294967296'],
    ['DELETE', '/api/admin/users/99999999999999999999'],
  ] as const)('%s %s: an id past 32 bits is a 400 naming the field, not a 500', async (method, url) => {
    const response = await t.request({ method, url, cookie });
    expect(response.statusCode, response.body).toBe(400);
    expect(response.json()).toEqual({ error: expect.stringMatching(/^id: /) });
  });

  it('the largest 32-bit id is still an id (unknown here: 404)', async () => {
    const response = await t.request({ method: 'DELETE', url: '/api/messages?id=2147483647', cookie });
    expect(response.statusCode).toBe(404);
  });

  it.each([
    ['settings.get', 'multipart/form-data; boundary=x'],
    ['settings.save', 'multipart/form-data'],
    ['users.create', 'MULTIPART/form-data; boundary=----b'],
  ])('POST /trpc/%s with %s: 415 in the contract shape, with the security headers', async (procedure, type) => {
    const response = await t.request({
      method: 'POST',
      url: `/trpc/${procedure}`,
      cookie,
      headers: { 'content-type': type },
      payload: '------b\r\nContent-Disposition: form-data; name="a"\r\n\r\n1\r\n------b--\r\n',
    });
    expect(response.statusCode, response.body).toBe(415);
    expect(response.json()).toEqual({ error: 'Unsupported content type' });
    expect(response.headers['content-security-policy']).toBeTruthy();
  });

  const nul = 'Ana\u0000';
  it.each([
    ['POST', '/api/contact', { name: nul, email: 'ana@example.org', subject: 'Hello', body: 'A message' }, 'name'],
    ['POST', '/api/admin/login', { username: 'admin', password: nul }, 'password'],
    [
      'POST',
      '/api/plans',
      { name: 'Basic', price: 1, type: 'basic', description: { features: ['x', nul] }, link: 'https://example.org/' },
      'description.features.1',
    ],
    ['POST', '/api/settings', { site_title: nul }, 'site_title'],
    ['GET', '/api/places?lat=1&lon=1&city=Lis%00bon&active_categories=pharmacy', null, 'city'],
  ] as const)(
    '%s %s with a NUL character: a 400 naming the field, nothing stored',
    async (method, url, payload, field) => {
      const before = await t.request({ method: 'GET', url: '/api/messages', cookie });
      const response = await t.request({ method, url, cookie, ...(payload ? { payload } : {}) });
      expect(response.statusCode, response.body).toBe(400);
      expect(response.json()).toEqual({ error: `${field}: must not contain NUL characters` });
      expect((await t.request({ method: 'GET', url: '/api/messages', cookie })).body).toBe(before.body);
    },
  );

  it('finds NUL in keys and deep inside, and nothing in plain text', () => {
    const nulIn = (field: string) => ({ field, message: 'must not contain NUL characters' });
    expect(findInputProblem({ a: [{ b: 'x' }, { c: 'y\u0000' }] })).toEqual(nulIn('a.1.c'));
    expect(findInputProblem({ 'k\u0000': 1 })).toEqual(nulIn(''));
    expect(findInputProblem('\u0000')).toEqual(nulIn(''));
    expect(findInputProblem({ a: 'tab\tnew\nline', b: [1, null, true], c: Buffer.from([0]) })).toBeNull();
  });

  /** `depth` containers, one inside the other, around `core`. */
  const nested = (depth: number, core: unknown = 1): unknown =>
    Array.from({ length: depth }).reduce((inner, _, i) => (i % 2 ? { a: inner } : [inner]), core);

  it(`takes inputs nested ${MAX_INPUT_DEPTH} deep and refuses one level more, naming where`, () => {
    expect(findInputProblem({ f: nested(MAX_INPUT_DEPTH - 1) })).toBeNull();
    const problem = findInputProblem({ f: nested(MAX_INPUT_DEPTH) });
    expect(problem?.message).toBe(`must not be nested more than ${MAX_INPUT_DEPTH} levels deep`);
    expect(problem?.field).toMatch(/^f\.a\.0\.a\.0/);
    expect(problem?.field.split('.')).toHaveLength(MAX_INPUT_DEPTH);
    // A walk, not a recursion: 100,000 levels are no trouble.
    expect(findInputProblem(nested(100_000, '\u0000'))?.message).toMatch(/nested/);
  });

  const deep = nested(4000);
  it.each([
    [
      '/trpc/ads.create',
      { type: 'carousel', title: 'Sale', link: deep, media_url: 'https://cdn.example.org/a.jpg' },
      'link',
    ],
    ['/trpc/videos.create', { title: 'Intro', media_url: 'https://cdn.example.org/a.mp4', enabled: deep }, 'enabled'],
    ['/api/ads', { type: 'carousel', title: 'Sale', link: deep, media_url: 'https://cdn.example.org/a.jpg' }, 'link'],
    ['/api/contact', { name: 'Ana', email: 'ana@example.org', subject: deep, body: 'A message' }, 'subject'],
  ] as const)(
    'POST %s with a field nested 4,000 deep: a 400 naming the field, nothing stored',
    async (url, payload, field) => {
      const stored = async () =>
        (
          await Promise.all(
            ['/api/ads', '/api/messages'].map(
              async (path) => (await t.request({ method: 'GET', url: path, cookie })).body,
            ),
          )
        ).join();
      const before = await stored();
      const response = await t.request({ method: 'POST', url, cookie, payload });
      expect(response.statusCode, response.body).toBe(400);
      const message = url.startsWith('/trpc') ? response.json().error.message : response.json().error;
      expect(message).toMatch(
        new RegExp(
          `^${field}(\\.(a|0)){${MAX_INPUT_DEPTH - 1}}: must not be nested more than ${MAX_INPUT_DEPTH} levels deep$`,
        ),
      );
      expect(await stored()).toBe(before);
    },
  );
});
