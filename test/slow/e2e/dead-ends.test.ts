// No dead ends, in a real browser: a site without places says so to visitors (with the live
// source off, and out of reach) and tells its administrator how to load some; the footer's
// Privacy Policy and Terms open pages the administrator writes (a default text until then); social
// buttons only where the administrator linked them; /plans promises a trial only with plans.
import { createServer } from 'node:net';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { dictionaries } from '../../../web/i18n/index';
import { SHARED_DATA } from '../../helpers.js';
import {
  axeViolations,
  hasBrowser,
  launchBrowser,
  openPage,
  PHONE,
  DESKTOP,
  startServer,
  type E2EServer,
} from './harness.js';
import { loginThroughForm, openAdminPage } from './admin-helpers.js';
import { adminCall, contextTracker, importPlaces, unexpectedErrors } from './public-helpers.js';

const HARBOUR = { latitude: 43.7347, longitude: 7.4206 };

/** A loopback port nothing listens on: a live source that cannot be reached. */
async function closedPort(): Promise<number> {
  return new Promise((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

describe.skipIf(!hasBrowser)('no dead ends', () => {
  let empty: E2EServer;
  let unreachable: E2EServer;
  let browser: Browser;
  let cookie: string;

  beforeAll(async () => {
    const port = await closedPort();
    [empty, unreachable, browser] = await Promise.all([
      startServer(),
      startServer({ env: { OVERPASS_URL: `http://127.0.0.1:${port}/api/interpreter` } }),
      launchBrowser(),
    ]);
    cookie = await empty.login();
    return () => unreachable?.close();
  });
  const { track } = contextTracker(() => ({ browser, server: empty }));

  async function searchPharmacies(
    server: E2EServer,
    lang: 'en' | 'es' | 'fr',
    viewport: typeof PHONE | typeof DESKTOP,
  ) {
    const opened = track(
      await openPage(browser, {
        ...viewport,
        locale: lang,
        geolocation: HARBOUR,
        permissions: ['geolocation'],
      }),
    );
    const { page } = opened;
    const searches: string[] = [];
    page.on('request', (request) => {
      if (new URL(request.url()).pathname === '/api/places') searches.push(request.url());
    });
    await page.goto(server.baseUrl + '/');
    await expect.poll(() => page.locator('fieldset.categories').getAttribute('aria-busy')).toBe('false');
    await page.locator('input[type=checkbox][value=pharmacy]').check();
    await page.locator('.locator__actions .button--primary').click();
    return { ...opened, searches };
  }

  const cases = [
    ['en', DESKTOP, 'the live source off'],
    ['fr', PHONE, 'the live source off'],
    ['es', DESKTOP, 'the live source out of reach'],
  ] as const;
  for (const [lang, viewport, why] of cases) {
    it(`${lang}: with ${why}, a search says the site has no places around here yet`, async () => {
      const server = why === 'the live source off' ? empty : unreachable;
      const { page, errors, searches } = await searchPharmacies(server, lang, viewport);
      const t = dictionaries[lang];
      await page.getByText(t['results.noCoverage']).waitFor();
      // Not "temporarily unavailable", not "try a different category".
      expect(await page.getByText(t['search.unavailable']).count()).toBe(0);
      expect(await page.getByText(t['results.noneHint']).count()).toBe(0);
      expect(await page.locator('.error-box').textContent()).toBe('');
      // The site holding nothing, a retry could only say the same: one request.
      expect(searches).toHaveLength(1);
      await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe('results-heading');
      expect(await axeViolations(page)).toEqual([]);
      expect(unexpectedErrors(errors, [503])).toEqual([]);
    });
  }

  it('/plans without plans promises no trial and no saving', async () => {
    const { page, errors } = track(await openPage(browser));
    await page.goto(empty.baseUrl + '/plans');
    await page.getByText('No plans are available right now. Please come back soon.').waitFor();
    expect(await page.getByText(/14-day free trial/).count()).toBe(0);
    expect(await page.getByText('Save 20%').count()).toBe(0);
    expect(await page.getByRole('group', { name: 'Billing period' }).count()).toBe(0);
    expect(await page.getByText('How does the free trial work?').count()).toBe(0);
    expect(await page.getByText('How fast do you answer questions?').count()).toBe(1);
    // With a plan, they are back.
    await adminCall(empty, cookie, 'POST', '/api/plans', {
      name: 'Basic',
      price: 9.99,
      type: 'basic',
      description: 'One listing',
      link: 'https://pay.example.com/basic',
    });
    await page.reload();
    await page.locator('.plan-card').first().waitFor();
    expect(await page.getByText('Every plan starts with a 14-day free trial. No credit card required.').count()).toBe(
      1,
    );
    expect(await page.getByText('Save 20%').count()).toBe(1);
    await adminCall(
      empty,
      cookie,
      'DELETE',
      `/api/plans?id=${(await (await fetch(`${empty.baseUrl}/api/plans`)).json())[0].id}`,
    );
    expect(errors).toEqual([]);
  });

  for (const [lang, viewport] of [
    ['en', DESKTOP],
    ['es', PHONE],
  ] as const) {
    it(`${lang}: the footer's Privacy Policy and Terms open pages with the default texts`, async () => {
      const { page, errors } = track(await openPage(browser, { ...viewport, locale: lang }));
      const t = dictionaries[lang];
      await page.goto(empty.baseUrl + '/');
      await page.locator('footer').getByRole('link', { name: t['footer.privacy'] }).click();
      // (English unprefixed, Spanish under /es/)
      await page.waitForURL(/\/(es\/)?privacy$/);
      await page.getByRole('heading', { level: 1, name: t['footer.privacy'] }).waitFor();
      // The default text, as headings, lists and paragraphs: what the site keeps, and no tracking cookies.
      const [firstHeading] = t['legal.privacyDefault'].split('\n').filter((line) => line.startsWith('## '));
      await page.getByRole('heading', { level: 2, name: firstHeading.slice(3) }).waitFor();
      const text = (await page.locator('.legal-page').textContent())!;
      expect(text).toContain(
        lang === 'en'
          ? 'Messages you send through the contact form'
          : 'Los mensajes que envías con el formulario de contacto',
      );
      expect(text).toContain(lang === 'en' ? 'Visit counts' : 'El número de visitas');
      expect(text).toContain(lang === 'en' ? 'No tracking or advertising cookies' : 'Ninguna cookie de seguimiento');
      expect(await page.locator('.legal-page li').count()).toBeGreaterThan(4);
      expect(await page.title()).toContain(t['footer.privacy']);
      expect(await axeViolations(page)).toEqual([]);

      await page.locator('footer').getByRole('link', { name: t['footer.terms'] }).click();
      await page.waitForURL(/\/(es\/)?terms$/);
      await page.getByRole('heading', { level: 1, name: t['footer.terms'] }).waitFor();
      expect(await page.locator('.legal-page').textContent()).toContain('OpenStreetMap');
      expect(errors).toEqual([]);
    });
  }

  it('the administrator writes the privacy text and the social links in Settings; the site shows them', async () => {
    const admin = track(await openPage(browser));
    await loginThroughForm(admin.page, empty.baseUrl);
    await openAdminPage(admin.page, 'Settings');
    const form = admin.page.getByTestId('settings-form');
    await form.getByLabel('Texts in').selectOption('en');
    const privacy = form.getByLabel('Privacy Policy (English)');
    // "Start from the default text" puts the English default in the box, to edit.
    await form.getByRole('button', { name: 'Start from the default text' }).first().click();
    expect(await privacy.inputValue()).toBe(dictionaries.en['legal.privacyDefault']);
    await privacy.fill('We keep only what you send us.\n\n## Contact\n- Write to privacy@example.org');
    await form.getByLabel('X link').fill('not a link');
    await form.getByRole('button', { name: 'Save settings' }).click();
    await form.getByText('Enter an address starting with http:// or https://').waitFor();
    await form.getByLabel('X link').fill('https://x.com/nearby');
    await form.getByRole('button', { name: 'Save settings' }).click();
    await admin.page.getByTestId('banner').getByText('Site settings updated successfully').waitFor();

    const visitor = track(await openPage(browser));
    await visitor.page.goto(empty.baseUrl + '/privacy');
    await visitor.page.getByText('We keep only what you send us.').waitFor();
    await visitor.page.getByRole('heading', { level: 2, name: 'Contact' }).waitFor();
    expect(await visitor.page.locator('.legal-page li').allTextContents()).toEqual(['Write to privacy@example.org']);
    // Only X is linked: one button, to where the administrator said, in a new tab.
    const footer = visitor.page.locator('footer');
    expect(await footer.locator('.social-button').count()).toBe(1);
    const x = footer.getByRole('link', { name: /^Follow us on X/ });
    expect(await x.getAttribute('href')).toBe('https://x.com/nearby');
    expect(await x.getAttribute('target')).toBe('_blank');
    // Another language keeps its default text.
    const spanish = track(await openPage(browser, { locale: 'es' }));
    await spanish.page.goto(empty.baseUrl + '/privacy');
    await spanish.page.getByText('Este sitio te ayuda a encontrar lugares cerca de ti.', { exact: false }).waitFor();
    expect(unexpectedErrors([...admin.errors, ...visitor.errors, ...spanish.errors])).toEqual([]);
  });

  // Last: it imports places into the empty site.
  it('the dashboard says how to load places while the site has none, and not after an import', async () => {
    const { page, errors } = track(await openPage(browser, { ...PHONE }));
    await loginThroughForm(page, empty.baseUrl);
    const help = page.getByTestId('no-places');
    await help.getByRole('heading', { name: 'No places yet' }).waitFor();
    expect(await help.locator('code').textContent()).toBe('npm run import -- <extract.osm.pbf>');
    await help.getByRole('link', { name: 'Places data' }).click();
    await page.getByRole('heading', { level: 1, name: 'Places data' }).waitFor();

    await importPlaces(empty, join(SHARED_DATA, 'monaco-2021-04-21.osm.pbf'));
    await page.goto(empty.baseUrl + '/admin/dashboard');
    await page.getByTestId('stat-messages').waitFor();
    await page.getByTestId('searches-chart').waitFor();
    expect(await page.getByTestId('no-places').count()).toBe(0);
    expect(unexpectedErrors(errors)).toEqual([]);
  });
});
