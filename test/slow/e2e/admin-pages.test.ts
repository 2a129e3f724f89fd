// The admin pages in a real browser: dashboard, settings (seen on the public home), users and
// plans; axe-core on each admin page.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { hasBrowser, launchBrowser, openPage, startServer, type E2EServer } from './harness.js';
import { expectNoSeriousAxeViolations, loginThroughForm, openAdminPage, unexpectedErrors } from './admin-helpers.js';

const RED = 'rgb(185, 28, 28)';

describe.skipIf(!hasBrowser)('admin pages', () => {
  let server: E2EServer;
  let browser: Browser;
  let cookie: string;
  beforeAll(async () => {
    server = await startServer();
    browser = await launchBrowser();
    cookie = await server.login();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  const api = async (method: 'GET' | 'POST' | 'PUT', url: string, payload?: object) => {
    const response = await server.request({ method, url, cookie, ...(payload ? { payload } : {}) });
    expect(response.statusCode, response.body).toBeLessThan(300);
    return response.json();
  };
  const statValue = (page: Page, testId: string) => page.getByTestId(testId).locator('.admin-stat-value').textContent();

  it('dashboard: counts, the five latest messages with unread in red, the chart, links and a confirmed reset', async () => {
    for (let i = 1; i <= 6; i++) {
      await api('POST', '/api/contact', {
        name: `Visitor ${i}`,
        email: `v${i}@example.com`,
        subject: `Subject ${i}`,
        body: `Body ${i}`,
      });
    }
    const messages: { id: number; subject: string }[] = await api('GET', '/api/messages');
    await api('PUT', '/api/messages', { id: messages.find((m) => m.subject === 'Subject 5')!.id, status: 'read' });
    await api('POST', '/api/ads', {
      type: 'static',
      title: 'Static one',
      link: '',
      media_url: 'https://example.com/a.png',
    });
    await api('POST', '/api/ads', {
      type: 'carousel',
      title: 'Slide one',
      link: '',
      media_url: 'https://example.com/b.png',
    });
    await api('POST', '/api/plans', {
      name: 'Basic',
      price: 5,
      type: 'basic',
      description: 'Plain text plan',
      link: 'https://example.com/basic',
    });

    // UTC, so that the server clock's day is the browser's day too.
    const { page, errors, context } = await openPage(browser, { timezoneId: 'UTC' });
    await loginThroughForm(page, server.baseUrl);
    await expect.poll(() => statValue(page, 'stat-messages')).toBe('6');
    await expect.poll(() => statValue(page, 'stat-unread')).toBe('5');
    await expect.poll(() => statValue(page, 'stat-ads')).toBe('2');
    await expect.poll(() => statValue(page, 'stat-plans')).toBe('1');
    // Every page load counts a visit (the public tracker): the counts are the server's.
    const visits = await api('GET', '/api/visits');
    await expect.poll(() => statValue(page, 'stat-current-visits')).toBe(String(visits.current_visits));
    await expect.poll(() => statValue(page, 'stat-total-visits')).toBe(String(visits.total_visits));
    expect(visits.total_visits).toBeGreaterThan(0);
    expect(await page.getByTestId('stat-current-visits').textContent()).toContain('Last reset: never');

    // Recent activity: the five latest, newest first, unread in red and labelled.
    const recent = page.getByTestId('recent-activity').locator('li');
    expect(await recent.count()).toBe(5);
    expect(await recent.first().textContent()).toContain('Subject 6');
    const read = recent.filter({ hasText: 'Subject 5' });
    const unread = recent.filter({ hasText: 'Subject 6' });
    expect(await unread.evaluate((el) => getComputedStyle(el.querySelector('a')!).color)).toBe(RED);
    expect(await unread.textContent()).toContain('Unread');
    expect(await read.evaluate((el) => getComputedStyle(el.querySelector('a')!).color)).not.toBe(RED);
    expect(await read.textContent()).not.toContain('Unread');
    expect(await page.getByTestId('recent-activity').textContent()).not.toContain('Subject 1');

    // The chart: 30 days, today's bar is today's count.
    const bars = page.getByTestId('visits-chart').locator('rect');
    await expect.poll(() => bars.count()).toBe(30);
    const daily: { day: string; count: number }[] = await api('GET', '/api/visits/daily');
    expect(await bars.last().getAttribute('data-day')).toBe(daily[29].day);
    expect(Number(await bars.last().getAttribute('data-count'))).toBe(daily[29].count);
    const total = daily.reduce((s, d) => s + d.count, 0);
    expect(await page.getByTestId('visits-chart').getAttribute('aria-label')).toContain(
      `${total} ${total === 1 ? 'visit' : 'visits'} in all`,
    );

    await expectNoSeriousAxeViolations(page);

    // Reset asks first; Cancel keeps the count.
    const before = await statValue(page, 'stat-current-visits');
    await page.getByTestId('stat-current-visits').getByRole('button', { name: 'Reset' }).click();
    const confirm = page.getByRole('dialog', { name: 'Please confirm' });
    await confirm.getByText('Reset the current visits counter to zero?').waitFor();
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    await confirm.waitFor({ state: 'hidden' });
    expect(await statValue(page, 'stat-current-visits')).toBe(before);
    await page.getByTestId('stat-current-visits').getByRole('button', { name: 'Reset' }).click();
    await confirm.getByRole('button', { name: 'Reset' }).click();
    const banner = page.getByTestId('banner');
    await expect.poll(() => banner.textContent()).toContain('Visits counter reset successfully');
    expect(await banner.getAttribute('class')).toContain('admin-banner-success');
    await expect.poll(() => statValue(page, 'stat-current-visits')).toBe('0');
    expect(await statValue(page, 'stat-total-visits')).toBe(String(visits.total_visits));
    // The last-reset date, in the admin's language (the server's clock says 21 November 2026).
    await expect
      .poll(() => page.getByTestId('stat-current-visits').textContent())
      .toContain('Last reset: Nov 21, 2026');

    // Quick actions and cards lead to their pages.
    const href = (testId: string) => page.getByTestId(testId).getByRole('link').getAttribute('href');
    expect([
      await href('stat-messages'),
      await href('stat-unread'),
      await href('stat-ads'),
      await href('stat-plans'),
    ]).toEqual(['/admin/messages', '/admin/messages', '/admin/ads', '/admin/plans']);
    const quick = page.getByRole('region', { name: 'Quick actions' }).getByRole('link');
    expect(await quick.evaluateAll((links) => links.map((a) => a.getAttribute('href')))).toEqual([
      '/admin/messages',
      '/admin/ads',
      '/admin/plans',
      '/admin/settings',
    ]);
    await page.getByRole('link', { name: 'Manage plans' }).click();
    await page.getByRole('heading', { level: 1, name: 'Plans' }).waitFor();
    await openAdminPage(page, 'Dashboard');
    await page.getByTestId('stat-ads').getByRole('link').click();
    await page.getByRole('heading', { level: 1, name: 'Ads Management' }).waitFor();
    await openAdminPage(page, 'Dashboard');
    await page.getByTestId('stat-unread').getByRole('link').click();
    await page.getByRole('heading', { level: 1, name: 'Messages' }).waitFor();

    // When the data cannot be loaded again, every count shows zero (not the old figures).
    await openAdminPage(page, 'Dashboard');
    await expect.poll(() => statValue(page, 'stat-messages')).toBe('6');
    await page.route('**/trpc/**', (route) => route.abort('failed'));
    await openAdminPage(page, 'Plans');
    await openAdminPage(page, 'Dashboard');
    await page.getByText('Error loading data').waitFor({ timeout: 15_000 });
    for (const id of [
      'stat-messages',
      'stat-unread',
      'stat-ads',
      'stat-plans',
      'stat-current-visits',
      'stat-total-visits',
    ]) {
      expect(await statValue(page, id)).toBe('0');
    }
    expect(await page.getByTestId('recent-activity').count()).toBe(0);
    await page.unroute('**/trpc/**');

    expect(unexpectedErrors(errors)).toEqual([]);
    await context.close();
  });

  it('settings: per-field checks, the live preview, and a saved change that the public home shows', async () => {
    const { page, errors, context } = await openPage(browser);
    await loginThroughForm(page, server.baseUrl);
    await openAdminPage(page, 'Settings');
    const form = page.getByTestId('settings-form');
    await form.getByLabel('Site title').waitFor();

    // The 31 categories of the admin settings, and the five languages.
    expect(await page.getByTestId('categories').getByRole('checkbox').count()).toBe(31);
    for (const name of ['Pharmacies', 'Hospitals', 'Museums', 'Gas stations'])
      await form.getByRole('checkbox', { name, exact: true }).waitFor();
    expect(await form.getByRole('checkbox', { name: 'Wi-Fi hotspots' }).count()).toBe(0);
    expect(await form.getByRole('group', { name: 'Languages' }).getByRole('checkbox').count()).toBe(5);
    await expectNoSeriousAxeViolations(page);

    // Bad values: each field says what is wrong, nothing is saved.
    await form.getByLabel('Site title').fill('');
    await form.getByLabel('Logo URL').fill('not a url');
    await form.getByLabel('Contact email').fill('nobody');
    await form.getByLabel('Primary color (hex code)').fill('blue');
    await form.getByRole('button', { name: 'Save settings' }).click();
    const banner = page.getByTestId('banner');
    await expect.poll(() => banner.textContent()).toContain('Error saving settings');
    expect(await banner.getAttribute('class')).toContain('admin-banner-error');
    expect(await form.getByLabel('Site title').getAttribute('aria-invalid')).toBe('true');
    await form.getByText('This field is required').waitFor();
    await form.getByText('Enter an address starting with http:// or https://').waitFor();
    await form.getByText('Enter a valid email address').waitFor();
    await form.getByText('Enter a color like #3B82F6').waitFor();
    await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('name'))).toBe('site_title');
    expect((await api('GET', '/api/settings')).site_title).toBe('Find Services Near You');

    // Good values; the preview follows as they are typed.
    await form.getByLabel('Site title').fill('Lisbon Finder');
    await form.getByLabel('Logo URL').fill('');
    await form.getByLabel('Contact email').fill('hello@example.com');
    await form.getByLabel('Default city').fill('Lisbon');
    await form.getByLabel('Primary color (hex code)').fill('#7C2D12');
    await form.getByLabel('Secondary color', { exact: true }).fill('#065f46');
    expect(await form.getByLabel('Secondary color (hex code)').inputValue()).toBe('#065F46');
    await form.getByLabel('Font').selectOption('Poppins, sans-serif');
    await form.getByRole('checkbox', { name: 'Pharmacies', exact: true }).check();
    await form.getByRole('checkbox', { name: 'Hospitals', exact: true }).check();
    await form.getByRole('checkbox', { name: 'Italiano' }).uncheck();
    const preview = page.getByTestId('hero-preview');
    await expect.poll(() => preview.locator('h1').textContent()).toBe('Lisbon Finder');
    const previewStyle = await preview
      .locator('section.hero')
      .evaluate((el) => ({ font: getComputedStyle(el).fontFamily, background: getComputedStyle(el).backgroundColor }));
    expect(previewStyle.font).toContain('Poppins');
    expect(previewStyle.background).toBe('rgb(124, 45, 18)'); // #7C2D12 is dark enough to keep as is

    await form.getByRole('button', { name: 'Save settings' }).click();
    await expect.poll(() => banner.textContent()).toContain('Site settings updated successfully');
    expect(await banner.getAttribute('class')).toContain('admin-banner-success');
    expect(await api('GET', '/api/settings')).toMatchObject({
      site_title: 'Lisbon Finder',
      contact_email: 'hello@example.com',
      default_city: 'Lisbon',
      primary_color: '#7C2D12',
      secondary_color: '#065F46',
      font_family: 'Poppins, sans-serif',
      allowed_categories: ['pharmacy', 'hospital'],
      languages: ['en', 'es', 'pt', 'fr'],
    });

    // The public home, in the same app: the new title, colour and font, only the two categories.
    await page.getByRole('link', { name: 'Home', exact: true }).first().click();
    await page.waitForURL(`${server.baseUrl}/`);
    await expect.poll(() => page.locator('#hero-title').textContent()).toBe('Lisbon Finder');
    const hero = await page
      .locator('section.hero')
      .evaluate((el) => ({ font: getComputedStyle(el).fontFamily, background: getComputedStyle(el).backgroundColor }));
    expect(hero).toEqual(previewStyle);
    await expect.poll(() => page.locator('fieldset.categories input[type="checkbox"]').count()).toBe(2);
    expect(await page.getByLabel('Language', { exact: true }).locator('option').allTextContents()).not.toContain(
      'Italiano',
    );

    expect(unexpectedErrors(errors)).toEqual([]);
    await context.close();
  });

  it('users: created-at in the admin’s language, rules shown, add, refusals, and a delete that names the user', async () => {
    const { page, errors, context } = await openPage(browser);
    await loginThroughForm(page, server.baseUrl);
    await openAdminPage(page, 'Users');
    const row = (name: string) =>
      page
        .getByRole('row')
        .filter({ has: page.getByRole('cell', { name, exact: false }) })
        .filter({ hasText: name });
    await row('admin').waitFor();
    const users: { username: string; created_at: string }[] = await api('GET', '/api/admin/credentials');
    const createdAt = users[0].created_at;
    const formatted = (lang: string) =>
      page.evaluate(
        ([lang, value]) =>
          new Intl.DateTimeFormat(lang, { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(value)),
        [lang, createdAt],
      );
    expect(await row('admin').getByRole('cell').nth(1).textContent()).toBe(await formatted('en'));
    await page.getByText('3 to 32 characters: lowercase letters, digits, dot, underscore or hyphen').first().waitFor();
    await page.getByText('12 to 128 characters; common passwords are refused.').waitFor();
    await expectNoSeriousAxeViolations(page);

    // Checked in the page first.
    const form = page.locator('form', { has: page.getByRole('button', { name: 'Add user' }) });
    await form.getByLabel('Username').fill('No Spaces!');
    await form.getByLabel('Password').fill('short');
    await form.getByRole('button', { name: 'Add user' }).click();
    expect(await form.getByLabel('Username').getAttribute('aria-invalid')).toBe('true');
    await form.getByText('Password must be at least 12 characters').waitFor();

    await form.getByLabel('Username').fill('editor');
    await form.getByLabel('Password').fill('a long enough passphrase');
    await form.getByRole('button', { name: 'Add user' }).click();
    const banner = page.getByTestId('banner');
    await expect.poll(() => banner.textContent()).toContain('User added successfully');
    expect(await banner.getAttribute('class')).toContain('admin-banner-success');
    await row('editor').waitFor();
    expect(await form.getByLabel('Username').inputValue()).toBe('');

    // The server's refusals, in the admin's words.
    await form.getByLabel('Username').fill('editor');
    await form.getByLabel('Password').fill('another long passphrase');
    await form.getByRole('button', { name: 'Add user' }).click();
    await expect.poll(() => banner.textContent()).toContain('This username is already taken');
    await form.getByLabel('Username').fill('second');
    await form.getByLabel('Password').fill('aaaaaaaaaaaaaaaa');
    await form.getByRole('button', { name: 'Add user' }).click();
    await expect.poll(() => banner.textContent()).toContain('Password is too common; choose another');

    // Deleting yourself is refused by the server, and said so.
    await row('admin').getByRole('button', { name: 'Delete admin' }).click();
    const confirm = page.getByRole('dialog', { name: 'Please confirm' });
    await confirm.getByText('Are you sure you want to delete the user "admin"?').waitFor();
    await confirm.getByRole('button', { name: 'Delete' }).click();
    await expect.poll(() => banner.textContent()).toContain('You cannot delete your own account');
    expect(await banner.getAttribute('class')).toContain('admin-banner-error');

    await row('editor').getByRole('button', { name: 'Delete editor' }).click();
    await confirm.getByText('Are you sure you want to delete the user "editor"?').waitFor();
    await confirm.getByRole('button', { name: 'Delete' }).click();
    await expect.poll(() => banner.textContent()).toContain('User deleted successfully');
    await expect.poll(() => row('editor').count()).toBe(0);

    // In French, the dates are French too.
    await page.getByLabel('Language', { exact: true }).selectOption('fr');
    await page.getByRole('heading', { level: 1, name: 'Utilisateurs' }).waitFor();
    expect(await row('admin').getByRole('cell').nth(1).textContent()).toBe(await formatted('fr'));

    // 400 (too common) and 409 (taken, yourself) were asked for.
    expect(unexpectedErrors(errors, [400, 409])).toEqual([]);
    await context.close();
  });

  it('plans: checks, add, edit in the same form, delete after confirmation', async () => {
    for (const plan of await api('GET', '/api/plans')) {
      await server.request({ method: 'DELETE', url: `/api/plans?id=${plan.id}`, cookie });
    }
    const { page, errors, context } = await openPage(browser);
    await loginThroughForm(page, server.baseUrl);
    await openAdminPage(page, 'Plans');
    await page.getByText('No plans yet').waitFor();
    const form = page.getByTestId('plan-form');

    await form.getByRole('button', { name: 'Add plan' }).click();
    expect(await form.getByText('This field is required').count()).toBe(3); // name, price, link
    await form.getByText('Enter at least one feature').waitFor();
    await form.getByLabel('Name').fill('Starter');
    await form.getByLabel('Price (USD per month)').fill('9.999');
    await form.getByLabel('Link (external page)').fill('example.com');
    await form.getByLabel('Features').fill('Listing on the map\n\nOne photo');
    await form.getByRole('button', { name: 'Add plan' }).click();
    await form.getByText('Use at most two decimals').waitFor();
    await form.getByText('Enter an address starting with http:// or https://').waitFor();
    expect(await form.getByLabel('Price (USD per month)').getAttribute('step')).toBe('0.01');

    await form.getByLabel('Price (USD per month)').fill('12.5');
    await form.getByLabel('Link (external page)').fill('https://example.com/starter');
    await form.getByLabel('Languages').fill('English\nEspañol');
    await form.getByRole('button', { name: 'Add plan' }).click();
    const banner = page.getByTestId('banner');
    await expect.poll(() => banner.textContent()).toContain('Plan added successfully');
    expect(await banner.getAttribute('class')).toContain('admin-banner-success');
    const table = page.getByTestId('plans-table');
    await table.getByText('$12.50/month').waitFor();
    await table.getByText('Listing on the map, One photo').waitFor();
    await expectNoSeriousAxeViolations(page);

    // Edit: the same form, filled, in edit mode; Cancel goes back to adding.
    await table.getByRole('button', { name: 'Edit Starter' }).click();
    await page.getByRole('heading', { name: 'Edit plan' }).waitFor();
    expect(await form.getByLabel('Name').inputValue()).toBe('Starter');
    expect(await form.getByLabel('Languages').inputValue()).toBe('English\nEspañol');
    await form.getByRole('button', { name: 'Cancel editing' }).click();
    await page.getByRole('heading', { name: 'Add plan' }).waitFor();
    expect(await form.getByLabel('Name').inputValue()).toBe('');

    await table.getByRole('button', { name: 'Edit Starter' }).click();
    await form.getByLabel('Name').fill('Starter Plus');
    await form.getByLabel('Type').selectOption('premium');
    await form.getByLabel('Price (USD per month)').fill('15');
    await form.getByRole('button', { name: 'Update plan' }).click();
    await expect.poll(() => banner.textContent()).toContain('Plan updated successfully');
    await table.getByText('$15.00/month').waitFor();
    await page.getByRole('heading', { name: 'Add plan' }).waitFor();
    expect(await api('GET', '/api/plans')).toEqual([
      expect.objectContaining({
        name: 'Starter Plus',
        price: 15,
        type: 'premium',
        description: { features: ['Listing on the map', 'One photo'], languages: ['English', 'Español'] },
      }),
    ]);

    // Delete asks first.
    await table.getByRole('button', { name: 'Delete Starter Plus' }).click();
    const confirm = page.getByRole('dialog', { name: 'Please confirm' });
    await confirm.getByText('Are you sure you want to delete this item?').waitFor();
    await page.keyboard.press('Escape');
    await confirm.waitFor({ state: 'hidden' });
    expect(await api('GET', '/api/plans')).toHaveLength(1);
    await table.getByRole('button', { name: 'Delete Starter Plus' }).click();
    await confirm.getByRole('button', { name: 'Delete' }).click();
    await expect.poll(() => banner.textContent()).toContain('Plan deleted successfully');
    await page.getByText('No plans yet').waitFor();
    expect(await api('GET', '/api/plans')).toEqual([]);

    expect(unexpectedErrors(errors)).toEqual([]);
    await context.close();
  });
});
