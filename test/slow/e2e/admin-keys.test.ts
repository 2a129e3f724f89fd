// The admin's Site keys page in a real Chromium: a key is created (the form's checks and the
// server's, in the admin's words), shown with its snippet filled in and its use per day over the
// last 30 days, edited, and deleted after a confirmation; on a phone too.
import { beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { hasBrowser, launchBrowser, openPage, PHONE, startServer, type E2EServer } from './harness.js';
import { contextTracker } from './public-helpers.js';
import { expectNoSeriousAxeViolations, loginThroughForm, openAdminPage, unexpectedErrors } from './admin-helpers.js';

describe.skipIf(!hasBrowser)('admin: site keys', () => {
  let server: E2EServer;
  let browser: Browser;
  beforeAll(async () => {
    [server, browser] = await Promise.all([startServer(), launchBrowser()]);
  });
  const { track } = contextTracker(() => ({ browser, server }));
  const banner = (page: Page) => page.getByTestId('banner').locator('span');

  it('creates a key with its snippet and use per day, edits and deletes it', async () => {
    const { page, errors } = track(
      await openPage(browser, {
        timezoneId: 'UTC',
        permissions: ['clipboard-read', 'clipboard-write'],
      }),
    );
    await loginThroughForm(page, server.baseUrl);
    await openAdminPage(page, 'Site keys');
    await page.getByText('No site keys yet.').waitFor();

    const form = page.getByTestId('key-form');
    await form.getByLabel('Sites allowed to use it').fill('townhall.example/page');
    await form.getByLabel('Requests per day').fill('0');
    await form.getByRole('button', { name: 'Create the key' }).click();
    await form.getByText('This field is required').waitFor();
    await form.getByText('Enter sites such as https://example.org: scheme, host and port, no path').waitFor();
    await form.getByText('Enter a whole number from 1 to 100,000,000').waitFor();

    await form.getByLabel('Name (who uses it)').fill('Town hall');
    await form.getByLabel('Sites allowed to use it').fill('https://townhall.example\nhttp://127.0.0.2:8080/');
    await form.getByLabel('Requests per day').fill('5000');
    await form.getByRole('button', { name: 'Create the key' }).click();
    await expect.poll(() => banner(page).textContent()).toBe("Key created: paste its snippet into the site's pages");

    const card = page.getByTestId('site-key');
    await card.getByRole('heading', { name: 'Town hall' }).waitFor();
    const key = (await card.locator('code').first().textContent())!;
    expect(key).toMatch(/^pk_/);
    expect(await card.textContent()).toContain('https://townhall.example, http://127.0.0.2:8080');
    expect(await card.getByTestId('key-snippet').textContent()).toBe(
      `<script src="${server.baseUrl}/embed.js" data-key="${key}" data-categories="pharmacy,atm" async></script>`,
    );
    await card.getByRole('button', { name: 'Copy the snippet' }).click();
    await card.getByText('Snippet copied').waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toContain(`data-key="${key}"`);

    // Used by a server (no Origin) twice: the page shows it for today, in the chart's last bar.
    for (let i = 0; i < 2; i++) expect((await fetch(`${server.baseUrl}/api/settings?key=${key}`)).status).toBe(200);
    await page.waitForTimeout(1500); // shared once a second
    await page.reload();
    await expect.poll(() => card.textContent()).toContain('Used today: 2 of 5000');
    const bars = card.locator('[data-testid="requests-chart"] rect');
    expect(await bars.count()).toBe(30);
    expect(await bars.last().getAttribute('data-count')).toBe('2');

    await card.getByRole('button', { name: 'Edit Town hall' }).click();
    await form.getByLabel('Requests per day').fill('9000');
    await form.getByRole('button', { name: 'Save the key' }).click();
    await expect.poll(() => banner(page).textContent()).toBe('Key saved');
    await expect.poll(() => card.textContent()).toContain('Used today: 2 of 9000');
    await expectNoSeriousAxeViolations(page);

    await card.getByRole('button', { name: 'Delete Town hall' }).click();
    await page.getByRole('dialog', { name: 'Please confirm' }).getByRole('button', { name: 'Delete' }).click();
    await expect
      .poll(() => banner(page).textContent())
      .toBe('Key deleted: it stops working on every server within seconds');
    await page.getByText('No site keys yet.').waitFor();
    expect((await fetch(`${server.baseUrl}/api/settings?key=${key}`)).status).toBe(401);
    expect(unexpectedErrors(errors)).toEqual([]);
  }, 60_000);

  it('reads on a phone, the snippet wrapped rather than scrolled', async () => {
    const cookie = await server.login();
    await server.request({
      method: 'POST',
      url: '/api/admin/keys',
      cookie,
      payload: { name: 'Blog', origins: ['https://blog.example'], daily_limit: 100 },
    });
    const { page } = track(await openPage(browser, { ...PHONE }));
    await loginThroughForm(page, server.baseUrl);
    await page.goto(`${server.baseUrl}/admin/keys`);
    await page.getByTestId('site-key').getByRole('heading', { name: 'Blog' }).waitFor();
    expect(await page.evaluate(() => document.scrollingElement!.scrollWidth)).toBeLessThanOrEqual(390);
  }, 60_000);
});
