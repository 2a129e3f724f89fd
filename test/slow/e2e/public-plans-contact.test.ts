// Plans and contact in a real browser: the home plans section, the plans page (toggle
// arithmetic, Most Popular, premium highlight, select-plan links, structured descriptions, FAQ,
// contact sales, free trial) and the contact form (browser and server validation, banners,
// business hours).
import { beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { formatPrice, formatTime } from '../../../web/lib/format';
import { axeViolations, hasBrowser, launchBrowser, openPage, startServer, type E2EServer } from './harness.js';
import { adminCall, contextTracker, DEVICES, unexpectedErrors } from './public-helpers.js';

/** name, monthly price, type, description, and the expected annual price and saving. */
const PLANS = [
  { name: 'Starter', price: 4.5, type: 'basic', description: 'One listing, updated monthly.', annual: 43, saving: 11 },
  {
    name: 'Pro',
    price: 19.99,
    type: 'pro',
    description: { features: ['Five listings', 'Weekly statistics'], languages: ['English', 'Español'] },
    annual: 192,
    saving: 48,
  },
  { name: 'Full Access', price: 49, type: 'pro', description: 'Every feature, every city.', annual: 470, saving: 118 },
  {
    name: 'Enterprise',
    price: 99.99,
    type: 'premium',
    description: 'Custom setup and support.',
    annual: 960,
    saving: 240,
  },
] as const;

const planCard = (page: Page, name: string) =>
  page.locator('.plan-card').filter({ has: page.getByRole('heading', { name, exact: true }) });

describe.skipIf(!hasBrowser)('public plans and contact', () => {
  let server: E2EServer;
  let browser: Browser;
  let cookie: string;

  beforeAll(async () => {
    [server, browser] = await Promise.all([startServer(), launchBrowser()]);
    cookie = await server.login();
    for (const plan of PLANS) {
      const { annual: _annual, saving: _saving, ...fields } = plan;
      await adminCall(server, cookie, 'POST', '/api/plans', {
        ...fields,
        link: `https://pay.example.com/${plan.name.toLowerCase().replace(' ', '-')}`,
      });
    }
  });
  const { track } = contextTracker(() => ({ browser, server }));

  for (const [device, viewport] of DEVICES) {
    describe(device, () => {
      it('home: the first 3 plans, View All Plans and a contact call to action', async () => {
        const { page, errors } = track(await openPage(browser, viewport));
        await page.goto(server.baseUrl + '/');
        const section = page.locator('.plans-section');
        await section.getByRole('heading', { name: 'Plans and pricing' }).waitFor();
        expect(await section.locator('.plan-card__name').allTextContents()).toEqual(['Starter', 'Pro', 'Full Access']);
        expect(
          await planCard(page, 'Starter')
            .getByRole('link', { name: /^Select plan/ })
            .getAttribute('href'),
        ).toBe('https://pay.example.com/starter');
        expect(await planCard(page, 'Pro').getByText('Most Popular').count()).toBe(1);
        await section.getByRole('link', { name: 'Contact us' }).click();
        await page.waitForURL(server.baseUrl + '/contact');
        await page.goBack();
        await page.locator('.plans-section').getByRole('link', { name: 'View All Plans' }).click();
        await page.waitForURL(server.baseUrl + '/plans');
        await page.getByRole('heading', { level: 1, name: 'Plans and pricing' }).waitFor();
        expect(errors).toEqual([]);
      });

      it('plans page: monthly and annual prices (annual = round(12 x price x 0.8), saving round(12 x price x 0.2))', async () => {
        const { page, errors } = track(await openPage(browser, viewport));
        await page.goto(server.baseUrl + '/plans');
        await page.locator('.plan-card').first().waitFor();
        expect(await page.locator('.plan-card').count()).toBe(4);
        const monthly = page.getByRole('button', { name: 'Monthly' });
        const annual = page.getByRole('button', { name: /^Annual/ });
        expect(await monthly.getAttribute('aria-pressed')).toBe('true');
        for (const plan of PLANS) {
          const card = planCard(page, plan.name);
          expect(await card.locator('.plan-card__amount').textContent()).toBe(formatPrice(plan.price, 'en'));
          expect(await card.locator('.plan-card__period').textContent()).toBe('/month');
          expect(await card.locator('.plan-card__saving').count()).toBe(0);
        }
        expect(await planCard(page, 'Starter').locator('.plan-card__amount').textContent()).toBe('$4.50');

        await annual.click();
        expect(await annual.getAttribute('aria-pressed')).toBe('true');
        expect(await monthly.getAttribute('aria-pressed')).toBe('false');
        for (const plan of PLANS) {
          expect(Math.round(12 * plan.price * 0.8)).toBe(plan.annual);
          const card = planCard(page, plan.name);
          expect(await card.locator('.plan-card__amount').textContent()).toBe(`$${plan.annual}`);
          expect(await card.locator('.plan-card__period').textContent()).toBe('/year');
          expect(await card.locator('.plan-card__saving').textContent()).toBe(`Save $${plan.saving} a year`);
        }
        await monthly.click();
        expect(await planCard(page, 'Enterprise').locator('.plan-card__amount').textContent()).toBe('$99.99');
        expect(errors).toEqual([]);
      });

      it('plans page: Most Popular, premium highlighted, select-plan links, features and languages, FAQ, trial, contact sales', async () => {
        const { page, errors } = track(await openPage(browser, viewport));
        await page.goto(server.baseUrl + '/plans');
        await page.locator('.plan-card').first().waitFor();
        // The second card is the popular one.
        expect(await page.locator('.plan-card').nth(1).getByText('Most Popular').count()).toBe(1);
        expect(await page.getByText('Most Popular').count()).toBe(1);
        // premium by type, or by a name with "premium" or "full".
        const highlighted = await page.locator('.plan-card--highlighted .plan-card__name').allTextContents();
        expect(highlighted).toEqual(['Full Access', 'Enterprise']);
        expect(await planCard(page, 'Enterprise').getByText('Recommended').count()).toBe(1);

        for (const plan of PLANS) {
          const select = planCard(page, plan.name).getByRole('link', { name: /^Select plan/ });
          expect(await select.getAttribute('href')).toBe(
            `https://pay.example.com/${plan.name.toLowerCase().replace(' ', '-')}`,
          );
          expect(await select.getAttribute('target')).toBe('_blank');
          expect(await select.getAttribute('rel')).toContain('noopener');
        }
        const pro = planCard(page, 'Pro');
        expect(await pro.locator('.plan-card__features li').allTextContents()).toEqual([
          'Five listings',
          'Weekly statistics',
        ]);
        expect(await pro.locator('.plan-card__languages li').allTextContents()).toEqual(['English', 'Español']);
        expect(await planCard(page, 'Starter').locator('.plan-card__description').textContent()).toBe(
          'One listing, updated monthly.',
        );

        expect(
          await page.getByText('Every plan starts with a 14-day free trial. No credit card required.').count(),
        ).toBe(1);
        await page.getByText('Which payment methods do you accept?').click();
        await page
          .getByText('We accept all major credit cards and PayPal. Annual plans can also be paid by bank transfer.')
          .waitFor();

        await page.getByRole('link', { name: 'Contact sales' }).click();
        await page.waitForURL(server.baseUrl + '/contact');
        expect(errors).toEqual([]);
      });

      it('plans page in Portuguese: texts and Intl prices', async () => {
        const { page, errors } = track(await openPage(browser, { ...viewport, locale: 'pt-BR' }));
        await page.goto(server.baseUrl + '/plans');
        await page.getByRole('heading', { level: 1, name: 'Planos e preços' }).waitFor();
        await page.getByRole('button', { name: /^Anual/ }).click();
        const card = planCard(page, 'Pro');
        expect(await card.locator('.plan-card__amount').textContent()).toBe(formatPrice(192, 'pt'));
        expect(await card.locator('.plan-card__saving').textContent()).toBe(
          `Economize ${formatPrice(48, 'pt')} por ano`,
        );
        expect(await card.locator('.plan-card__period').textContent()).toBe('/ano');
        expect(await page.getByText('Mais popular').count()).toBe(1);
        expect(errors).toEqual([]);
      });

      it('contact: browser validation names each missing or malformed field, and nothing is sent', async () => {
        const { page, errors } = track(await openPage(browser, viewport));
        let sent = 0;
        page.on('request', (request) => {
          if (request.url().endsWith('/api/contact')) sent++;
        });
        await page.goto(server.baseUrl + '/contact');
        await page.getByRole('button', { name: 'Send message' }).click();
        for (const text of [
          'Please enter your name.',
          'Please enter your email address.',
          'Please enter a subject.',
          'Please write your message.',
        ]) {
          await page.getByText(text).waitFor();
        }
        expect(await page.locator('.banner--error').textContent()).toBe('Please correct the highlighted fields.');
        // Focus goes to the first field in error, which says so.
        expect(await page.evaluate(() => document.activeElement?.id)).toBe('contact-name');
        expect(await page.getByLabel(/^Name/).getAttribute('aria-invalid')).toBe('true');
        expect(await page.getByLabel(/^Name/).getAttribute('aria-describedby')).toBe('contact-name-error');

        await page.getByLabel(/^Name/).fill('Ana');
        await page.getByLabel(/^Email/).fill('not-an-email');
        await page.getByLabel(/^Subject/).fill('Hello');
        await page.getByLabel(/^Message/).fill('   ');
        await page.getByRole('button', { name: 'Send message' }).click();
        await page.getByText('Please enter a valid email address, such as name@example.com.').waitFor();
        expect(await page.getByText('Please write your message.').count()).toBe(1);
        expect(await page.getByText('Please enter your name.').count()).toBe(0);
        expect(sent).toBe(0);
        expect(await axeViolations(page)).toEqual([]);
        expect(errors).toEqual([]);
      });

      it("contact: the server's refusal shows on its field, with a red banner", async () => {
        const { page, errors } = track(await openPage(browser, viewport));
        await page.goto(server.baseUrl + '/contact');
        // The browser accepts a@b; the server does not.
        await page.getByLabel(/^Name/).fill('Ana');
        await page.getByLabel(/^Email/).fill('a@b');
        await page.getByLabel(/^Subject/).fill('Hello');
        await page.getByLabel(/^Message/).fill('Is there a pharmacy open late?');
        const answer = page.waitForResponse((response) => response.url().endsWith('/api/contact'));
        await page.getByRole('button', { name: 'Send message' }).click();
        expect((await answer).status()).toBe(400);
        const banner = page.locator('.banner');
        await banner.getByText('Error sending message').waitFor();
        expect(await banner.getAttribute('class')).toContain('banner--error');
        expect(await banner.evaluate((b) => getComputedStyle(b).backgroundColor)).toBe('rgb(254, 242, 242)');
        await page.getByText('Please enter a valid email address, such as name@example.com.').waitFor();
        expect(await page.evaluate(() => document.activeElement?.id)).toBe('contact-email');
        // What was typed stays, to be corrected.
        expect(await page.getByLabel(/^Message/).inputValue()).toBe('Is there a pharmacy open late?');
        expect(unexpectedErrors(errors, [400])).toEqual([]);
      });

      it('contact: a valid message is sent, with a green banner, and the form is emptied', async () => {
        const { page, errors } = track(await openPage(browser, viewport));
        await page.goto(server.baseUrl + '/contact');
        const subject = `Opening hours (${device})`;
        await page.getByLabel(/^Name/).fill('Ana Souza');
        await page.getByLabel(/^Email/).fill('ana@example.com');
        await page.getByLabel(/^Subject/).fill(subject);
        await page.getByLabel(/^Message/).fill('Could you add the bakery on 5th Street?');
        await page.getByRole('button', { name: 'Send message' }).click();
        const banner = page.locator('.banner');
        await banner.getByText('Message sent successfully').waitFor();
        expect(await banner.getAttribute('class')).toContain('banner--success');
        expect(await banner.evaluate((b) => getComputedStyle(b).backgroundColor)).toBe('rgb(220, 252, 231)');
        expect(await page.getByLabel(/^Name/).inputValue()).toBe('');
        const messages = (await server.request({ method: 'GET', url: '/api/messages', cookie })).json() as {
          subject: string;
          email: string;
          body: string;
        }[];
        expect(messages.find((m) => m.subject === subject)).toMatchObject({
          email: 'ana@example.com',
          body: 'Could you add the bakery on 5th Street?',
        });
        expect(errors).toEqual([]);
      });

      it('contact: business hours and reply time, in the chosen language', async () => {
        const { page, errors } = track(await openPage(browser, viewport));
        await page.goto(server.baseUrl + '/contact');
        const hours = page.locator('.hours');
        await hours.waitFor();
        const rows = await hours
          .locator('.hours__row')
          .evaluateAll((items) =>
            items.map((row) => [row.querySelector('dt')!.textContent, row.querySelector('dd')!.textContent]),
          );
        expect(rows).toEqual([
          ['Monday to Friday', `${formatTime(9, 0, 'en')} – ${formatTime(18, 0, 'en')}`],
          ['Saturday', `${formatTime(10, 0, 'en')} – ${formatTime(16, 0, 'en')}`],
          ['Sunday', 'Closed'],
        ]);
        expect(await page.getByText('We reply within 24 hours on business days.').count()).toBe(1);

        if (device === 'phone') await page.getByRole('button', { name: 'Menu' }).click();
        await page.getByLabel('Language').selectOption('it');
        await page.getByRole('heading', { level: 1, name: 'Contattaci' }).waitFor();
        expect(await hours.locator('dt').first().textContent()).toBe('Da lunedì a venerdì');
        expect(await hours.locator('dd').first().textContent()).toBe(
          `${formatTime(9, 0, 'it')} – ${formatTime(18, 0, 'it')}`,
        );
        expect(await page.getByText('Rispondiamo entro 24 ore nei giorni lavorativi.').count()).toBe(1);
        expect(errors).toEqual([]);
      });
    });
  }

  // Last: it removes the plans the other tests read.
  it('home shows no plans section when there are no plans', async () => {
    const plans = (await server.request({ method: 'GET', url: '/api/plans' })).json() as { id: number }[];
    for (const plan of plans) await adminCall(server, cookie, 'DELETE', `/api/plans?id=${plan.id}`);
    const { page, errors } = track(await openPage(browser));
    await page.goto(server.baseUrl + '/');
    await page.locator('#locator').waitFor();
    expect(await page.locator('.plans-section').count()).toBe(0);
    await page.goto(server.baseUrl + '/plans');
    await page.getByText('No plans are available right now. Please come back soon.').waitFor();
    expect(errors).toEqual([]);
  });
});
