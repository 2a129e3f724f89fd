import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { hasBrowser, launchBrowser, openPage, startServer, type E2EServer } from './harness.js';

describe.skipIf(!hasBrowser)('browser smoke', () => {
  let server: E2EServer;
  let browser: Browser;
  beforeAll(async () => {
    server = await startServer();
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('serves the app shell', async () => {
    const { page, errors, context } = await openPage(browser, server.baseUrl);
    await page.goto(server.baseUrl + '/');
    await expect.poll(() => page.locator('h1').textContent()).toContain('Find Services');
    expect(errors).toEqual([]);
    await context.close();
  });
});
