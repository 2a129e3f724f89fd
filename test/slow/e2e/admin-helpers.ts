// Shared steps of the admin browser tests: signing in through the real form, checking axe.
import { expect } from 'vitest';
import type { Page } from 'playwright-core';
import { ADMIN_PASSWORD } from '../../helpers.js';
import { axeViolations } from './harness.js';

export { makePng, unexpectedErrors } from './harness.js';
export { ADMIN_PASSWORD };

/** Signs in through the /admin form and waits for the dashboard. */
export async function loginThroughForm(
  page: Page,
  baseUrl: string,
  username = 'admin',
  password = ADMIN_PASSWORD,
): Promise<void> {
  await page.goto(`${baseUrl}/admin`);
  await page.getByLabel('Username').fill(username);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Login', exact: true }).click();
  await page.waitForURL(`${baseUrl}/admin/dashboard`);
  await page.getByRole('heading', { level: 1, name: 'Dashboard' }).waitFor();
}

/** Follows a sidebar link, as a user would, and waits for the page's heading. */
export async function openAdminPage(page: Page, link: string, heading = link): Promise<void> {
  await page
    .getByRole('navigation', { name: 'Admin navigation' })
    .getByRole('link', { name: link, exact: true })
    .click();
  await page.getByRole('heading', { level: 1, name: heading, exact: true }).waitFor();
}

export async function expectNoSeriousAxeViolations(page: Page): Promise<void> {
  expect(await axeViolations(page)).toEqual([]);
}
