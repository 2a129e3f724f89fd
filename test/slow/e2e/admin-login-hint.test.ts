// The login page's hint: the first administrator's username and where its password comes from
// (the generated file, or the server's ADMIN_PASSWORD), never the password itself, in the five
// languages; and no hint once the administrator has chosen a password.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { adminDictionaries } from '../../../web/admin/i18n/index';
import { ADMIN_PASSWORD } from '../../helpers.js';
import { hasBrowser, launchBrowser, openPage, startServer, type E2EServer } from './harness.js';
import { contextTracker } from './public-helpers.js';
import { expectNoSeriousAxeViolations, unexpectedErrors } from './admin-helpers.js';

const LANGS = ['en', 'es', 'pt', 'it', 'fr'] as const;

describe.skipIf(!hasBrowser)('admin: the login hint', () => {
  let generated: E2EServer;
  let fromEnv: E2EServer;
  let browser: Browser;
  beforeAll(async () => {
    [generated, fromEnv, browser] = await Promise.all([
      startServer({ env: { ADMIN_PASSWORD: '' } }),
      startServer(),
      launchBrowser(),
    ]);
    return () => generated?.close();
  });
  const { track } = contextTracker(() => ({ browser, server: fromEnv }));

  const hintIn = async (server: E2EServer, lang: (typeof LANGS)[number]) => {
    const { page, errors, context } = track(await openPage(browser));
    await context.addInitScript((l) => localStorage.setItem('language', l), lang);
    await page.goto(`${server.baseUrl}/admin`);
    const hint = page.getByTestId('login-hint');
    await hint.waitFor();
    return { page, errors, text: (await hint.textContent())! };
  };

  for (const lang of LANGS) {
    it(`${lang}: names the username and the generated file, never the password`, async () => {
      const password = readFileSync(join(generated.dir, 'initial-admin-password'), 'utf8').trim();
      const { page, errors, text } = await hintIn(generated, lang);
      const t = adminDictionaries[lang];
      expect(text).toContain(t.loginHintUsername.replace('{username}', 'admin'));
      expect(text).toContain(t.loginHintPasswordFile);
      expect(text).toContain(join(generated.dir, 'initial-admin-password'));
      expect(await page.content()).not.toContain(password);
      await expectNoSeriousAxeViolations(page);
      expect(unexpectedErrors(errors)).toEqual([]);
    });

    it(`${lang}: names the username and ADMIN_PASSWORD, never the password`, async () => {
      const { page, errors, text } = await hintIn(fromEnv, lang);
      const t = adminDictionaries[lang];
      expect(text).toContain(t.loginHintUsername.replace('{username}', 'admin'));
      expect(text).toContain(t.loginHintPasswordEnv);
      expect(await page.content()).not.toContain(ADMIN_PASSWORD);
      expect(unexpectedErrors(errors)).toEqual([]);
    });
  }

  // Last: it changes the generated password.
  it('names nobody once the generated password has been changed', async () => {
    const password = readFileSync(join(generated.dir, 'initial-admin-password'), 'utf8').trim();
    const cookie = await generated.login('admin', password);
    const changed = await generated.request({
      method: 'POST',
      url: '/api/admin/password',
      cookie,
      payload: { current_password: password, new_password: 'a fresh and private phrase' },
    });
    expect(changed.statusCode).toBe(200);
    const { page, errors } = track(await openPage(browser));
    await page.goto(`${generated.baseUrl}/admin`);
    await page.getByLabel('Username').waitFor();
    expect(await page.getByTestId('login-hint').count()).toBe(0);
    expect(await page.locator('.admin-login-page').textContent()).not.toContain('admin.');
    expect(unexpectedErrors(errors)).toEqual([]);
  });
});
