// Admin sign-in over real HTTP requests (inject): first admin, sessions, throttling, logs.
import { readFileSync, statSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import argon2 from 'argon2';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ADMIN_PASSWORD, buildTestApp, type TestApp } from '../../helpers.js';

let t: TestApp;
afterEach(async () => {
  vi.unstubAllEnvs();
  await t?.close();
});

const NEW_PASSWORD = 'a brand new secret phrase';
const sidOf = (response: { cookies: { name: string; value: string }[] }) =>
  response.cookies.find((c) => c.name === 'sid')?.value;

describe('first administrator', () => {
  it('gets a generated password that must be changed before anything else', async () => {
    t = await buildTestApp({ env: { ADMIN_PASSWORD: '' } });
    const file = join(t.dir, 'initial-admin-password');
    const password = readFileSync(file, 'utf8').trim();
    expect(password.length).toBeGreaterThanOrEqual(20);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(t.announced.join('\n')).toContain(password);

    const status = (await t.request({ method: 'GET', url: '/api/admin/status' })).json();
    expect(status).toEqual({
      logged_in: false,
      username: null,
      must_change_password: false,
      login_hint: { username: 'admin', password_source: 'file', password_file: file },
    });
    expect(JSON.stringify(status)).not.toContain(password);

    const login = await t.request({
      method: 'POST',
      url: '/api/admin/login',
      payload: { username: 'admin', password },
    });
    expect(login.json()).toEqual({ success: true, must_change_password: true });
    const cookie = `sid=${sidOf(login)}`;

    // Nothing else opens until the password is changed.
    for (const [method, url] of [
      ['GET', '/api/messages'],
      ['GET', '/api/admin/credentials'],
      ['GET', '/api/visits'],
    ] as const) {
      const response = await t.request({ method, url, cookie });
      expect(response.statusCode).toBe(403);
      expect(response.json()).toEqual({ error: 'Please change your password first' });
    }
    expect(
      (await t.request({ method: 'POST', url: '/trpc/settings.save', cookie, payload: { site_title: 'x' } }))
        .statusCode,
    ).toBe(403);
    expect((await t.request({ method: 'GET', url: '/api/admin/status', cookie })).json()).toMatchObject({
      logged_in: true,
      must_change_password: true,
    });

    const weak = await t.request({
      method: 'POST',
      url: '/api/admin/password',
      cookie,
      payload: { current_password: password, new_password: 'password1234' },
    });
    expect(weak.statusCode).toBe(400);
    expect(weak.json().error).toMatch(/new_password: Password is too common/);
    const wrong = await t.request({
      method: 'POST',
      url: '/api/admin/password',
      cookie,
      payload: { current_password: 'nope', new_password: NEW_PASSWORD },
    });
    expect(wrong.json()).toEqual({ error: 'current_password: is not correct' });

    const changed = await t.request({
      method: 'POST',
      url: '/api/admin/password',
      cookie,
      payload: { current_password: password, new_password: NEW_PASSWORD },
    });
    expect(changed.json()).toEqual({ success: true });
    expect(existsSync(file)).toBe(false);
    expect((await t.request({ method: 'GET', url: '/api/messages', cookie })).statusCode).toBe(200);
    // No hint any more: the login page names nobody once the administrator chose the password.
    expect((await t.request({ method: 'GET', url: '/api/admin/status' })).json().login_hint).toBe(null);
  });

  it('uses ADMIN_PASSWORD when given, with a hint that names it and no forced change', async () => {
    t = await buildTestApp();
    expect(t.announced).toEqual([]);
    expect(existsSync(join(t.dir, 'initial-admin-password'))).toBe(false);
    const hint = (await t.request({ method: 'GET', url: '/api/admin/status' })).json().login_hint;
    expect(hint).toEqual({ username: 'admin', password_source: 'env', password_file: null });
    const cookie = await t.login();
    expect((await t.request({ method: 'GET', url: '/api/messages', cookie })).statusCode).toBe(200);
    // Once the administrator chooses another password, the login page names nobody.
    const changed = await t.request({
      method: 'POST',
      url: '/api/admin/password',
      cookie,
      payload: { current_password: ADMIN_PASSWORD, new_password: NEW_PASSWORD },
    });
    expect(changed.json()).toEqual({ success: true });
    expect((await t.request({ method: 'GET', url: '/api/admin/status' })).json().login_hint).toBe(null);
  });
});

describe('login', () => {
  it('answers the same for an unknown user and a wrong password', async () => {
    t = await buildTestApp();
    for (const payload of [
      { username: 'nobody', password: ADMIN_PASSWORD },
      { username: 'admin', password: 'wrong password!' },
    ]) {
      const response = await t.request({ method: 'POST', url: '/api/admin/login', payload });
      expect(response.statusCode).toBe(401);
      expect(response.json()).toEqual({ error: 'Invalid username or password' });
    }
    const missing = await t.request({ method: 'POST', url: '/api/admin/login', payload: { username: 'admin' } });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().error).toMatch(/^password: /);
  });

  it('sets an HttpOnly, SameSite=Strict session cookie, new at each login', async () => {
    t = await buildTestApp();
    const first = await t.request({
      method: 'POST',
      url: '/api/admin/login',
      payload: { username: 'admin', password: ADMIN_PASSWORD },
    });
    const cookie = first.cookies.find((c) => c.name === 'sid')!;
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Strict', path: '/' });
    expect(cookie.secure).toBeFalsy();
    expect(Buffer.from(cookie.value, 'base64url').length).toBeGreaterThanOrEqual(16);
    const second = await t.request({
      method: 'POST',
      url: '/api/admin/login',
      cookie: `sid=${cookie.value}`,
      payload: { username: 'admin', password: ADMIN_PASSWORD },
    });
    expect(sidOf(second)).not.toBe(cookie.value);
    // The id the browser had before is dead.
    expect((await t.request({ method: 'GET', url: '/api/messages', cookie: `sid=${cookie.value}` })).statusCode).toBe(
      401,
    );
    // Stored hashed, never as sent.
    const rows = await t.handle.db.selectFrom('sessions').select('id_hash').execute();
    expect(rows.map((r) => r.id_hash)).not.toContain(sidOf(second));
  });

  it('marks the cookie Secure when the site is served over https', async () => {
    t = await buildTestApp({ env: { PUBLIC_ORIGIN: 'https://places.example.org' } });
    const response = await t.request({
      method: 'POST',
      url: '/api/admin/login',
      payload: { username: 'admin', password: ADMIN_PASSWORD },
      headers: { origin: 'https://places.example.org' },
    });
    expect(response.cookies.find((c) => c.name === 'sid')?.secure).toBe(true);
  });

  it('throttles an account after 5 failures in 5 minutes, with Retry-After', async () => {
    t = await buildTestApp();
    for (let i = 0; i < 5; i++) {
      const r = await t.request({
        method: 'POST',
        url: '/api/admin/login',
        payload: { username: 'admin', password: `wrong ${i}` },
        remoteAddress: `10.0.0.${i}`,
      });
      expect(r.statusCode).toBe(401);
    }
    const blocked = await t.request({
      method: 'POST',
      url: '/api/admin/login',
      payload: { username: 'admin', password: ADMIN_PASSWORD },
    });
    expect(blocked.statusCode).toBe(429);
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
    expect(blocked.json().error).toMatch(/Too many login attempts/);
    t.clock.advance(5 * 60_000 + 1000);
    expect(
      (
        await t.request({
          method: 'POST',
          url: '/api/admin/login',
          payload: { username: 'admin', password: ADMIN_PASSWORD },
        })
      ).statusCode,
    ).toBe(200);
  });

  it('throttles an address after 10 failures a minute, even with RATE_LIMIT=off', async () => {
    t = await buildTestApp({ env: { RATE_LIMIT: 'off' } });
    for (let i = 0; i < 10; i++) {
      await t.request({
        method: 'POST',
        url: '/api/admin/login',
        payload: { username: `user${i}`, password: 'whatever it is' },
      });
    }
    const blocked = await t.request({
      method: 'POST',
      url: '/api/admin/login',
      payload: { username: 'admin', password: ADMIN_PASSWORD },
    });
    expect(blocked.statusCode).toBe(429);
    expect(blocked.headers['retry-after']).toBeDefined();
  });

  it('hashes with argon2id at m=19456 t=2 p=1 and rehashes weaker hashes at login', async () => {
    // the production setting, not the tests' cheap one (vitest.config.ts)
    vi.stubEnv('TEST_CHEAP_PASSWORD_HASH', undefined);
    t = await buildTestApp();
    const admin = await t.handle.db.selectFrom('admin_users').select(['id', 'password_hash']).executeTakeFirstOrThrow();
    expect(admin.password_hash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    const weak = await argon2.hash(ADMIN_PASSWORD, {
      type: argon2.argon2id,
      memoryCost: 4096,
      timeCost: 1,
      parallelism: 1,
    });
    await t.handle.db.updateTable('admin_users').set({ password_hash: weak }).where('id', '=', admin.id).execute();
    await t.login();
    const after = await t.handle.db
      .selectFrom('admin_users')
      .select('password_hash')
      .where('id', '=', admin.id)
      .executeTakeFirstOrThrow();
    expect(after.password_hash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
  });
});

describe('sessions', () => {
  it('expire after 30 idle minutes', async () => {
    t = await buildTestApp();
    const cookie = await t.login();
    t.clock.advance(29 * 60_000);
    expect((await t.request({ method: 'GET', url: '/api/visits', cookie })).statusCode).toBe(200);
    t.clock.advance(29 * 60_000); // active a moment ago: still alive
    expect((await t.request({ method: 'GET', url: '/api/visits', cookie })).statusCode).toBe(200);
    t.clock.advance(31 * 60_000);
    const expired = await t.request({ method: 'GET', url: '/api/visits', cookie });
    expect(expired.statusCode).toBe(401);
    expect(expired.json()).toEqual({ error: 'Please login to access admin panel' });
  });

  it('expire 12 hours after login however active', async () => {
    t = await buildTestApp();
    const cookie = await t.login();
    for (let minutes = 0; minutes < 12 * 60 - 20; minutes += 20) {
      t.clock.advance(20 * 60_000);
      expect((await t.request({ method: 'GET', url: '/api/visits', cookie })).statusCode).toBe(200);
    }
    t.clock.advance(40 * 60_000);
    expect((await t.request({ method: 'GET', url: '/api/visits', cookie })).statusCode).toBe(401);
  });

  it('end at logout, at a password change (others only) and when the admin is deleted', async () => {
    t = await buildTestApp();
    const a = await t.login();
    await t.request({
      method: 'POST',
      url: '/api/admin/logout',
      cookie: a,
      headers: { 'content-type': 'application/json' },
    });
    expect((await t.request({ method: 'GET', url: '/api/visits', cookie: a })).statusCode).toBe(401);

    const one = await t.login();
    const two = await t.login();
    await t.request({
      method: 'POST',
      url: '/api/admin/password',
      cookie: one,
      payload: { current_password: ADMIN_PASSWORD, new_password: NEW_PASSWORD },
    });
    expect((await t.request({ method: 'GET', url: '/api/visits', cookie: one })).statusCode).toBe(200);
    expect((await t.request({ method: 'GET', url: '/api/visits', cookie: two })).statusCode).toBe(401);

    await t.request({
      method: 'POST',
      url: '/api/admin/credentials',
      cookie: one,
      payload: { username: 'second', password: 'second admin password' },
    });
    const second = await t.login('second', 'second admin password');
    const users = (await t.request({ method: 'GET', url: '/api/admin/credentials', cookie: one })).json();
    const secondId = users.find((u: { username: string }) => u.username === 'second').id;
    await t.request({ method: 'DELETE', url: `/api/admin/users/${secondId}`, cookie: one });
    expect((await t.request({ method: 'GET', url: '/api/visits', cookie: second })).statusCode).toBe(401);
  });
});

describe('admin users', () => {
  it('refuses a taken username, weak passwords, deleting yourself and the last admin', async () => {
    t = await buildTestApp();
    const cookie = await t.login();
    const post = (payload: object) => t.request({ method: 'POST', url: '/api/admin/credentials', cookie, payload });
    expect((await post({ username: 'admin', password: 'another good password' })).statusCode).toBe(409);
    expect((await post({ username: 'ab', password: 'another good password' })).json().error).toMatch(/^username: /);
    expect((await post({ username: 'editor', password: 'short' })).json().error).toBe(
      'password: Password must be at least 12 characters',
    );
    expect((await post({ username: 'editor', password: 'x'.repeat(129) })).json().error).toBe(
      'password: Password must be at most 128 characters',
    );
    expect((await post({ username: 'editor', password: 'qwertyuiop123' })).json().error).toMatch(/too common/);
    expect((await t.request({ method: 'GET', url: '/api/admin/credentials', cookie })).json()).toHaveLength(1);

    const me = (await t.request({ method: 'GET', url: '/api/admin/credentials', cookie })).json()[0];
    const self = await t.request({ method: 'DELETE', url: `/api/admin/users/${me.id}`, cookie });
    expect(self.statusCode).toBe(409);
    expect(self.json()).toEqual({ error: 'You cannot delete your own account' });

    // The last admin: another admin deletes the rest, then cannot delete the last one.
    const created = (await post({ username: 'editor', password: 'a good long password' })).json();
    expect(created).toMatchObject({ success: true, id: expect.any(Number), message: 'User added successfully' });
    const editor = await t.login('editor', 'a good long password');
    expect(
      (await t.request({ method: 'DELETE', url: `/api/admin/users/${me.id}`, cookie: editor })).json(),
    ).toMatchObject({ success: true, message: 'User deleted successfully' });
    await t.handle.db
      .insertInto('admin_users')
      .values({ username: 'ghost', password_hash: 'x', must_change_password: 0 })
      .execute();
    await t.handle.db.deleteFrom('admin_users').where('username', '=', 'ghost').execute();
    const last = await t.request({ method: 'DELETE', url: `/api/admin/users/${created.id}`, cookie: editor });
    expect(last.statusCode).toBe(409);
  });
});

describe('logs', () => {
  it('never contain a password, a session id or a cookie', async () => {
    const stream = new PassThrough();
    const chunks: string[] = [];
    stream.on('data', (chunk) => chunks.push(String(chunk)));
    t = await buildTestApp({ env: { ADMIN_PASSWORD: '', LOG_LEVEL: 'trace' }, logStream: stream });
    const password = readFileSync(join(t.dir, 'initial-admin-password'), 'utf8').trim();
    await t.request({
      method: 'POST',
      url: '/api/admin/login',
      payload: { username: 'admin', password: 'a wrong password' },
    });
    const login = await t.request({
      method: 'POST',
      url: '/api/admin/login',
      payload: { username: 'admin', password },
    });
    const sid = sidOf(login)!;
    await t.request({
      method: 'POST',
      url: '/api/admin/password',
      cookie: `sid=${sid}`,
      payload: { current_password: password, new_password: NEW_PASSWORD },
    });
    await t.request({ method: 'GET', url: '/api/messages', cookie: `sid=${sid}` });
    const logs = chunks.join('');
    expect(logs.length).toBeGreaterThan(100);
    expect(logs).toContain('admin login failed');
    for (const secret of [password, sid, NEW_PASSWORD, 'a wrong password']) expect(logs).not.toContain(secret);
  });

  it('write one line per answered request at info: method, path, status and time', async () => {
    const stream = new PassThrough();
    const chunks: string[] = [];
    stream.on('data', (chunk) => chunks.push(String(chunk)));
    t = await buildTestApp({ env: { LOG_LEVEL: 'info' }, logStream: stream });
    await t.request({ method: 'GET', url: '/api/plans' });
    await t.request({ method: 'GET', url: '/api/nothing-here' });
    const lines = chunks
      .join('')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    const requests = lines.filter((line) => line.msg === 'request completed');
    expect(requests.map((r) => [r.method, r.url, r.statusCode])).toEqual([
      ['GET', '/api/plans', 200],
      ['GET', '/api/nothing-here', 404],
    ]);
    for (const r of requests) expect(r.responseTime).toBeGreaterThanOrEqual(0);
    expect(lines.some((line) => line.msg === 'incoming request')).toBe(false); // that one is at debug
  });
});
