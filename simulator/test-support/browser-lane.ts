/**
 * Vitest global set-up of the browser lane: one Chromium (Debian's, driven by playwright-core) for every
 * test file of the lane, which connects to it (`inject('chromiumEndpoint')`) and opens contexts of its
 * own, instead of launching a browser per file. Nothing is launched where the browser tests are skipped.
 */
import { chromium } from 'playwright-core';
import type { TestProject } from 'vitest/node';
import { CHROMIUM, CHROMIUM_ARGS, skipBrowser } from './chromium.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The lane's Chromium, for `chromium.connect`; empty where the browser tests are skipped. */
    chromiumEndpoint: string;
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  if (skipBrowser) {
    project.provide('chromiumEndpoint', '');
    return async () => {};
  }
  const server = await chromium.launchServer({
    executablePath: CHROMIUM,
    args: CHROMIUM_ARGS,
    headless: true,
  });
  project.provide('chromiumEndpoint', server.wsEndpoint());
  return () => server.close();
}
