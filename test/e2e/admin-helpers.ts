// Shared steps of the admin browser tests: signing in through the real form, checking axe and
// the console, and a real PNG made on the spot.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { deflateSync } from 'node:zlib';
import { expect } from 'vitest';
import type { Page } from 'playwright-core';
import { ADMIN_PASSWORD } from '../helpers.js';

export { ADMIN_PASSWORD };

/** Signs in through the /admin form and waits for the dashboard. */
export async function loginThroughForm(page: Page, baseUrl: string, username = 'admin', password = ADMIN_PASSWORD): Promise<void> {
  await page.goto(`${baseUrl}/admin`);
  await page.getByLabel('Username').fill(username);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Login', exact: true }).click();
  await page.waitForURL(`${baseUrl}/admin/dashboard`);
  await page.getByRole('heading', { level: 1, name: 'Dashboard' }).waitFor();
}

/** Follows a sidebar link, as a user would, and waits for the page's heading. */
export async function openAdminPage(page: Page, link: string, heading = link): Promise<void> {
  await page.getByRole('navigation', { name: 'Admin navigation' }).getByRole('link', { name: link, exact: true }).click();
  await page.getByRole('heading', { level: 1, name: heading, exact: true }).waitFor();
}

const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/**
 * axe-core's serious and critical violations. axe is evaluated through the DevTools protocol
 * rather than added as an inline <script>: the site's CSP (script-src 'self') rightly refuses
 * inline scripts, and the test should not weaken the page it checks.
 */
export async function seriousAxeViolations(page: Page): Promise<{ id: string; impact: string; nodes: string[] }[]> {
  await page.evaluate(axeSource);
  return page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run(context: Document): Promise<{ violations: any[] }> } }).axe;
    const result = await axe.run(document);
    return result.violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => ({ id: v.id, impact: v.impact, nodes: v.nodes.map((n: { target: string[] }) => n.target.join(' ')) }));
  });
}

export async function expectNoSeriousAxeViolations(page: Page): Promise<void> {
  expect(await seriousAxeViolations(page)).toEqual([]);
}

/**
 * Console errors, minus the browser's own line for an answer the test made happen on purpose
 * (a wrong password is a 401, an expired session too): the page itself logged nothing.
 */
export function unexpectedErrors(errors: string[], expectedStatuses: number[] = []): string[] {
  return errors.filter((text) => {
    const status = /the server responded with a status of (\d+)/.exec(text)?.[1];
    return !(status && expectedStatuses.includes(Number(status)));
  });
}

/** A real PNG: a solid `width` x `height` picture of one colour (8-bit RGB). */
export function makePng(width: number, height: number, [r, g, b]: [number, number, number]): Buffer {
  const crcTable = Array.from({ length: 256 }, (_, n) => {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    return c >>> 0;
  });
  const crc32 = (data: Buffer) => {
    let c = 0xffffffff;
    for (const byte of data) c = crcTable[(c ^ byte) & 0xff] ^ (c >>> 8);
    return (c ^ 0xffffffff) >>> 0;
  };
  const chunk = (type: string, data: Buffer) => {
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([length, body, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8; // bit depth
  header[9] = 2; // colour type: RGB
  const row = Buffer.concat([Buffer.from([0]), Buffer.from(Array.from({ length: width }, () => [r, g, b]).flat())]);
  const pixels = Buffer.concat(Array.from({ length: height }, () => row));
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(pixels)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}
