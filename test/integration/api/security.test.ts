// Headers, cross-site and content-type rules, body and rate limits, and hidden internals.
import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../helpers.js';

let t: TestApp;
afterEach(() => t?.close());

const contact = { name: 'Ana', email: 'ana@example.org', subject: 'Hi', body: 'Hello' };

describe('security headers', () => {
  it('are on every response, with a CSP the map and our assets work under', async () => {
    t = await buildTestApp();
    for (const url of ['/api/settings', '/healthz', '/some/page']) {
      const response = await t.request({ method: 'GET', url });
      const csp = String(response.headers['content-security-policy']);
      expect(csp).toContain("default-src 'self'");
      expect(csp).toContain("script-src 'self'");
      expect(csp).toContain("frame-ancestors 'none'");
      expect(csp).toMatch(/img-src [^;]*https:/); // OpenStreetMap tiles
      expect(csp).not.toContain('upgrade-insecure-requests'); // served over http here
      expect(response.headers['x-content-type-options']).toBe('nosniff');
      expect(response.headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
      expect(response.headers['x-frame-options']).toBe('SAMEORIGIN');
      expect(response.headers['strict-transport-security']).toBeUndefined();
      expect(response.headers['cross-origin-opener-policy']).toBeUndefined(); // ignored on http
    }
  });

  it('add HSTS and upgrade-insecure-requests when the site is https', async () => {
    t = await buildTestApp({ env: { PUBLIC_ORIGIN: 'https://places.example.org' } });
    const response = await t.request({ method: 'GET', url: '/api/settings' });
    expect(response.headers['strict-transport-security']).toBeDefined();
    expect(response.headers['cross-origin-opener-policy']).toBe('same-origin');
    expect(String(response.headers['content-security-policy'])).toContain('upgrade-insecure-requests');
  });
});

describe('cross-site writes', () => {
  it('are refused on /trpc as on /api; same-origin and non-browser clients pass', async () => {
    t = await buildTestApp();
    const cookie = await t.login();
    const call = (headers: Record<string, string | undefined>) =>
      t.request({
        method: 'POST',
        url: '/trpc/plans.create',
        cookie,
        headers: { 'content-type': 'application/json', ...headers },
        payload: { name: 'X', price: 1, type: 'pro', description: 'd', link: 'https://x.org' },
      });
    expect((await call({ 'sec-fetch-site': 'cross-site' })).statusCode).toBe(403);
    expect((await call({ 'sec-fetch-site': 'same-site' })).statusCode).toBe(403);
    expect((await call({ 'sec-fetch-site': undefined, origin: 'http://localhost:3000.evil.example' })).statusCode).toBe(
      403,
    );
    expect((await call({})).statusCode).toBe(200);
    expect((await call({ 'sec-fetch-site': undefined, origin: undefined })).statusCode).toBe(200);
    const plans = (await t.request({ method: 'GET', url: '/trpc/plans.list' })).json();
    expect(plans.result.data).toHaveLength(2);
  });
});

describe('content types and body size', () => {
  it('JSON routes accept only application/json', async () => {
    t = await buildTestApp();
    for (const [type, payload] of [
      ['text/plain', JSON.stringify(contact)],
      ['application/x-www-form-urlencoded', new URLSearchParams(contact).toString()],
    ]) {
      const response = await t.request({
        method: 'POST',
        url: '/api/contact',
        headers: { 'content-type': type },
        payload,
      });
      expect(response.statusCode).toBe(415);
      expect(response.json().error).toMatch(/application\/json|Unsupported/);
    }
    expect(
      (
        await t.request({
          method: 'POST',
          url: '/api/contact',
          headers: { 'content-type': 'application/json' },
          payload: '{bad json',
        })
      ).json(),
    ).toEqual({ error: 'The body is not valid JSON' });
  });

  it('refuses bodies over 64 KiB with 413', async () => {
    t = await buildTestApp();
    const response = await t.request({
      method: 'POST',
      url: '/api/contact',
      payload: { ...contact, body: 'x'.repeat(70 * 1024) },
    });
    expect(response.statusCode).toBe(413);
    expect(response.json()).toEqual({ error: 'The request body is too large' });
  });

  it('counts a visit posted with a JSON type and no body, or with no type at all', async () => {
    t = await buildTestApp();
    expect(
      (await t.request({ method: 'POST', url: '/api/visit', headers: { 'content-type': 'application/json' } })).json(),
    ).toEqual({ success: true });
    expect((await t.request({ method: 'POST', url: '/api/visit' })).json()).toEqual({ success: true });
    const cookie = await t.login();
    expect((await t.request({ method: 'GET', url: '/api/visits', cookie })).json().total_visits).toBe(2);
  });
});

describe('rate limits', () => {
  it('allow 5 contact messages per 10 minutes per address, then 429 with Retry-After', async () => {
    t = await buildTestApp({ env: { RATE_LIMIT: 'on' } });
    for (let i = 0; i < 5; i++)
      expect((await t.request({ method: 'POST', url: '/api/contact', payload: contact })).statusCode).toBe(200);
    const limited = await t.request({ method: 'POST', url: '/api/contact', payload: contact });
    expect(limited.statusCode).toBe(429);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect(limited.json()).toEqual({ error: 'Too many requests, please try again later' });
    // Another address is not affected.
    expect(
      (await t.request({ method: 'POST', url: '/api/contact', payload: contact, remoteAddress: '10.1.2.3' }))
        .statusCode,
    ).toBe(200);
  });

  it('allow 60 visits a minute and 300 other API calls a minute', async () => {
    t = await buildTestApp({ env: { RATE_LIMIT: 'on' } });
    for (let i = 0; i < 60; i++) await t.request({ method: 'POST', url: '/api/visit' });
    expect((await t.request({ method: 'POST', url: '/api/visit' })).statusCode).toBe(429);
    for (let i = 0; i < 300; i++) await t.request({ method: 'GET', url: '/api/plans' });
    expect((await t.request({ method: 'GET', url: '/api/plans' })).statusCode).toBe(429);
  });

  it('are lifted by RATE_LIMIT=off', async () => {
    t = await buildTestApp({ env: { RATE_LIMIT: 'off' } });
    for (let i = 0; i < 8; i++)
      expect((await t.request({ method: 'POST', url: '/api/contact', payload: contact })).statusCode).toBe(200);
  });
});

describe('errors', () => {
  it('never show internals: a failing query answers a bare 500', async () => {
    t = await buildTestApp();
    await sql`drop table plans`.execute(t.handle.db);
    for (const url of ['/api/plans', '/trpc/plans.list']) {
      const response = await t.request({ method: 'GET', url });
      expect(response.statusCode).toBe(500);
      expect(response.body).not.toMatch(/plans|sqlite|postgres|relation|at .*\.ts/i);
      expect(response.body).toContain('Internal server error');
    }
  });

  it('answers 404 with a JSON error for unknown API paths and ids', async () => {
    t = await buildTestApp();
    const cookie = await t.login();
    expect((await t.request({ method: 'GET', url: '/api/nothing' })).json()).toEqual({ error: 'Not found' });
    const missing = await t.request({
      method: 'PUT',
      url: '/api/messages',
      cookie,
      payload: { id: 999, status: 'read' },
    });
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toEqual({ error: 'Message not found' });
  });
});
