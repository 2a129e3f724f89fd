// Ads in a real browser: the carousel (4 s advance, 1 s fade, swipe and drag, image ads only,
// title overlay, broken-image placeholder, link in a new tab, pause, reduced motion, the on/off
// switch), the background video that replaces it (autoplay, muted, loop, mute and fullscreen
// buttons) and the Sponsored Ads grid.
import { beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { axeViolations, hasBrowser, launchBrowser, openPage, startServer, type E2EServer } from './harness.js';
import { adminCall, contextTracker, DEVICES, fixture, makePng, unexpectedErrors, upload } from './public-helpers.js';

/** An /uploads/ path that looks right but holds nothing: the browser gets a 404. */
const MISSING_IMAGE = '/uploads/AAAAAAAAAAAAAAAAAAAAAA.png';

const slideIndex = (page: Page) => page.locator('.carousel__viewport').getAttribute('data-index').then(Number);

/**
 * Stops the page's (installed) clock 200 ms on from its time now: from there only runFor moves
 * its timers. (Its time flows until then: a slow round trip asks again.)
 */
async function pauseClock(page: Page): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await page.clock.pauseAt((await page.evaluate(() => Date.now())) + 200);
    } catch (error) {
      if (attempt === 3 || !String(error).includes('to the past')) throw error;
    }
  }
}

/** A horizontal drag with the mouse, or a swipe with a finger on a touch screen. */
async function swipe(page: Page, by: number, touch: boolean): Promise<void> {
  const box = (await page.locator('.carousel__viewport').boundingBox())!;
  const y = box.y + box.height / 2;
  const from = box.x + box.width / 2;
  const steps = 6;
  if (touch) {
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: [{ x: from, y }] });
    for (let i = 1; i <= steps; i++) {
      await cdp.send('Input.dispatchTouchEvent', {
        type: 'touchMove',
        touchPoints: [{ x: from + (by * i) / steps, y }],
      });
    }
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
    await cdp.detach();
  } else {
    await page.mouse.move(from, y);
    await page.mouse.down();
    await page.mouse.move(from + by, y, { steps });
    await page.mouse.up();
  }
}

describe.skipIf(!hasBrowser)('public ads', () => {
  let server: E2EServer;
  let browser: Browser;
  let cookie: string;
  let videoMedia: string;

  beforeAll(async () => {
    [server, browser] = await Promise.all([startServer(), launchBrowser()]);
    cookie = await server.login();
    const red = await upload(server, cookie, makePng(400, 160, [200, 30, 30]), 'red.png');
    const green = await upload(server, cookie, makePng(400, 160, [20, 140, 60]), 'green.png');
    videoMedia = await upload(server, cookie, fixture('tiny.webm'), 'tiny.webm');
    const carousel = (title: string, link: string, media: string) =>
      adminCall(server, cookie, 'POST', '/api/ads', { type: 'carousel', title, link, media_url: media });
    await carousel('Red sale', 'https://example.com/red', red);
    await carousel('', 'https://example.com/green', green);
    await carousel('A video is not a slide', 'https://example.com/video', videoMedia);
    await carousel('Broken one', 'https://example.com/broken', MISSING_IMAGE);
    for (let i = 1; i <= 5; i++) {
      await adminCall(server, cookie, 'POST', '/api/ads', {
        type: 'static',
        title: `Sponsor ${i}`,
        link: `https://example.com/sponsor-${i}`,
        media_url: i % 2 ? red : green,
      });
    }
  });
  const { track } = contextTracker(() => ({ browser, server }));

  for (const [device, viewport] of DEVICES) {
    const touch = device === 'phone';

    /** `fakeClock`: the page's timers run on Playwright's clock, so a test moves 4 s on at once. */
    async function openHome(options = {}, { fakeClock = false } = {}) {
      const opened = track(await openPage(browser, { ...viewport, ...options }));
      if (fakeClock) await opened.page.clock.install();
      await opened.page.goto(server.baseUrl + '/');
      await opened.page.locator('.carousel').waitFor();
      return opened;
    }

    describe(device, () => {
      it('shows image ads only, with the title overlaid and a placeholder for a broken image', async () => {
        const { page, errors } = await openHome();
        const slides = page.locator('.carousel__slide');
        expect(await slides.count()).toBe(3);
        expect(await page.locator('.carousel video').count()).toBe(0);
        expect(await page.getByText('A video is not a slide').count()).toBe(0);
        expect(await slides.nth(0).locator('.carousel__title').textContent()).toBe('Red sale');
        expect(await slides.nth(0).getByRole('img', { name: 'Red sale' }).count()).toBe(1);
        expect(await slides.nth(1).locator('.carousel__title').count()).toBe(0);
        expect(await slides.nth(1).locator('img').getAttribute('alt')).toBe('Sponsored ad');
        await slides.nth(2).locator('.carousel__placeholder').waitFor({ state: 'attached' });
        expect(await slides.nth(2).locator('.carousel__placeholder').getAttribute('aria-label')).toBe('Broken one');
        expect(await slides.nth(2).locator('.carousel__placeholder').textContent()).toBe('Image unavailable');
        // Hidden slides are out of the keyboard's and screen reader's way.
        expect(await slides.nth(1).getAttribute('aria-hidden')).toBe('true');
        expect(await slides.nth(1).evaluate((slide) => (slide as HTMLElement).inert)).toBe(true);
        expect(unexpectedErrors(errors, [404])).toEqual([]);
      });

      it('advances every 4 s with a 1 s fade, and the pause button stops it', async () => {
        const { page, errors } = await openHome({}, { fakeClock: true });
        const viewportLocator = page.locator('.carousel__viewport[data-index="0"]');
        await viewportLocator.waitFor();
        expect(
          await page
            .locator('.carousel__slide')
            .first()
            .evaluate((slide) => getComputedStyle(slide).transitionDuration),
        ).toMatch(/^1s/);
        // Not before 3 s, and by 5.5 s (the page's clock moves on at once, not in real time).
        await pauseClock(page);
        await page.clock.runFor(3000);
        expect(await slideIndex(page)).toBe(0);
        await page.clock.runFor(2500);
        await page.locator('.carousel__viewport[data-index="1"]').waitFor({ timeout: 2000 });

        await page.getByRole('button', { name: 'Pause the slideshow' }).click();
        // Focus on a control pauses it as well; move it away so only the button's state counts.
        await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
        await page.mouse.move(0, 0);
        const pausedAt = await slideIndex(page);
        await page.clock.runFor(4500);
        expect(await slideIndex(page)).toBe(pausedAt);
        expect(await page.getByRole('button', { name: 'Play the slideshow' }).count()).toBe(1);
        expect(unexpectedErrors(errors, [404])).toEqual([]);
      });

      it(`changes slide on a ${touch ? 'swipe' : 'drag'} of more than 50 px, not on less, and opens no ad when dragged`, async () => {
        const { page, errors, context } = await openHome();
        const opened: string[] = [];
        context.on('request', (request) => {
          if (request.url().startsWith('https://example.com/')) opened.push(request.url());
        });
        // Pointing at the carousel pauses the automatic advance; the test moves it by hand.
        await page.locator('.carousel__viewport').hover();
        expect(await slideIndex(page)).toBe(0);
        await swipe(page, -120, touch);
        await expect.poll(() => slideIndex(page)).toBe(1);
        await swipe(page, -30, touch);
        await page.waitForTimeout(300);
        expect(await slideIndex(page)).toBe(1);
        await swipe(page, 120, touch);
        await expect.poll(() => slideIndex(page)).toBe(0);
        await swipe(page, 120, touch);
        await expect.poll(() => slideIndex(page)).toBe(2); // wraps around
        await page.waitForTimeout(300);
        expect(opened).toEqual([]);
        expect(unexpectedErrors(errors, [404])).toEqual([]);
      });

      it("follows the ad's link in a new tab on a click", async () => {
        const { page, errors, context } = await openHome();
        const link = page.locator('.carousel__slide--active a');
        expect(await link.getAttribute('href')).toBe('https://example.com/red');
        expect(await link.getAttribute('target')).toBe('_blank');
        expect(await link.getAttribute('rel')).toContain('noopener');
        const newTab = context.waitForEvent('request', (request) => request.url() === 'https://example.com/red');
        const popup = context.waitForEvent('page');
        await link.click();
        await newTab;
        expect(await popup).not.toBe(page);
        expect(unexpectedErrors(errors, [404])).toEqual([]);
      });

      it('does not move or fade for a visitor who prefers reduced motion', async () => {
        const { page, errors } = await openHome({ reducedMotion: 'reduce' }, { fakeClock: true });
        expect(
          await page
            .locator('.carousel__slide')
            .first()
            .evaluate((slide) => parseFloat(getComputedStyle(slide).transitionDuration)),
        ).toBeLessThan(0.01);
        await pauseClock(page);
        await page.clock.runFor(4600);
        expect(await slideIndex(page)).toBe(0);
        await page.getByRole('button', { name: 'Next slide' }).click();
        expect(await slideIndex(page)).toBe(1);
        expect(unexpectedErrors(errors, [404])).toEqual([]);
      });

      it('shows the Sponsored Ads grid, up to 4 columns', async () => {
        const { page, errors } = await openHome();
        const grid = page.locator('.static-ads__grid');
        await page.getByRole('heading', { name: 'Sponsored Ads' }).waitFor();
        expect(await grid.locator('li').count()).toBe(5);
        expect(await grid.getByRole('link', { name: /^Sponsor 3/ }).getAttribute('href')).toBe(
          'https://example.com/sponsor-3',
        );
        const columns = await grid.evaluate(
          (element) => getComputedStyle(element).gridTemplateColumns.split(' ').length,
        );
        expect(columns).toBe(device === 'phone' ? 1 : 4);
        expect(await axeViolations(page)).toEqual([]);
        expect(unexpectedErrors(errors, [404])).toEqual([]);
      });

      it('hides the carousel when it is switched off', async () => {
        await adminCall(server, cookie, 'POST', '/api/carousel_toggle', { enabled: 0 });
        try {
          const { page, errors } = track(await openPage(browser, viewport));
          await page.goto(server.baseUrl + '/');
          await page.getByRole('heading', { name: 'Sponsored Ads' }).waitFor();
          expect(await page.locator('.carousel').count()).toBe(0);
          expect(await page.locator('.ad-section').count()).toBe(0);
          expect(errors).toEqual([]);
        } finally {
          await adminCall(server, cookie, 'POST', '/api/carousel_toggle', { enabled: 1 });
        }
      });

      it('puts an enabled background video in its place: autoplay, muted, looped, with mute and fullscreen buttons', async () => {
        const { id } = await adminCall(server, cookie, 'POST', '/api/background_videos', {
          title: 'Our city at night',
          link: 'https://example.com/night',
          enabled: 1,
          media_url: videoMedia,
        });
        try {
          const { page, errors } = track(await openPage(browser, viewport));
          await page.goto(server.baseUrl + '/');
          const video = page.locator('.background-video video');
          await video.waitFor();
          expect(await page.locator('.carousel').count()).toBe(0);
          const state = () =>
            video.evaluate((v: HTMLVideoElement) => ({
              autoplay: v.autoplay,
              loop: v.loop,
              muted: v.muted,
              paused: v.paused,
              src: v.getAttribute('src'),
            }));
          expect(await state()).toMatchObject({ autoplay: true, loop: true, muted: true, src: videoMedia });
          await expect.poll(async () => (await state()).paused).toBe(false);
          expect(await page.getByRole('link', { name: /^Our city at night/ }).getAttribute('href')).toBe(
            'https://example.com/night',
          );

          await page.getByRole('button', { name: 'Unmute' }).click();
          expect((await state()).muted).toBe(false);
          await page.getByRole('button', { name: 'Mute' }).click();
          expect((await state()).muted).toBe(true);

          await page.getByRole('button', { name: 'Pause video' }).click();
          expect((await state()).paused).toBe(true);
          await page.getByRole('button', { name: 'Play video' }).click();
          await expect.poll(async () => (await state()).paused).toBe(false);

          await page.getByRole('button', { name: 'Full screen' }).click();
          await expect
            .poll(() => page.evaluate(() => document.fullscreenElement?.className ?? null))
            .toBe('background-video');
          await page.getByRole('button', { name: 'Exit full screen' }).click();
          await expect.poll(() => page.evaluate(() => document.fullscreenElement)).toBe(null);

          expect(await axeViolations(page)).toEqual([]);
          expect(errors).toEqual([]);

          // A visitor who prefers reduced motion starts it themselves.
          const calm = track(await openPage(browser, { ...viewport, reducedMotion: 'reduce' }));
          await calm.page.goto(server.baseUrl + '/');
          const calmVideo = calm.page.locator('.background-video video');
          await calmVideo.waitFor();
          await calm.page.getByRole('button', { name: 'Play video' }).waitFor();
          expect(await calmVideo.evaluate((v: HTMLVideoElement) => [v.autoplay, v.paused])).toEqual([false, true]);
          await calm.page.getByRole('button', { name: 'Play video' }).click();
          await expect.poll(() => calmVideo.evaluate((v: HTMLVideoElement) => v.paused)).toBe(false);
          expect(calm.errors).toEqual([]);
        } finally {
          await adminCall(server, cookie, 'DELETE', `/api/background_videos?id=${id}`);
        }
      });

      it('keeps the carousel for a background video that is switched off', async () => {
        const { id } = await adminCall(server, cookie, 'POST', '/api/background_videos', {
          title: 'Off',
          enabled: 0,
          media_url: videoMedia,
        });
        try {
          const { page, errors } = await openHome();
          expect(await page.locator('.background-video').count()).toBe(0);
          expect(await page.locator('.carousel__slide').count()).toBe(3);
          expect(unexpectedErrors(errors, [404])).toEqual([]);
        } finally {
          await adminCall(server, cookie, 'DELETE', `/api/background_videos?id=${id}`);
        }
      });
    });
  }
});
