// Ad media uploads: real small files of each allowed type, and each refused kind, in the media
// store in force (a folder on SQLite, the database on PostgreSQL; media.test.ts tests both).
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MiB } from '../../../src/media/store.js';
import { buildTestApp, type TestApp } from '../../helpers.js';
import { fixture, multipart, storedUploads } from '../../support/media.js';

let t: TestApp;
let cookie: string;
beforeEach(async () => {
  t = await buildTestApp();
  cookie = await t.login();
});
afterEach(() => t.close());

const stored = () => storedUploads(t);
const ads = async () => (await t.request({ method: 'GET', url: '/api/ads' })).json();

describe('uploads', () => {
  it.each([
    ['tiny.png', 'image/png'],
    ['tiny.jpg', 'image/jpeg'],
    ['tiny.gif', 'image/gif'],
    ['tiny.webp', 'image/webp'],
    ['tiny.avif', 'image/avif'],
    ['tiny.mp4', 'video/mp4'],
    ['tiny.webm', 'video/webm'],
    ['tiny.ogv', 'video/ogg'],
  ])('accepts %s, stores it under a random name and serves it as %s', async (name, type) => {
    // The declared type and name are lies on purpose: only the bytes count.
    const body = multipart(
      { type: 'carousel', title: 'Ad', link: 'https://shop.example.org', interval: '4000' },
      { filename: 'whatever.bin', type: 'application/octet-stream', data: fixture(name) },
    );
    const response = await t.request({ method: 'POST', url: '/api/ads', cookie, ...body });
    expect(response.statusCode, response.body).toBe(200);
    const [ad] = (await ads()).carousel;
    expect(ad).toMatchObject({ title: 'Ad', interval: 4000 });
    expect(ad.media).toMatch(/^\/uploads\/[A-Za-z0-9_-]{22}\.\w+$/);
    expect(await stored()).toEqual([ad.media.slice('/uploads/'.length)]);

    const served = await t.request({ method: 'GET', url: ad.media });
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-type']).toBe(type);
    expect(served.headers['x-content-type-options']).toBe('nosniff');
    expect(served.headers['content-security-policy']).toBe("default-src 'none'; sandbox");
    expect(served.rawPayload.equals(fixture(name))).toBe(true);
  });

  it.each([
    [
      'an SVG',
      'logo.svg',
      'image/svg+xml',
      Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'),
    ],
    [
      'an HTML page',
      'page.png',
      'image/png',
      Buffer.from('<!doctype html><html><body><script>alert(1)</script></body></html>'),
    ],
    ['a PDF', 'ad.jpg', 'image/jpeg', Buffer.concat([Buffer.from('%PDF-1.4\n'), Buffer.alloc(5000, 32)])],
    ['plain text', 'ad.mp4', 'video/mp4', Buffer.from('just some text, not a video at all')],
  ])('refuses %s with 415 and keeps nothing', async (_kind, filename, type, data) => {
    const body = multipart({ type: 'static' }, { filename, type, data });
    const response = await t.request({ method: 'POST', url: '/api/ads', cookie, ...body });
    expect(response.statusCode).toBe(415);
    expect(response.json().error).toMatch(/^file: unsupported media type/);
    expect(await stored()).toEqual([]);
    expect((await ads()).static).toEqual([]);
  });

  it('refuses an image over 5 MiB with 413 while streaming, and keeps nothing', async () => {
    const data = Buffer.concat([fixture('tiny.png'), Buffer.alloc(5 * MiB)]);
    const response = await t.request({
      method: 'POST',
      url: '/api/ads',
      cookie,
      ...multipart({ type: 'static' }, { filename: 'big.png', type: 'image/png', data }),
    });
    expect(response.statusCode).toBe(413);
    expect(response.json()).toEqual({ error: 'file: images may be at most 5 MiB' });
    expect(await stored()).toEqual([]);
  });

  it('accepts a 6 MiB video but refuses one over 50 MiB with 413', async () => {
    const six = Buffer.concat([fixture('tiny.mp4'), Buffer.alloc(6 * MiB)]);
    const ok = await t.request({
      method: 'POST',
      url: '/api/background_videos',
      cookie,
      ...multipart({ title: 'Intro', enabled: '1' }, { filename: 'v.mp4', type: 'video/mp4', data: six }),
    });
    expect(ok.statusCode, ok.body).toBe(200);
    const huge = Buffer.concat([fixture('tiny.mp4'), Buffer.alloc(50 * MiB)]);
    const response = await t.request({
      method: 'POST',
      url: '/api/background_videos',
      cookie,
      ...multipart({ title: 'Too big' }, { filename: 'v.mp4', type: 'video/mp4', data: huge }),
    });
    expect(response.statusCode).toBe(413);
    expect(response.json().error).toMatch(/50 MiB/);
    expect(await stored()).toHaveLength(1);
    expect((await ads()).background_videos).toHaveLength(1);
  });

  it('writes nothing for a visitor', async () => {
    const body = multipart({ type: 'static' }, { filename: 'a.png', type: 'image/png', data: fixture('tiny.png') });
    for (const url of ['/api/ads', '/api/uploads']) {
      const response = await t.request({ method: 'POST', url, ...body });
      expect(response.statusCode).toBe(401);
    }
    expect(await stored()).toEqual([]);
  });

  it('removes the stored file when the rest of the form is invalid', async () => {
    const body = multipart({ type: 'popup' }, { filename: 'a.png', type: 'image/png', data: fixture('tiny.png') });
    const response = await t.request({ method: 'POST', url: '/api/ads', cookie, ...body });
    expect(response.statusCode).toBe(400);
    expect(response.json().error).toMatch(/^type: /);
    expect(await stored()).toEqual([]);
  });

  it('deletes the old file when the media is replaced, and the file with its ad', async () => {
    await t.request({
      method: 'POST',
      url: '/api/ads',
      cookie,
      ...multipart({ type: 'static' }, { filename: 'a.png', type: 'image/png', data: fixture('tiny.png') }),
    });
    const [ad] = (await ads()).static;
    const update = multipart(
      { id: String(ad.id), type: 'static' },
      { filename: 'b.gif', type: 'image/gif', data: fixture('tiny.gif') },
    );
    expect((await t.request({ method: 'PUT', url: '/api/ads', cookie, ...update })).statusCode).toBe(200);
    const [updated] = (await ads()).static;
    expect(updated.media).toMatch(/\.gif$/);
    expect(await stored()).toEqual([updated.media.slice('/uploads/'.length)]);
    expect((await t.request({ method: 'DELETE', url: `/api/ads?id=${ad.id}&type=static`, cookie })).statusCode).toBe(
      200,
    );
    expect(await stored()).toEqual([]);
  });

  it('accepts media_url instead of a file, never fetching it', async () => {
    const body = multipart({ type: 'static', media_url: 'https://cdn.example.org/banner.webp' });
    expect((await t.request({ method: 'POST', url: '/api/ads', cookie, ...body })).statusCode).toBe(200);
    expect((await ads()).static[0].media).toBe('https://cdn.example.org/banner.webp');
    const bad = multipart({ type: 'static', media_url: 'file:///etc/passwd' });
    expect((await t.request({ method: 'POST', url: '/api/ads', cookie, ...bad })).json().error).toMatch(/^media_url: /);
  });

  it('stores one file through /api/uploads for the admin pages', async () => {
    const response = await t.request({
      method: 'POST',
      url: '/api/uploads',
      cookie,
      ...multipart({}, { filename: 'a.webp', type: 'image/webp', data: fixture('tiny.webp') }),
    });
    expect(response.statusCode).toBe(201);
    expect(response.json()).toMatchObject({
      success: true,
      url: expect.stringMatching(/^\/uploads\/.+\.webp$/),
      type: 'image/webp',
    });
  });
});
