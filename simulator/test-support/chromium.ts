/**
 * Debian's Chromium as the browser tests drive it (playwright-core, never `npx playwright install`): its
 * path and the flags of a headless run on a machine without a network, and whether the tests run.
 */
import { existsSync } from 'node:fs';

export const CHROMIUM = '/usr/bin/chromium';
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** Outside CI the browser tests are skipped only when Chromium is missing; in CI they always run. */
export const skipBrowser = !process.env.CI && !existsSync(CHROMIUM);
