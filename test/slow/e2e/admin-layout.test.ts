// Every admin screen lays out in the five languages, on a desktop (1366x900) and a phone
// (390x844): nothing wider than the screen, nothing outside its table, the Places data page's
// buttons in view and its words whole, Settings' categories in a grid under "Select all" and the
// distance-unit select showing its whole choice, and the dashboard ending with the footer.
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { adminDictionaries } from '../../../web/admin/i18n/index';
import { SHARED_DATA } from '../../helpers.js';
import { DESKTOP, hasBrowser, launchBrowser, openPage, PHONE, startServer, type E2EServer } from './harness.js';
import { loginThroughForm, unexpectedErrors } from './admin-helpers.js';
import { adminCall, contextTracker, importPlaces } from './public-helpers.js';

const LANGS = ['en', 'es', 'pt', 'it', 'fr'] as const;
const SCREENS = ['dashboard', 'settings', 'users', 'ads', 'messages', 'plans', 'places'] as const;

/** What is out of place on the page as it is now; empty when the layout holds. */
function layoutProblems(page: Page) {
  return page.evaluate(() => {
    const problems: string[] = [];
    const width = document.documentElement.clientWidth;
    if (document.documentElement.scrollWidth > width)
      problems.push(`the page is ${document.documentElement.scrollWidth} px wide in ${width}`);
    const name = (el: Element) => `${el.tagName.toLowerCase()}.${[...el.classList].join('.')}`;
    for (const table of document.querySelectorAll('.admin-root table')) {
      // The charts' data tables are for screen readers only.
      if (table.closest('.visually-hidden')) continue;
      const box = table.getBoundingClientRect();
      const holder = table.parentElement!.getBoundingClientRect();
      if (box.right > holder.right + 1 || box.left < holder.left - 1)
        problems.push(`${name(table)} sticks out of its panel`);
      for (const el of table.querySelectorAll('*')) {
        const r = el.getBoundingClientRect();
        // A phone's card-per-row table keeps its header row for screen readers only, clipped.
        const hidden = el.closest('thead') && getComputedStyle(el.closest('thead')!).position === 'absolute';
        if (r.width === 0 || hidden || getComputedStyle(el).position === 'absolute') continue;
        if (r.right > box.right + 1 || r.left < box.left - 1)
          problems.push(`${name(el)} "${el.textContent?.trim().slice(0, 30)}" outside ${name(table)}`);
      }
    }
    return problems;
  });
}

/** Words of the element's text (URLs aside) that the layout broke across two lines; a hyphen may end a line. */
function brokenWords(page: Page, selector: string) {
  return page.evaluate((selector) => {
    const broken: string[] = [];
    for (const root of document.querySelectorAll(selector)) {
      const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        const text = node.textContent ?? '';
        for (const match of text.matchAll(/[^\s-]+-?/g)) {
          if (/^https?:|\//.test(match[0])) continue;
          const range = document.createRange();
          range.setStart(node, match.index!);
          range.setEnd(node, match.index! + match[0].length);
          const lines = new Set([...range.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.top)));
          if (lines.size > 1) broken.push(match[0]);
        }
      }
    }
    return broken;
  }, selector);
}

/**
 * Moves the loaded app to `path` as its menu does (the router follows history.pushState), and waits
 * for the new screen's title: loading the whole app again for each screen cost most of this file.
 */
async function showInApp(page: Page, path: string): Promise<void> {
  const title = page.locator('.admin-page-title');
  const before = await title.textContent();
  await page.evaluate((to) => history.pushState(null, '', to), path);
  await page.waitForFunction((old) => document.querySelector('.admin-page-title')?.textContent !== old, before);
}

describe.skipIf(!hasBrowser)('admin screens lay out in every language', () => {
  let server: E2EServer;
  let browser: Browser;
  beforeAll(async () => {
    [server, browser] = await Promise.all([startServer(), launchBrowser()]);
    // Something in every table: a data source with a long address, an own place, a plan, a message.
    await importPlaces(server, join(SHARED_DATA, 'monaco-2021-04-21.osm.pbf'));
    const cookie = await server.login();
    const own = await server.request({
      method: 'POST',
      url: '/trpc/data.own.save',
      cookie,
      payload: { name: 'Boulangerie du Rocher', category: 'bakery', lat: 43.7311, lon: 7.4197 },
    });
    expect(own.statusCode).toBe(200);
    await adminCall(server, cookie, 'POST', '/api/plans', {
      name: 'Professionnel illimité',
      price: 29.99,
      type: 'pro',
      description: 'Fiches illimitées',
      link: 'https://pay.example.com/pro',
    });
    await server.request({
      method: 'POST',
      url: '/api/contact',
      payload: { name: 'Ana', email: 'ana@example.org', subject: 'Horaires', body: 'Bonjour' },
    });
  });
  const { track } = contextTracker(() => ({ browser, server }));

  for (const [device, viewport] of [
    ['phone', PHONE],
    ['desktop', DESKTOP],
  ] as const) {
    for (const lang of LANGS) {
      it(`${device}, ${lang}`, async () => {
        const t = adminDictionaries[lang];
        const { page, errors } = track(await openPage(browser, { ...viewport }));
        await loginThroughForm(page, server.baseUrl);
        await page.evaluate((l) => localStorage.setItem('language', l), lang);
        for (const [i, screen] of SCREENS.entries()) {
          await (i === 0 ? page.goto(`${server.baseUrl}/admin/${screen}`) : showInApp(page, `/admin/${screen}`));
          await page.locator('.admin-page-title').waitFor();
          await page.waitForLoadState('networkidle');
          expect({ screen, problems: await layoutProblems(page) }).toEqual({ screen, problems: [] });

          if (screen === 'dashboard') {
            // The page ends with the footer: no empty band below it.
            await page.getByTestId('searches-chart').waitFor();
            const below = await page.evaluate(
              () =>
                document.documentElement.scrollHeight -
                (document.querySelector('footer')!.getBoundingClientRect().bottom + window.scrollY),
            );
            expect(below).toBeLessThanOrEqual(1);
          }

          if (screen === 'settings') {
            const grid = page.getByTestId('categories');
            const boxes = grid.locator('input[type=checkbox]');
            await boxes.first().waitFor();
            const lefts = new Set(
              await boxes.evaluateAll((inputs) => inputs.map((i) => Math.round(i.getBoundingClientRect().left))),
            );
            // A grid: several columns (two on a phone, more on a desktop), every label beside its box.
            expect(lefts.size).toBeGreaterThanOrEqual(device === 'phone' ? 2 : 4);
            const selectAll = page.getByRole('button', { name: t.selectAll });
            expect((await selectAll.boundingBox())!.y).toBeLessThan((await boxes.first().boundingBox())!.y);
            // The distance unit's select is wide enough for its longest choice.
            const unitFits = await page.locator('select[name=distance_unit]').evaluate((select) => {
              const probe = document.createElement('span');
              probe.style.font = getComputedStyle(select).font;
              probe.style.position = 'absolute';
              probe.style.whiteSpace = 'nowrap';
              document.body.appendChild(probe);
              const widest = Math.max(
                ...[...(select as HTMLSelectElement).options].map(
                  (o) => ((probe.textContent = o.text), probe.getBoundingClientRect().width),
                ),
              );
              probe.remove();
              // padding and the arrow take about 40 px
              return widest + 40 <= select.getBoundingClientRect().width;
            });
            expect(unitFits).toBe(true);
          }

          if (screen === 'places') {
            const sources = page.getByTestId('sources-table');
            await sources.waitFor();
            const buttons = sources.getByRole('button');
            expect(await buttons.count()).toBeGreaterThanOrEqual(2);
            for (const box of await buttons.evaluateAll((all) => all.map((b) => b.getBoundingClientRect().toJSON()))) {
              expect(box.left).toBeGreaterThanOrEqual(0);
              expect(box.right).toBeLessThanOrEqual(viewport.viewport.width);
            }
            expect(await brokenWords(page, '[data-testid=sources-table], [data-testid=own-table]')).toEqual([]);
          }
        }
        expect(unexpectedErrors(errors)).toEqual([]);
      }, 120_000);
    }
  }
});
