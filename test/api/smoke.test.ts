import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../helpers.js';

describe('smoke', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(() => t.close());

  it('answers healthz and settings', async () => {
    expect((await t.request({ method: 'GET', url: '/healthz' })).json()).toEqual({ ok: true });
    const settings = await t.request({ method: 'GET', url: '/api/settings' });
    expect(settings.json().site_title).toBe('Find Services Near You');
    const cookie = await t.login();
    const save = await t.request({ method: 'POST', url: '/api/settings', cookie, payload: { siteTitle: 'Hi' } });
    expect(save.json()).toEqual({ success: true });
  });
});
