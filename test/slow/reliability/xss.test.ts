// XSS in a real browser (issue 12, point 4): payloads stored through every text field a visitor or
// an administrator can fill (settings, ads, background videos, plans, contact messages, admin
// usernames, own places), then every public and admin page rendered in Chromium. Figures: dialogs
// fired, CSP violations, `javascript:`/`data:`/`vbscript:` URLs reaching an href or src, and
// elements or handlers the app did not render. A payload a field refuses is a pass (counted).
import { beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { hasBrowser, launchBrowser, makePng, openPage, startServer, type E2EServer } from '../e2e/harness.js';
import { contextTracker } from '../e2e/public-helpers.js';
import { loginThroughForm } from '../e2e/admin-helpers.js';
import { FULL_SIZE, recordFigure } from './figures.js';

const ALL_PAYLOADS = [
  '<script>alert(1)</script>',
  '"><script>alert(1)</script>',
  "'><img src=x onerror=alert(1)>",
  '<img src=x onerror=alert(1)>',
  '<svg onload=alert(1)>',
  '<svg><script>alert(1)</script></svg>',
  '<iframe src="javascript:alert(1)"></iframe>',
  'javascript:alert(1)',
  'JaVaScRiPt:alert(1)',
  ' javascript:alert(1)',
  'java\tscript:alert(1)',
  'data:text/html,<script>alert(1)</script>',
  'vbscript:msgbox(1)',
  '<a href="javascript:alert(1)">x</a>',
  '<body onload=alert(1)>',
  '<details open ontoggle=alert(1)>',
  '<math><mtext><table><mglyph><style><img src=x onerror=alert(1)>',
  '</script><script>alert(1)</script>',
  '{{constructor.constructor("alert(1)")()}}',
  '${alert(1)}',
  '`${alert(1)}`',
  '<div style="background:url(javascript:alert(1))">',
  '<style>@import "javascript:alert(1)";</style>',
  '<input autofocus onfocus=alert(1)>',
  '<video><source onerror=alert(1)>',
  '<object data="javascript:alert(1)">',
  '<embed src="javascript:alert(1)">',
  '<form action="javascript:alert(1)"><button>x</button></form>',
  '<base href="javascript:alert(1)//">',
  '<meta http-equiv="refresh" content="0;url=javascript:alert(1)">',
  '<link rel=import href=data:text/html,<script>alert(1)</script>>',
  '"onmouseover="alert(1)',
  "' onmouseover='alert(1)",
  '<scr<script>ipt>alert(1)</scr</script>ipt>',
  '\u003cscript\u003ealert(1)\u003c/script\u003e',
  '＜script＞alert(1)＜/script＞',
  '<img src="x" onerror="&#97;&#108;&#101;&#114;&#116;(1)">',
  '&lt;script&gt;alert(1)&lt;/script&gt;',
  '<noscript><p title="</noscript><img src=x onerror=alert(1)>">',
  '<!--<img src="--><img src=x onerror=alert(1)//">',
  '<img src=x:alert(alt) onerror=eval(src) alt=0>',
  '<a href="data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==">x</a>',
  '\u202E<script>alert(1)</script>',
  '<x contenteditable onblur=alert(1)>lose focus!',
  '<marquee onstart=alert(1)>',
  '<isindex action=javascript:alert(1) type=image>',
  '"><svg/onload=alert(1)//',
  '<sVg OnLoAd=alert(1)>',
  '<img src=1 oNeRrOr=alert(1)>',
];
const PAYLOADS = FULL_SIZE ? ALL_PAYLOADS : ALL_PAYLOADS.filter((_, i) => i % 4 === 0);

describe.skipIf(!hasBrowser)('XSS', () => {
  let server: E2EServer;
  let browser: Browser;
  let cookie: string;
  const tally = { stored: 0, refused: 0, dialogs: 0, csp: 0, badUrls: 0, injected: 0, pages: 0 };
  const findings: string[] = [];

  beforeAll(async () => {
    [server, browser] = await Promise.all([startServer(), launchBrowser()]);
    cookie = await server.login();
    const png: Buffer = Buffer.from(makePng(4, 4, [10, 20, 30]));
    const multipart = (fields: Record<string, string>) => {
      const boundary = 'xssboundary';
      const parts: Buffer[] = Object.entries(fields).map(([k, v]) =>
        Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`),
      );
      parts.push(
        Buffer.from(
          `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="a.png"\r\nContent-Type: image/png\r\n\r\n`,
        ),
        png,
        Buffer.from(`\r\n--${boundary}--\r\n`),
      );
      return {
        payload: Buffer.concat(parts),
        headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
      };
    };
    const count = (status: number) => (status < 300 ? tally.stored++ : tally.refused++);
    for (const [i, p] of PAYLOADS.entries()) {
      count(
        (
          await server.request({
            method: 'POST',
            url: '/api/contact',
            payload: { name: p, email: `x${i}@example.org`, subject: p, body: p },
          })
        ).statusCode,
      );
      count(
        (
          await server.request({
            method: 'POST',
            url: '/api/plans',
            cookie,
            payload: {
              name: p.slice(0, 100),
              price: 1,
              type: 'basic',
              description: { features: [p.slice(0, 200)], languages: [p.slice(0, 50)] },
              link: p,
            },
          })
        ).statusCode,
      );
      count(
        (
          await server.request({
            method: 'POST',
            url: '/api/plans',
            cookie,
            payload: { name: p.slice(0, 100), price: 2, type: 'pro', description: p, link: 'https://example.org/' },
          })
        ).statusCode,
      );
      count(
        (
          await server.request({
            method: 'POST',
            url: '/api/ads',
            cookie,
            ...multipart({ type: i % 2 ? 'static' : 'carousel', title: p, link: p }),
          })
        ).statusCode,
      );
      count(
        (
          await server.request({
            method: 'POST',
            url: '/api/ads',
            cookie,
            ...multipart({ type: 'static', title: p, link: 'https://example.org/' }),
          })
        ).statusCode,
      );
      count(
        (
          await server.request({
            method: 'POST',
            url: '/api/background_videos',
            cookie,
            payload: { title: p, link: p, media_url: 'https://example.org/v.mp4' },
          })
        ).statusCode,
      );
      count(
        (
          await server.request({
            method: 'POST',
            url: '/api/background_videos',
            cookie,
            payload: { title: p, link: 'https://example.org/', media_url: 'https://example.org/v.mp4' },
          })
        ).statusCode,
      );
      count(
        (
          await server.request({
            method: 'POST',
            url: '/api/admin/credentials',
            cookie,
            payload: { username: p, password: 'a long enough password 123!' },
          })
        ).statusCode,
      );
      count(
        (
          await server.request({
            method: 'POST',
            url: '/trpc/data.own.save',
            cookie,
            payload: {
              name: p.slice(0, 200),
              category: 'bakery',
              lat: 43.73 + i / 1000,
              lon: 7.42,
              address: p.slice(0, 300),
              phone: p.slice(0, 50),
              website: i % 2 ? p : 'https://example.org/',
              opening_hours: '',
            },
          })
        ).statusCode,
      );
    }
    // Settings last: the site's own name and e-mail on every page.
    const p = PAYLOADS[0];
    count(
      (
        await server.request({
          method: 'POST',
          url: '/api/settings',
          cookie,
          payload: { site_title: p.slice(0, 100), logo_url: 'javascript:alert(1)' },
        })
      ).statusCode,
    );
    count(
      (
        await server.request({
          method: 'POST',
          url: '/api/settings',
          cookie,
          payload: {
            site_title: PAYLOADS[1].slice(0, 100),
            contact_email: 'a@example.org',
            default_city: p.slice(0, 100),
          },
        })
      ).statusCode,
    );
  }, 300_000);
  const { track } = contextTracker(() => ({ browser, server }));

  /** Watches a page for what an injection would do. */
  async function watch(page: Page) {
    page.on('dialog', (dialog) => {
      tally.dialogs++;
      findings.push(`dialog on ${page.url()}: ${dialog.message()}`);
      void dialog.dismiss();
    });
    await page.addInitScript(() => {
      (window as unknown as { __csp: string[] }).__csp = [];
      document.addEventListener('securitypolicyviolation', (e) =>
        (window as unknown as { __csp: string[] }).__csp.push(`${e.violatedDirective} ${e.blockedURI}`),
      );
    });
  }

  /** What the DOM holds that the app would never render. */
  async function inspect(page: Page, label: string) {
    await page.waitForTimeout(300);
    const found = await page.evaluate(() => {
      const bad: string[] = [];
      for (const el of Array.from(document.querySelectorAll('*'))) {
        for (const attr of Array.from(el.attributes)) {
          // as a browser reads a URL: control characters and spaces ignored
          // eslint-disable-next-line no-control-regex
          const value = attr.value.replace(/[\s\u0000-\u001f]/g, '').toLowerCase();
          if (/^on/i.test(attr.name)) bad.push(`handler ${el.tagName} ${attr.name}`);
          if (
            ['href', 'src', 'action', 'formaction', 'data', 'xlink:href', 'poster'].includes(attr.name) &&
            /^(javascript|data|vbscript):/.test(value)
          ) {
            // our own data: images (the leaflet marker, inline icons) are not injected
            if (!(attr.name === 'src' && el.tagName === 'IMG' && value.startsWith('data:image/')))
              bad.push(`url ${el.tagName} ${attr.name}=${attr.value.slice(0, 40)}`);
          }
        }
        // the server's data block is inert JSON, its `<` escaped, so no value can close it
        const dataBlock =
          el.id === 'page-data' &&
          el.getAttribute('type') === 'application/json' &&
          !(el.textContent ?? '').includes('<');
        if (
          el.tagName === 'SCRIPT' &&
          !dataBlock &&
          !(el.getAttribute('src') ?? '').startsWith('/assets/') &&
          el.getAttribute('type') !== 'application/ld+json'
        )
          bad.push(`script ${el.outerHTML.slice(0, 60)}`);
        if (['IFRAME', 'OBJECT', 'EMBED', 'BASE', 'MARQUEE', 'ISINDEX'].includes(el.tagName))
          bad.push(`element ${el.tagName}`);
      }
      return { bad, csp: (window as unknown as { __csp: string[] }).__csp };
    });
    tally.pages++;
    for (const b of found.bad) {
      if (b.startsWith('url')) tally.badUrls++;
      else tally.injected++;
      findings.push(`${label}: ${b}`);
    }
    tally.csp += found.csp.length;
    for (const c of found.csp) findings.push(`${label}: CSP ${c}`);
  }

  it('public pages', async () => {
    const { page } = track(await openPage(browser));
    await watch(page);
    const own = (await server.request({ method: 'GET', url: '/trpc/data.own.list', cookie })).json().result.data as {
      id: number;
    }[];
    for (const path of [
      '/',
      '/plans',
      '/contact',
      ...own.slice(0, 3).map((p) => `/place/own/${p.id}`),
      '/?q=%3Cscript%3Ealert(1)%3C%2Fscript%3E&city=%3Cimg%20src%3Dx%20onerror%3Dalert(1)%3E',
    ]) {
      await page.goto(`${server.baseUrl}${path}`);
      await page.locator('main, #root').first().waitFor();
      await inspect(page, path);
    }
  }, 120_000);

  it('admin pages', async () => {
    const { page } = track(await openPage(browser));
    await watch(page);
    await loginThroughForm(page, server.baseUrl);
    for (const path of [
      '/admin/dashboard',
      '/admin/settings',
      '/admin/users',
      '/admin/ads',
      '/admin/messages',
      '/admin/plans',
      '/admin/places',
    ]) {
      await page.goto(`${server.baseUrl}${path}`);
      await page.locator('h1').first().waitFor();
      await inspect(page, path);
    }
  }, 120_000);

  it('figures', () => {
    const size = `${PAYLOADS.length} payloads x 9 kinds of field; ${tally.stored} stored, ${tally.refused} refused; ${tally.pages} pages`;
    recordFigure({ battery: 'XSS', size, figure: 'dialogs fired', value: tally.dialogs, limit: 0 });
    recordFigure({ battery: 'XSS', size, figure: 'CSP violations', value: tally.csp, limit: 0 });
    recordFigure({
      battery: 'XSS',
      size,
      figure: 'javascript:/data:/vbscript: URLs in href or src',
      value: tally.badUrls,
      limit: 0,
    });
    recordFigure({ battery: 'XSS', size, figure: 'injected elements or handlers', value: tally.injected, limit: 0 });
    expect(findings).toEqual([]);
    expect(tally.stored).toBeGreaterThan(PAYLOADS.length * 3);
    expect(tally.pages).toBeGreaterThanOrEqual(11);
  });
});
