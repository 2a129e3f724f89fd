// Ads management in a real browser: a real PNG uploaded with progress that then shows in the
// public carousel, ads by URL, add/edit in one form, the carousel switch, background videos.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { hasBrowser, holdRequests, launchBrowser, openPage, startServer, type E2EServer } from './harness.js';
import {
  expectNoSeriousAxeViolations,
  loginThroughForm,
  makePng,
  openAdminPage,
  unexpectedErrors,
} from './admin-helpers.js';

describe.skipIf(!hasBrowser)('admin ads management', () => {
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

  const publicAds = async () => (await server.request({ method: 'GET', url: '/api/ads' })).json();

  it('uploads a real image with progress, and the public carousel shows it', async () => {
    const { page, errors, context } = await openPage(browser);
    await loginThroughForm(page, server.baseUrl);
    await openAdminPage(page, 'Ads', 'Ads Management');
    const form = page.getByTestId('ad-form');
    await page.getByRole('heading', { name: 'Add ad' }).waitFor();
    expect(await form.getByLabel('Interval (ms)').inputValue()).toBe('5000');
    expect(await form.getByLabel('File').getAttribute('accept')).toBe('image/*,video/*');

    // Nothing chosen: the form says what is missing.
    await form.getByRole('button', { name: 'Add ad' }).click();
    await form.getByText('Choose a file or enter a media URL').waitFor();
    // Not an image nor a video: refused as soon as it is chosen.
    await form
      .getByLabel('File')
      .setInputFiles({ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('hello') });
    await form.getByText('This file type is not supported: choose an image or a video').waitFor();

    await form.getByLabel('Ad type').selectOption('carousel');
    await form.getByLabel('Title').fill('Summer sale');
    await form.getByLabel('Link').fill('https://example.com/sale');
    await form.getByLabel('Interval (ms)').fill('4000');
    await form
      .getByLabel('File')
      .setInputFiles({ name: 'sale.png', mimeType: 'image/png', buffer: makePng(64, 32, [220, 40, 40]) });
    // Hold the upload's answer a moment, so the progress can be seen while it runs.
    const upload = await holdRequests(page, '**/api/uploads');
    await form.getByRole('button', { name: 'Add ad' }).click();
    const progress = form.getByRole('progressbar');
    await progress.waitFor();
    expect(await form.getByText(/^Uploading\.\.\. \d+%$/).count()).toBe(1);
    upload.release();
    const banner = page.getByTestId('banner');
    await expect.poll(() => banner.textContent()).toContain('Ad added successfully');
    expect(await banner.getAttribute('class')).toContain('admin-banner-success');
    await progress.waitFor({ state: 'detached' });
    await page.unroute('**/api/uploads');

    const ads = await publicAds();
    expect(ads.carousel).toEqual([
      expect.objectContaining({ title: 'Summer sale', link: 'https://example.com/sale', interval: 4000 }),
    ]);
    const media: string = ads.carousel[0].media;
    expect(media).toMatch(/^\/uploads\/[\w-]+\.png$/);
    // The list previews the stored picture itself.
    const preview = page.getByTestId('carousel-ads').locator(`img[src="${media}"]`);
    await expect.poll(() => preview.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(64);
    // The form is back to adding.
    expect(await form.getByLabel('Title').inputValue()).toBe('');
    await expectNoSeriousAxeViolations(page);

    // The public home (reached inside the app, so the cached ads must have been refreshed).
    await page.getByRole('link', { name: 'Home', exact: true }).first().click();
    await page.waitForURL(`${server.baseUrl}/`);
    const slide = page.locator(`img.carousel__image[src="${media}"]`);
    await slide.waitFor({ timeout: 15_000 });
    await expect.poll(() => slide.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(64);

    expect(unexpectedErrors(errors)).toEqual([]);
    await context.close();
  });

  it('adds a static ad by URL, edits in the same form, switches the carousel, deletes after confirming', async () => {
    const { page, errors, context } = await openPage(browser);
    await loginThroughForm(page, server.baseUrl);
    await openAdminPage(page, 'Ads', 'Ads Management');
    const form = page.getByTestId('ad-form');
    const banner = page.getByTestId('banner');

    await form.getByLabel('Ad type').selectOption('static');
    // A static ad has no interval.
    expect(await form.getByLabel('Interval (ms)').count()).toBe(0);
    await form.getByLabel('Title').fill('Corner shop');
    await form.getByLabel('Link').fill('not a link');
    await form.getByLabel('Media URL').fill('ftp://example.com/x.png');
    await form.getByRole('button', { name: 'Add ad' }).click();
    await form.getByText('Enter an address starting with http:// or https://').waitFor();
    await form.getByText('Enter an http(s) address or an /uploads/ path').waitFor();
    await form.getByLabel('Link').fill('https://example.com/shop');
    await form.getByLabel('Media URL').fill('https://example.com/shop.png');
    await form.getByRole('button', { name: 'Add ad' }).click();
    await expect.poll(() => banner.textContent()).toContain('Ad added successfully');
    await page.getByTestId('static-ads').getByRole('button', { name: 'Edit Corner shop' }).waitFor();
    expect((await publicAds()).static).toEqual([
      expect.objectContaining({ title: 'Corner shop', media: 'https://example.com/shop.png' }),
    ]);

    // Edit the carousel ad of the first test: the same form, filled, in edit mode.
    const carouselList = page.getByTestId('carousel-ads');
    await carouselList.getByRole('button', { name: 'Edit Summer sale' }).click();
    await page.getByRole('heading', { name: 'Edit ad' }).waitFor();
    expect(await form.getByLabel('Title').inputValue()).toBe('Summer sale');
    expect(await form.getByLabel('Interval (ms)').inputValue()).toBe('4000');
    await form.getByText('Leave both empty to keep the current media.').waitFor();
    await form.getByLabel('Interval (ms)').fill('999');
    await form.getByRole('button', { name: 'Update ad' }).click();
    await form.getByText('Enter whole milliseconds from 1000 to 600000').waitFor();
    await form.getByLabel('Interval (ms)').fill('6000');
    await form.getByLabel('Title').fill('Winter sale');
    const mediaBefore = (await publicAds()).carousel[0].media;
    await form.getByRole('button', { name: 'Update ad' }).click();
    await expect.poll(() => banner.textContent()).toContain('Ad updated successfully');
    await page.getByRole('heading', { name: 'Add ad' }).waitFor();
    await carouselList.getByRole('button', { name: 'Edit Winter sale' }).waitFor();
    expect((await publicAds()).carousel).toEqual([
      expect.objectContaining({ title: 'Winter sale', interval: 6000, media: mediaBefore }),
    ]);

    // The carousel switch.
    const toggle = page.getByRole('switch', { name: 'Show the carousel on the home page' });
    expect(await toggle.getAttribute('aria-checked')).toBe('true');
    await toggle.click();
    await expect.poll(() => banner.textContent()).toContain('Carousel disabled successfully');
    await expect.poll(() => toggle.getAttribute('aria-checked')).toBe('false');
    expect((await publicAds()).carousel_enabled).toBe(0);
    await toggle.press('Space');
    await expect.poll(() => banner.textContent()).toContain('Carousel enabled successfully');
    expect((await publicAds()).carousel_enabled).toBe(1);

    // Delete asks first.
    await page.getByTestId('static-ads').getByRole('button', { name: 'Delete Corner shop' }).click();
    const confirm = page.getByRole('dialog', { name: 'Please confirm' });
    await confirm.getByText('Are you sure you want to delete this item?').waitFor();
    await confirm.getByRole('button', { name: 'Delete' }).click();
    await expect.poll(() => banner.textContent()).toContain('Ad deleted successfully');
    expect((await publicAds()).static).toEqual([]);

    expect(unexpectedErrors(errors)).toEqual([]);
    await context.close();
  });

  it('background videos: add, edit, disable and enable, delete', async () => {
    const { page, errors, context } = await openPage(browser);
    await loginThroughForm(page, server.baseUrl);
    await openAdminPage(page, 'Ads', 'Ads Management');
    const form = page.getByTestId('video-form');
    const list = page.getByTestId('videos');
    const banner = page.getByTestId('banner');
    await page.getByText('No background videos yet').waitFor();

    await form.getByLabel('Video title').fill('Intro');
    await form.getByLabel('Video link').fill('https://example.com/about');
    expect(await form.getByLabel('Enabled (plays instead of the carousel)').isChecked()).toBe(true);
    await form.getByLabel('Media URL').fill('https://example.com/intro.mp4');
    await form.getByRole('button', { name: 'Add background video' }).click();
    await expect.poll(() => banner.textContent()).toContain('Background video added successfully');
    await list.getByRole('button', { name: 'Edit Intro' }).waitFor();
    await list.getByText('Enabled', { exact: true }).waitFor();
    expect((await publicAds()).background_videos).toEqual([
      expect.objectContaining({
        title: 'Intro',
        link: 'https://example.com/about',
        media: 'https://example.com/intro.mp4',
        enabled: 1,
      }),
    ]);
    await expectNoSeriousAxeViolations(page);

    await list.getByRole('button', { name: 'Disable Intro' }).click();
    await expect.poll(() => banner.textContent()).toContain('Background video disabled successfully');
    await list.getByText('Disabled', { exact: true }).waitFor();
    expect((await publicAds()).background_videos[0].enabled).toBe(0);
    await list.getByRole('button', { name: 'Enable Intro' }).click();
    await expect.poll(() => banner.textContent()).toContain('Background video enabled successfully');
    expect((await publicAds()).background_videos[0].enabled).toBe(1);

    await list.getByRole('button', { name: 'Edit Intro' }).click();
    await page.getByRole('heading', { name: 'Edit background video' }).waitFor();
    expect(await form.getByLabel('Video title').inputValue()).toBe('Intro');
    await form.getByLabel('Video title').fill('Welcome');
    await form.getByLabel('Enabled (plays instead of the carousel)').uncheck();
    await form.getByRole('button', { name: 'Update background video' }).click();
    await expect.poll(() => banner.textContent()).toContain('Background video updated successfully');
    expect((await publicAds()).background_videos).toEqual([
      expect.objectContaining({ title: 'Welcome', media: 'https://example.com/intro.mp4', enabled: 0 }),
    ]);

    await list.getByRole('button', { name: 'Delete Welcome' }).click();
    await page.getByRole('dialog', { name: 'Please confirm' }).getByRole('button', { name: 'Delete' }).click();
    await expect.poll(() => banner.textContent()).toContain('Background video deleted successfully');
    await page.getByText('No background videos yet').waitFor();
    expect((await publicAds()).background_videos).toEqual([]);

    expect(unexpectedErrors(errors)).toEqual([]);
    await context.close();
  });
});
