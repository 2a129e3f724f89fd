// Messages in a real browser: a visitor writes through the public contact form, the admin sees
// it unread on the dashboard, reads it, replies through the webmail window, deletes it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { hasBrowser, launchBrowser, openPage, startServer, type E2EServer } from './harness.js';
import { expectNoSeriousAxeViolations, loginThroughForm, openAdminPage, unexpectedErrors } from './admin-helpers.js';

const RED = 'rgb(185, 28, 28)';

describe.skipIf(!hasBrowser)('admin messages', () => {
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

  it('a contact message shows unread on the dashboard, is read, answered through webmail, and deleted', async () => {
    // The visitor, on the public contact page.
    const visitor = await openPage(browser);
    await visitor.page.goto(`${server.baseUrl}/contact`);
    await visitor.page.locator('#contact-name').fill('Ana Silva');
    await visitor.page.locator('#contact-email').fill('ana@example.com');
    await visitor.page.locator('#contact-subject').fill('Opening hours');
    await visitor.page.locator('#contact-body').fill('Hello,\nare you open on Sundays?');
    await visitor.page.getByRole('button', { name: 'Send message' }).click();
    await visitor.page.getByText('Message sent successfully').waitFor();
    expect(visitor.errors).toEqual([]);
    await visitor.context.close();

    // The admin. window.open is recorded instead of opening an outside site.
    const { page, errors, context } = await openPage(browser);
    await page.addInitScript(() => {
      const opened: { url: string; target: string; features: string }[] = [];
      (window as unknown as { opened: typeof opened }).opened = opened;
      window.open = (url?: string | URL, target?: string, features?: string) => {
        opened.push({ url: String(url), target: target ?? '', features: features ?? '' });
        return null;
      };
    });
    await loginThroughForm(page, server.baseUrl);
    await expect.poll(() => page.getByTestId('stat-unread').locator('.admin-stat-value').textContent()).toBe('1');
    const recent = page.getByTestId('recent-activity').locator('li').first();
    expect(await recent.textContent()).toContain('Ana Silva · Opening hours');
    expect(await recent.textContent()).toContain('Unread');
    expect(await recent.evaluate((el) => getComputedStyle(el.querySelector('a')!).color)).toBe(RED);

    // From the recent activity to the message itself.
    await recent.getByRole('link').click();
    await page.getByRole('heading', { level: 1, name: 'Messages' }).waitFor();
    const detail = page.getByTestId('message-detail');
    await detail.getByRole('heading', { name: 'Opening hours' }).waitFor();
    await detail.getByText('Ana Silva <ana@example.com>').waitFor();
    expect(await detail.locator('.admin-message-body').textContent()).toBe('Hello,\nare you open on Sundays?');
    const item = page.getByTestId('message-list').getByRole('button', { name: /Ana Silva/ });
    expect(await item.getAttribute('aria-pressed')).toBe('true');
    expect(await item.textContent()).toContain('Unread');
    await page.getByText('(1 unread)').waitFor();
    await expectNoSeriousAxeViolations(page);

    // Mark read, then unread again.
    const banner = page.getByTestId('banner');
    await detail.getByRole('button', { name: 'Mark as read' }).click();
    await expect.poll(() => banner.textContent()).toContain('Message marked as read successfully');
    await page.getByText('(0 unread)').waitFor();
    expect(await item.textContent()).not.toContain('Unread');
    const messages = async () =>
      (await server.request({ method: 'GET', url: '/api/messages', cookie: await server.login() })).json();
    expect((await messages())[0].status).toBe('read');
    await detail.getByRole('button', { name: 'Mark as unread' }).click();
    await expect.poll(() => banner.textContent()).toContain('Message marked as unread successfully');
    await page.getByText('(1 unread)').waitFor();

    // The mail client link: the recipient, "Re: ..." and the quoted original.
    const mailto = new URL((await detail.getByRole('link', { name: 'Open in mail client' }).getAttribute('href'))!);
    expect(mailto.protocol).toBe('mailto:');
    expect(mailto.pathname).toBe('ana@example.com');
    expect(mailto.searchParams.get('subject')).toBe('Re: Opening hours');
    expect(mailto.searchParams.get('body')).toContain('> Hello,\n> are you open on Sundays?');

    // Reply: a modal prefilled with the answer; the webmail window opens and the message is read.
    await detail.getByRole('button', { name: 'Reply' }).click();
    const dialog = page.getByRole('dialog', { name: 'Reply to Ana Silva' });
    await dialog.waitFor();
    expect(await dialog.getByLabel('To').inputValue()).toBe('ana@example.com');
    expect(await dialog.getByLabel('Subject').inputValue()).toBe('Re: Opening hours');
    const body = await dialog.getByLabel('Message').inputValue();
    expect(body).toMatch(/^\n\nOn .+, Ana Silva wrote:\n> Hello,\n> are you open on Sundays\?$/);
    await expect.poll(() => page.evaluate(() => !!document.activeElement?.closest('dialog'))).toBe(true);
    await expectNoSeriousAxeViolations(page);
    // Escape closes it without sending.
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });
    expect(await page.evaluate(() => (window as unknown as { opened: unknown[] }).opened)).toEqual([]);

    await detail.getByRole('button', { name: 'Reply' }).click();
    await dialog.getByLabel('Message').fill(`Yes, from 10:00 to 16:00.${body}`);
    await dialog.getByRole('button', { name: 'Open in Gmail' }).click();
    await dialog.waitFor({ state: 'hidden' });
    const opened = await page.evaluate(
      () => (window as unknown as { opened: { url: string; target: string }[] }).opened,
    );
    expect(opened).toHaveLength(1);
    expect(opened[0].target).toBe('_blank');
    const compose = new URL(opened[0].url);
    expect(compose.origin + compose.pathname).toBe('https://mail.google.com/mail/');
    expect(Object.fromEntries(compose.searchParams)).toEqual({
      view: 'cm',
      fs: '1',
      to: 'ana@example.com',
      su: 'Re: Opening hours',
      body: `Yes, from 10:00 to 16:00.${body}`,
    });
    await expect.poll(() => banner.textContent()).toContain('Reply window opened successfully');
    await page.getByText('(0 unread)').waitFor();
    expect((await messages())[0].status).toBe('read');

    // Back on the dashboard: no unread message left.
    await openAdminPage(page, 'Dashboard');
    await expect.poll(() => page.getByTestId('stat-unread').locator('.admin-stat-value').textContent()).toBe('0');
    expect(await page.getByTestId('recent-activity').locator('li').first().textContent()).not.toContain('Unread');

    // Delete asks with the message's own question.
    await openAdminPage(page, 'Messages');
    await item.click();
    await detail.getByRole('button', { name: 'Delete' }).click();
    const confirm = page.getByRole('dialog', { name: 'Please confirm' });
    await confirm.getByText('Are you sure you want to delete this message?').waitFor();
    await confirm.getByRole('button', { name: 'Delete' }).click();
    await expect.poll(() => banner.textContent()).toContain('Message deleted successfully');
    await page.getByText('No messages yet').waitFor();
    expect(await messages()).toEqual([]);

    expect(unexpectedErrors(errors)).toEqual([]);
    await context.close();
  });
});
