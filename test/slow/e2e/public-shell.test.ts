// The public shell in a real browser: routes and redirects, Loading..., scroll to top, header
// (with the phone menu) and footer, languages (detection, switch, persistence), the theme from
// the settings, one visit per page load, the admin code kept out of public pages, axe, and the
// home screenshots.
import { beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { readableShade } from '../../../web/lib/color';
import {
  axeViolations,
  hasBrowser,
  holdRequests,
  launchBrowser,
  openPage,
  startServer,
  type E2EServer,
} from './harness.js';
import { adminCall, DEVICES, makePng, screenshot, upload, contextTracker } from './public-helpers.js';

describe.skipIf(!hasBrowser)('public shell', () => {
  let server: E2EServer;
  let browser: Browser;
  let cookie: string;

  beforeAll(async () => {
    [server, browser] = await Promise.all([startServer(), launchBrowser()]);
    cookie = await server.login();
    // Content, so the home page shows every section (and the screenshots show a real page).
    const media = await upload(server, cookie, makePng(640, 280, [37, 99, 235]), 'banner.png');
    await adminCall(server, cookie, 'POST', '/api/ads', {
      type: 'carousel',
      title: 'Spring offers',
      link: 'https://example.com/spring',
      media_url: media,
    });
    await adminCall(server, cookie, 'POST', '/api/ads', {
      type: 'static',
      title: 'Corner bakery',
      link: 'https://example.com/bakery',
      media_url: media,
    });
    for (const [name, price, type] of [
      ['Basic', 9.99, 'basic'],
      ['Pro', 19.99, 'pro'],
      ['Premium', 49, 'premium'],
    ] as const) {
      await adminCall(server, cookie, 'POST', '/api/plans', {
        name,
        price,
        type,
        description: `${name} listing`,
        link: `https://example.com/${type}`,
      });
    }
  });
  const { track } = contextTracker(() => ({ browser, server }));

  for (const [device, options] of DEVICES) {
    describe(device, () => {
      it('shows a public page at once, rendered by the server; the admin shows Loading... until the login-status check finishes', async () => {
        const { page, errors } = track(await openPage(browser, options));
        const status = await holdRequests(page, '**/api/admin/status');
        await page.goto(server.baseUrl + '/');
        // the login status matters to the admin only: the page is there while it is asked
        await page.getByRole('heading', { level: 1, name: 'Find Services Near You' }).waitFor();
        expect(await page.locator('header.site-header').count()).toBe(1);
        expect(await page.locator('footer.site-footer').count()).toBe(1);
        expect(await page.getByText('Loading...', { exact: true }).count()).toBe(0);
        await page.goto(server.baseUrl + '/admin');
        await page.getByRole('status').filter({ hasText: 'Loading...' }).waitFor();
        status.release();
        await expect.poll(() => page.getByText('Loading...', { exact: true }).count()).toBe(0);
        await expect.poll(() => page.locator('footer.site-footer').count()).toBe(1);
        expect(errors).toEqual([]);
      });

      it('header: Home, Contact and Plans links and the language menu; a collapsible menu on the phone', async () => {
        const { page, errors } = track(await openPage(browser, options));
        await page.goto(server.baseUrl + '/');
        const nav = page.getByRole('navigation', { name: 'Main navigation' });
        const menuButton = page.getByRole('button', { name: 'Menu' });
        // The header comes after the login-status check (Loading... until then).
        await page.locator('header .brand').waitFor();
        if (device === 'phone') {
          expect(await menuButton.getAttribute('aria-expanded')).toBe('false');
          expect(await nav.isVisible()).toBe(false);
          await menuButton.click();
          expect(await menuButton.getAttribute('aria-expanded')).toBe('true');
          expect(await nav.isVisible()).toBe(true);
          expect(await page.getByLabel('Language').isVisible()).toBe(true);
        } else {
          expect(await menuButton.isVisible()).toBe(false);
          expect(await nav.isVisible()).toBe(true);
        }
        expect(await nav.getByRole('link').allTextContents()).toEqual(['Home', 'Contact', 'Plans']);
        expect(await nav.getByRole('link', { name: 'Home' }).getAttribute('aria-current')).toBe('page');
        await nav.getByRole('link', { name: 'Contact' }).click();
        await page.waitForURL(server.baseUrl + '/contact');
        await page.getByRole('heading', { level: 1, name: 'Contact us' }).waitFor();
        // Following a link folds the phone menu again.
        if (device === 'phone') expect(await menuButton.getAttribute('aria-expanded')).toBe('false');
        if (device === 'phone') await menuButton.click();
        expect(await nav.getByRole('link', { name: 'Contact' }).getAttribute('aria-current')).toBe('page');
        await nav.getByRole('link', { name: 'Plans' }).click();
        await page.getByRole('heading', { level: 1, name: 'Plans and pricing' }).waitFor();
        expect(new URL(page.url()).pathname).toBe('/plans');
        expect(errors).toEqual([]);
      });

      it('footer: description, no social buttons until linked, quick links, privacy and terms, copyright year, OpenStreetMap attribution', async () => {
        const { page, errors } = track(await openPage(browser, options));
        await page.goto(server.baseUrl + '/plans');
        const footer = page.locator('footer.site-footer');
        await footer.waitFor();
        expect(await footer.textContent()).toContain('Find pharmacies, restaurants, banks, parks');
        // No network is linked in the settings: no button that would lead nowhere.
        expect(await footer.getByText('Follow us').count()).toBe(0);
        expect(await footer.locator('.social-button').count()).toBe(0);
        expect(await footer.getByRole('link', { name: 'Privacy Policy' }).getAttribute('href')).toBe('/privacy');
        expect(await footer.getByRole('link', { name: 'Terms of Service' }).getAttribute('href')).toBe('/terms');
        const quickLinks = footer.getByRole('navigation', { name: 'Quick links' });
        expect(
          await quickLinks.getByRole('link').evaluateAll((links) => links.map((a) => a.getAttribute('href'))),
        ).toEqual(['/', '/contact', '/plans']);
        expect(await footer.textContent()).toContain(
          `© ${new Date().getFullYear()} Find Services Near You. All rights reserved.`,
        );
        expect(await footer.getByRole('link', { name: /© OpenStreetMap contributors/ }).getAttribute('href')).toBe(
          'https://www.openstreetmap.org/copyright',
        );
        expect(errors).toEqual([]);
      });

      it('scrolls to the top on every path change', async () => {
        const { page, errors } = track(await openPage(browser, options));
        await page.goto(server.baseUrl + '/');
        await page.locator('footer.site-footer').scrollIntoViewIfNeeded();
        expect(await page.evaluate(() => window.scrollY)).toBeGreaterThan(300);
        await page.locator('footer.site-footer').getByRole('link', { name: 'Plans' }).click();
        await page.getByRole('heading', { level: 1, name: 'Plans and pricing' }).waitFor();
        await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(0);
        expect(errors).toEqual([]);
      });

      it('is keyboard usable: a skip link first, focus always visible', async () => {
        const { page, errors } = track(await openPage(browser, options));
        await page.goto(server.baseUrl + '/contact');
        await page.getByRole('heading', { level: 1, name: 'Contact us' }).waitFor();
        await page.keyboard.press('Tab');
        const skip = page.getByRole('link', { name: 'Skip to main content' });
        expect(await skip.evaluate((link) => link === document.activeElement)).toBe(true);
        expect(await skip.evaluate((link) => link.getBoundingClientRect().width)).toBeGreaterThan(50);
        expect(await skip.evaluate((link) => getComputedStyle(link).outlineStyle)).toBe('solid');
        await page.keyboard.press('Enter');
        await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe('main');
        // The next stop is inside the page, and it shows where it is.
        await page.keyboard.press('Tab');
        const outline = await page.evaluate(() => {
          const focused = document.activeElement as HTMLElement;
          return {
            inMain: Boolean(focused.closest('main')),
            style: getComputedStyle(focused).outlineStyle,
            width: getComputedStyle(focused).outlineWidth,
          };
        });
        expect(outline).toEqual({ inMain: true, style: 'solid', width: '3px' });
        expect(errors).toEqual([]);
      });

      it('redirects an unknown path to /', async () => {
        const { page, errors } = track(await openPage(browser, options));
        await page.goto(server.baseUrl + '/no/such/page?x=1');
        await page.waitForURL(server.baseUrl + '/');
        await page.getByRole('heading', { level: 1, name: 'Find Services Near You' }).waitFor();
        // Also when the app itself is asked for an unknown path.
        await page.evaluate(() => {
          history.pushState(null, '', '/nowhere');
          dispatchEvent(new PopStateEvent('popstate'));
        });
        await page.waitForURL(server.baseUrl + '/');
        expect(errors).toEqual([]);
      });

      it('detects the language, keeps it under "language", switches and remembers it after a reload', async () => {
        const { page, errors } = track(await openPage(browser, { ...options, locale: 'es-ES' }));
        await page.goto(server.baseUrl + '/');
        await page.getByRole('heading', { level: 1, name: 'Encuentra servicios cerca de ti' }).waitFor();
        expect(await page.evaluate(() => document.documentElement.lang)).toBe('es');
        expect(await page.evaluate(() => localStorage.getItem('language'))).toBe('es');
        expect(await page.getByRole('heading', { name: 'Buscar lugares cercanos' }).count()).toBe(1);

        if (device === 'phone') await page.getByRole('button', { name: 'Menú' }).click();
        await page.getByLabel('Idioma').selectOption('fr');
        await page.getByRole('heading', { level: 1, name: 'Trouvez des services près de chez vous' }).waitFor();
        expect(await page.evaluate(() => document.documentElement.lang)).toBe('fr');
        expect(await page.evaluate(() => localStorage.getItem('language'))).toBe('fr');
        expect(await page.getByRole('button', { name: 'Rechercher près de moi' }).count()).toBe(1);
        expect(await page.locator('footer').textContent()).toContain('Tous droits réservés');

        await page.reload();
        await page.getByRole('heading', { level: 1, name: 'Trouvez des services près de chez vous' }).waitFor();
        expect(await page.evaluate(() => document.documentElement.lang)).toBe('fr');
        expect(await page.getByRole('link', { name: 'Offres' }).count()).toBeGreaterThan(0);
        expect(errors).toEqual([]);
      });

      it('falls back to English for a browser language the site does not have', async () => {
        const { page, errors } = track(await openPage(browser, { ...options, locale: 'de-DE' }));
        await page.goto(server.baseUrl + '/');
        await page.getByRole('heading', { level: 1, name: 'Find Services Near You' }).waitFor();
        // the server's English page shows at once; the app stores the language once it has hydrated
        await page.waitForFunction(() => localStorage.getItem('language') !== null);
        expect(await page.evaluate(() => [document.documentElement.lang, localStorage.getItem('language')])).toEqual([
          'en',
          'en',
        ]);
        expect(errors).toEqual([]);
      });

      it('sends one visit per page load', async () => {
        const { page, errors } = track(await openPage(browser, options));
        const before = (await server.request({ method: 'GET', url: '/api/visits', cookie })).json()
          .total_visits as number;
        let visitCalls = 0;
        page.on('request', (request) => {
          if (request.url().endsWith('/api/visit') && request.method() === 'POST') visitCalls++;
        });
        await page.goto(server.baseUrl + '/');
        await page.getByRole('heading', { level: 1 }).waitFor();
        // Moving around inside the app is not a new page load.
        await page.locator('footer').getByRole('link', { name: 'Contact' }).click();
        await page.getByRole('heading', { level: 1, name: 'Contact us' }).waitFor();
        await page.reload();
        await page.getByRole('heading', { level: 1, name: 'Contact us' }).waitFor();
        await expect
          .poll(async () => (await server.request({ method: 'GET', url: '/api/visits', cookie })).json().total_visits)
          .toBe(before + 2);
        expect(visitCalls).toBe(2);
        expect(errors).toEqual([]);
      });

      it('keeps the admin code out of the public pages and loads it on /admin, inside the header and footer', async () => {
        const { page, errors } = track(await openPage(browser, options));
        const scripts: string[] = [];
        page.on('request', (request) => {
          if (request.resourceType() === 'script') scripts.push(new URL(request.url()).pathname);
        });
        for (const path of ['/', '/plans', '/contact']) {
          await page.goto(server.baseUrl + path);
          await page.getByRole('heading', { level: 1 }).waitFor();
        }
        expect(scripts.length).toBeGreaterThan(0);
        expect(scripts.filter((name) => /admin/i.test(name))).toEqual([]);
        const adminChunk = page.waitForResponse((response) => /\/assets\/AdminApp-[\w-]+\.js$/.test(response.url()));
        await page.goto(server.baseUrl + '/admin');
        expect((await adminChunk).ok()).toBe(true);
        expect(scripts.filter((name) => /AdminApp/.test(name)).length).toBe(1);
        expect(await page.locator('header.site-header').count()).toBe(1);
        expect(await page.locator('footer.site-footer').count()).toBe(1);
        expect(errors).toEqual([]);
      });

      it('has no serious or critical axe violation on /, /plans and /contact; saves the home screenshot', async () => {
        const { page, errors } = track(await openPage(browser, options));
        for (const path of ['/', '/plans', '/contact']) {
          await page.goto(server.baseUrl + path);
          await page.getByRole('heading', { level: 1 }).waitFor();
          if (path === '/') {
            await page.locator('.carousel__image').waitFor();
            await page.locator('.plan-card').first().waitFor();
            // the map loads once its box nears the screen
            await page.locator('.locator__map').scrollIntoViewIfNeeded();
            await page.locator('.leaflet-container').waitFor();
          }
          expect({ path, violations: await axeViolations(page) }).toEqual({ path, violations: [] });
        }
        await page.goto(server.baseUrl + '/');
        await page.locator('.carousel__image').waitFor();
        await page.locator('.locator__map').scrollIntoViewIfNeeded();
        await page.locator('.leaflet-container').waitFor();
        // Lazy images load once scrolled to; then every picture is in the screenshot.
        await page.locator('.static-ad img').scrollIntoViewIfNeeded();
        await page.waitForFunction(() => [...document.images].every((img) => img.complete));
        await page.evaluate(() => window.scrollTo(0, 0));
        await screenshot(page, `home-${device}.png`);
        expect(errors).toEqual([]);
      });
    });
  }

  // Last: it changes the settings every other test reads.
  it('takes the site title, colours, font and logo from the settings', async () => {
    const logo = await upload(server, cookie, makePng(64, 64, [250, 200, 0]), 'logo.png');
    await adminCall(server, cookie, 'POST', '/api/settings', {
      site_title: 'Lisbon Finder',
      primary_color: '#FF8800',
      secondary_color: '#22AA55',
      font_family: 'Roboto, sans-serif',
      logo_url: `${server.baseUrl}${logo}`,
    });
    const { page, errors } = track(await openPage(browser));
    await page.goto(server.baseUrl + '/');
    await page.getByRole('heading', { level: 1, name: 'Lisbon Finder' }).waitFor();
    await expect.poll(() => page.title()).toBe('Lisbon Finder');
    const theme = await page.locator('.app').evaluate((app) => {
      const style = getComputedStyle(app);
      return { primary: style.getPropertyValue('--color-primary'), font: style.fontFamily };
    });
    // An orange too light for white text is darkened just enough for AA contrast.
    expect(theme.primary).toBe(readableShade('#FF8800', '#3B82F6'));
    expect(theme.font.startsWith('Roboto')).toBe(true);
    expect(await page.locator('.hero').evaluate((hero) => getComputedStyle(hero).fontFamily)).toMatch(/^Roboto/);
    expect(await page.locator('.hero').evaluate((hero) => getComputedStyle(hero).backgroundColor)).not.toBe(
      'rgba(0, 0, 0, 0)',
    );
    expect(await page.locator('.brand img').getAttribute('src')).toBe(`${server.baseUrl}${logo}`);
    expect(await page.locator('.hero__logo').getAttribute('src')).toBe(`${server.baseUrl}${logo}`);
    expect(await page.locator('footer').textContent()).toContain('Lisbon Finder. All rights reserved.');
    expect(await axeViolations(page)).toEqual([]);
    expect(errors).toEqual([]);
  });
});
