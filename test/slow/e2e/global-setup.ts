// Says plainly when the browser tests cannot run; with REQUIRE_E2E=1 (CI) that is a failure.
import { CHROMIUM_PATH, hasBrowser } from './harness.js';

export default function setup(): void {
  if (hasBrowser) return;
  const message =
    `Browser tests skipped: no Chromium at ${CHROMIUM_PATH}. ` +
    'Install one with `sudo apt-get install -y chromium` (or set CHROMIUM_PATH) to run them.';
  if (process.env.REQUIRE_E2E === '1') throw new Error(`REQUIRE_E2E=1 but ${message}`);
  process.stdout.write(`\n${message}\n\n`);
}
