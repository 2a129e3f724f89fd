// Signing in and out of the admin, the guard, and a session that runs out while a form is open.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { testClock } from '../../helpers.js';
import { hasBrowser, launchBrowser, openPage, PHONE, startServer, type E2EServer } from './harness.js';
import {
  ADMIN_PASSWORD,
  expectNoSeriousAxeViolations,
  loginThroughForm,
  openAdminPage,
  unexpectedErrors,
} from './admin-helpers.js';

describe.skipIf(!hasBrowser)('admin sign-in, guard and session', () => {
  const clock = testClock();
  let server: E2EServer;
  let browser: Browser;
  beforeAll(async () => {
    server = await startServer({ clock });
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('refuses empty fields, a wrong password, a network failure and too many tries, then signs in by keyboard', async () => {
    const { page, errors, context } = await openPage(browser);
    await page.goto(`${server.baseUrl}/admin`);
    await page.getByRole('heading', { level: 1, name: 'Admin login' }).waitFor();
    // ADMIN_PASSWORD is set: the hint names it, never the password.
    expect(await page.getByTestId('login-hint').textContent()).toContain(
      "Its password is the one set by the server's ADMIN_PASSWORD.",
    );
    expect(await page.getByRole('link', { name: 'Back to home' }).getAttribute('href')).toBe('/');
    await expectNoSeriousAxeViolations(page);

    // Both fields are required, said per field, and the focus goes to the first problem.
    await page.getByRole('button', { name: 'Login', exact: true }).click();
    await page.getByText('Username is required').waitFor();
    await page.getByText('Password is required').waitFor();
    await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('name'))).toBe('username');
    expect(await page.getByLabel('Username').getAttribute('aria-invalid')).toBe('true');

    // A wrong password.
    await page.getByLabel('Username').fill('admin');
    await page.getByLabel('Password', { exact: true }).fill('not the password at all');
    await page.getByRole('button', { name: 'Login', exact: true }).click();
    const banner = page.getByTestId('banner');
    await expect.poll(() => banner.textContent()).toBe('Invalid username or password');
    expect(await banner.getAttribute('class')).toContain('admin-banner-error');
    expect(page.url()).toBe(`${server.baseUrl}/admin`);

    // The server cannot be reached.
    await page.route('**/trpc/auth.login**', (route) => route.abort('failed'));
    await page.getByLabel('Password', { exact: true }).fill('whatever it is');
    await page.getByRole('button', { name: 'Login', exact: true }).click();
    await expect.poll(() => banner.textContent()).toBe('Login failed. Please try again.');
    await page.unroute('**/trpc/auth.login**');

    // Five failures on one account, then the server asks to wait: the wait is shown.
    await page.getByLabel('Username').fill('ghost');
    for (let attempt = 1; attempt <= 5; attempt++) {
      await page.getByLabel('Password', { exact: true }).fill(`wrong password ${attempt}`);
      await page.getByRole('button', { name: 'Login', exact: true }).click();
      await expect.poll(() => banner.textContent()).toBe('Invalid username or password');
      await page.getByRole('button', { name: 'Login', exact: true }).isEnabled();
    }
    await page.getByLabel('Password', { exact: true }).fill('wrong password 6');
    await page.getByRole('button', { name: 'Login', exact: true }).click();
    await expect.poll(() => banner.textContent()).toMatch(/^Too many login attempts\. Try again in \d+ seconds\.$/);
    // Past the throttling windows, for the rest of this file.
    clock.advance(6 * 60_000);

    // Keyboard only: type, Tab, type, Enter.
    await page.getByLabel('Username').fill('');
    await page.getByLabel('Username').focus();
    await page.keyboard.type('admin');
    await page.keyboard.press('Tab');
    await page.keyboard.type(ADMIN_PASSWORD);
    await page.keyboard.press('Enter');
    await page.waitForURL(`${server.baseUrl}/admin/dashboard`);
    await page.getByRole('heading', { level: 1, name: 'Dashboard' }).waitFor();
    expect(await page.evaluate(() => localStorage.getItem('adminUsername'))).toBe('admin');
    const current = page.getByRole('navigation', { name: 'Admin navigation' }).locator('[aria-current="page"]');
    expect(await current.textContent()).toBe('Dashboard');

    expect(unexpectedErrors(errors, [401, 429])).toEqual([]);
    await context.close();
  });

  it('keeps the signed-in admin away from /admin, and everyone else out of /admin/*; logout returns to /', async () => {
    const { page, errors, context } = await openPage(browser);
    // Signed out: every admin page sends to the sign-in form.
    for (const path of [
      '/admin/dashboard',
      '/admin/settings',
      '/admin/users',
      '/admin/ads',
      '/admin/messages',
      '/admin/plans',
      '/admin/anything',
    ]) {
      await page.goto(`${server.baseUrl}${path}`);
      await page.waitForURL(`${server.baseUrl}/admin`);
      await page.getByRole('heading', { level: 1, name: 'Admin login' }).waitFor();
    }

    await loginThroughForm(page, server.baseUrl);
    // Signed in: /admin itself goes to the dashboard, and an unknown admin path too.
    await page.goto(`${server.baseUrl}/admin`);
    await page.waitForURL(`${server.baseUrl}/admin/dashboard`);
    await page.goto(`${server.baseUrl}/admin/nowhere`);
    await page.waitForURL(`${server.baseUrl}/admin/dashboard`);
    await page.getByText('Signed in as admin').waitFor();

    await page.getByRole('button', { name: 'Logout' }).click();
    await page.waitForURL(`${server.baseUrl}/`);
    expect(await page.evaluate(() => localStorage.getItem('adminUsername'))).toBeNull();
    // The session is gone on the server too.
    await page.goto(`${server.baseUrl}/admin/users`);
    await page.waitForURL(`${server.baseUrl}/admin`);
    expect(await page.evaluate(() => fetch('/api/admin/status').then((r) => r.json()))).toMatchObject({
      logged_in: false,
    });

    expect(errors).toEqual([]);
    await context.close();
  });

  it('brings the sign-in form over a page whose session ran out, and the edits survive it', async () => {
    const { page, errors, context } = await openPage(browser);
    await loginThroughForm(page, server.baseUrl);
    await openAdminPage(page, 'Plans');
    const form = page.getByTestId('plan-form');
    await form.getByLabel('Name').fill('Team');
    await form.getByLabel('Price (USD per month)').fill('19.50');
    await form.getByLabel('Type').selectOption('pro');
    await form.getByLabel('Features').fill('Ten users\nPriority support');
    await form.getByLabel('Languages').fill('English\nFrançais');
    await form.getByLabel('Link (external page)').fill('https://example.com/team');

    // 31 idle minutes: the server's session is over (30 minutes idle).
    clock.advance(31 * 60_000);
    await form.getByRole('button', { name: 'Add plan' }).click();

    const dialog = page.getByRole('dialog', { name: 'Your session has ended' });
    await dialog.waitFor();
    await dialog.getByText('Please login to access admin panel').waitFor();
    // The username is remembered; the focus is inside the dialog.
    expect(await dialog.getByLabel('Username').inputValue()).toBe('admin');
    await expect.poll(() => page.evaluate(() => !!document.activeElement?.closest('dialog'))).toBe(true);
    // The page under it is still there, with what was typed.
    expect(await form.getByLabel('Name').inputValue()).toBe('Team');
    expect(await form.getByLabel('Features').inputValue()).toBe('Ten users\nPriority support');

    await dialog.getByLabel('Password', { exact: true }).fill(ADMIN_PASSWORD);
    await dialog.getByRole('button', { name: 'Login', exact: true }).click();
    await dialog.waitFor({ state: 'hidden' });
    expect(page.url()).toBe(`${server.baseUrl}/admin/plans`);
    expect(await form.getByLabel('Price (USD per month)').inputValue()).toBe('19.50');

    await form.getByRole('button', { name: 'Add plan' }).click();
    await page.getByText('Plan added successfully').waitFor();
    await page.getByTestId('plans-table').getByRole('link', { name: 'Team' }).waitFor();
    const plans = await page.evaluate(() => fetch('/api/plans').then((r) => r.json()));
    expect(plans).toEqual([
      expect.objectContaining({
        name: 'Team',
        price: 19.5,
        type: 'pro',
        link: 'https://example.com/team',
        description: { features: ['Ten users', 'Priority support'], languages: ['English', 'Français'] },
      }),
    ]);

    expect(unexpectedErrors(errors, [401])).toEqual([]);
    await context.close();
  });

  it('collapses the sidebar behind a Menu button on a phone, in the visitor’s language', async () => {
    const { page, errors, context } = await openPage(browser, PHONE);
    await page.addInitScript(() => localStorage.setItem('language', 'es'));
    await page.goto(`${server.baseUrl}/admin`);
    await page.getByRole('heading', { level: 1, name: 'Acceso de administrador' }).waitFor();
    await page.getByLabel('Usuario').fill('admin');
    await page.getByLabel('Contraseña', { exact: true }).fill(ADMIN_PASSWORD);
    await page.getByRole('button', { name: 'Iniciar sesión', exact: true }).click();
    await page.getByRole('heading', { level: 1, name: 'Panel' }).waitFor();

    const toggle = page.getByRole('button', { name: 'Menú de administración' });
    const nav = page.getByRole('navigation', { name: 'Navegación de administración' });
    expect(await toggle.getAttribute('aria-expanded')).toBe('false');
    expect(await nav.isVisible()).toBe(false);
    await toggle.click();
    expect(await toggle.getAttribute('aria-expanded')).toBe('true');
    await nav.getByRole('link', { name: 'Mensajes' }).click();
    await page.getByRole('heading', { level: 1, name: 'Mensajes' }).waitFor();
    // Following a link closes the menu again.
    await expect.poll(() => nav.isVisible()).toBe(false);
    await expectNoSeriousAxeViolations(page);
    expect(errors).toEqual([]);
    await context.close();
  });
});
