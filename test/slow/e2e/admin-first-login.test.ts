// The first administrator on a generated password: the sign-in hint says where the password is
// (never the password), and nothing of the admin opens until a new password is chosen.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { hasBrowser, launchBrowser, openPage, startServer, type E2EServer } from './harness.js';
import { expectNoSeriousAxeViolations, unexpectedErrors } from './admin-helpers.js';

describe.skipIf(!hasBrowser)('admin first login on a generated password', () => {
  let server: E2EServer;
  let browser: Browser;
  let generated: string;
  beforeAll(async () => {
    // No ADMIN_PASSWORD: the server generates one and writes it to <dataDir>/initial-admin-password.
    server = await startServer({ env: { ADMIN_PASSWORD: '' } });
    generated = readFileSync(join(server.dir, 'initial-admin-password'), 'utf8').trim();
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('shows where the generated password is, then forces a new password before anything else', async () => {
    const { page, errors, context } = await openPage(browser);
    await page.goto(`${server.baseUrl}/admin`);
    const hint = page.getByTestId('login-hint');
    await hint.waitFor();
    const hintText = (await hint.textContent()) ?? '';
    expect(hintText).toContain('the username is admin');
    expect(hintText).toContain(join(server.dir, 'initial-admin-password'));
    expect(hintText).not.toContain(generated);
    expect(await page.content()).not.toContain(generated);
    await expectNoSeriousAxeViolations(page);

    await page.getByLabel('Username').fill('admin');
    await page.getByLabel('Password', { exact: true }).fill(generated);
    await page.getByRole('button', { name: 'Login', exact: true }).click();
    await page.waitForURL(`${server.baseUrl}/admin/dashboard`);
    await page.getByRole('heading', { level: 1, name: 'Change password' }).waitFor();
    await page.getByText('You signed in with a generated password.').waitFor();
    // No sidebar, no dashboard: any admin path shows the same form.
    expect(await page.getByRole('navigation', { name: 'Admin navigation' }).count()).toBe(0);
    await page.getByRole('button', { name: 'Logout' }).waitFor();
    await page.goto(`${server.baseUrl}/admin/settings`);
    await page.getByRole('heading', { level: 1, name: 'Change password' }).waitFor();
    expect(await page.getByRole('heading', { name: 'General Settings' }).count()).toBe(0);
    await expectNoSeriousAxeViolations(page);

    // Checked in the page: too short, and a confirmation that differs.
    await page.getByLabel('Current password').fill(generated);
    await page.getByLabel('New password', { exact: true }).fill('short');
    await page.getByLabel('Confirm new password').fill('shorter');
    await page.getByRole('button', { name: 'Change password' }).click();
    await page.getByText('Password must be at least 12 characters').waitFor();
    await page.getByText('The passwords do not match').waitFor();

    // Refused by the server: too common (the server's message, in the admin's words).
    await page.getByLabel('New password', { exact: true }).fill('aaaaaaaaaaaaaaaa');
    await page.getByLabel('Confirm new password').fill('aaaaaaaaaaaaaaaa');
    await page.getByRole('button', { name: 'Change password' }).click();
    await page.getByText('Password is too common; choose another').first().waitFor();

    // A wrong current password.
    await page.getByLabel('Current password').fill('not-the-generated-one');
    await page.getByLabel('New password', { exact: true }).fill('a brand new passphrase 42');
    await page.getByLabel('Confirm new password').fill('a brand new passphrase 42');
    await page.getByRole('button', { name: 'Change password' }).click();
    await page.getByText('The current password is not correct').first().waitFor();

    await page.getByLabel('Current password').fill(generated);
    await page.getByRole('button', { name: 'Change password' }).click();
    await page.waitForURL(`${server.baseUrl}/admin/dashboard`);
    await page.getByRole('heading', { level: 1, name: 'Dashboard' }).waitFor();
    await page.getByRole('navigation', { name: 'Admin navigation' }).waitFor();

    // The generated password is over: the login page names nobody any more, the old password
    // fails, the new one works.
    await page.getByRole('button', { name: 'Logout' }).click();
    await page.waitForURL(`${server.baseUrl}/`);
    await page.goto(`${server.baseUrl}/admin`);
    await page.getByRole('heading', { level: 1, name: 'Admin login' }).waitFor();
    expect(await page.getByTestId('login-hint').count()).toBe(0);
    expect(await page.content()).not.toContain('initial-admin-password');
    await page.getByLabel('Username').fill('admin');
    await page.getByLabel('Password', { exact: true }).fill(generated);
    await page.getByRole('button', { name: 'Login', exact: true }).click();
    await page.getByText('Invalid username or password').waitFor();
    await page.getByLabel('Password', { exact: true }).fill('a brand new passphrase 42');
    await page.getByRole('button', { name: 'Login', exact: true }).click();
    await page.getByRole('heading', { level: 1, name: 'Dashboard' }).waitFor();

    // Only the expected refusals (400 bad password, 401 wrong login) reached the console.
    expect(unexpectedErrors(errors, [400, 401])).toEqual([]);
    await context.close();
  });
});
