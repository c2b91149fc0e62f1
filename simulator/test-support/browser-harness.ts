/**
 * The dashboard's browser tests and screenshots: the simulator served over HTTP on 127.0.0.1 (port 0)
 * with every API and control API response checked against its document, and Debian's Chromium driven
 * by playwright-core with a fresh profile (never `npx playwright install`).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';
import { basicAuthorization } from '../../openapi/config/api-keys.js';
import type { Simulator } from '../src/simulator.js';
import { startSimulator } from '../src/start-simulator.js';
import { CHROMIUM, CHROMIUM_ARGS } from './chromium.js';
import { contractCheckedExchange, FIXED_NOW, TEST_KEYS } from './contract-checked-simulator.js';

export { CHROMIUM, CHROMIUM_ARGS, skipBrowser } from './chromium.js';

export interface ServedSimulator {
  url: string;
  simulator: Simulator;
  /** Contract violations of the responses the browser and the test got. */
  violations: string[];
  /** A call as a client makes it, with tenant-a's key. */
  api(method: string, path: string, body?: unknown): Promise<{ status: number; body: unknown }>;
  close(): Promise<void>;
}

const KEY = TEST_KEYS[0]!;
export const BASIC = basicAuthorization(KEY.secretId, KEY.secretPassword);

export async function serveSimulator(seed = 'dashboard-test'): Promise<ServedSimulator> {
  const violations: string[] = [];
  const started = await startSimulator({
    seed,
    environment: 'production',
    keys: TEST_KEYS,
    realTime: () => FIXED_NOW,
    tickMs: 0,
    onExchange: contractCheckedExchange(violations),
  });
  const { url, simulator } = started;
  return {
    url,
    simulator,
    violations,
    async api(method, path, body) {
      const headers: Record<string, string> = { authorization: BASIC };
      if (body !== undefined) headers['content-type'] = 'application/json';
      const response = await fetch(`${url}${path}`, {
        method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await response.text();
      return { status: response.status, body: text ? JSON.parse(text) : undefined };
    },
    close: () => started.close(),
  };
}

export interface DashboardBrowser {
  context: BrowserContext;
  /** A page that records console errors and uncaught exceptions into `problems`. */
  open(url: string, viewport?: { width: number; height: number }): Promise<Page>;
  problems: string[];
  /** Closes the pages opened so far (before their simulator goes away) and returns their problems. */
  closePages(): Promise<string[]>;
  close(): Promise<void>;
}

const VIEWPORT = { width: 1280, height: 800 };

/**
 * A fresh browser context: on the running Chromium at `endpoint` (the browser lane's, browser-lane.ts),
 * else on a Chromium launched for it with a fresh profile (the screenshots script).
 */
export async function launchBrowser(endpoint?: string): Promise<DashboardBrowser> {
  let context: BrowserContext;
  let release: () => Promise<void>;
  if (endpoint) {
    const browser: Browser = await chromium.connect(endpoint);
    context = await browser.newContext({ viewport: VIEWPORT });
    release = () => browser.close();
  } else {
    const profile = await mkdtemp(join(tmpdir(), 'ofkit-dashboard-'));
    context = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM,
      headless: true,
      args: CHROMIUM_ARGS,
      viewport: VIEWPORT,
    });
    release = () => rm(profile, { recursive: true, force: true });
  }
  const problems: string[] = [];
  const pages: Page[] = [];
  return {
    context,
    problems,
    async open(url, viewport) {
      const page = await context.newPage();
      pages.push(page);
      if (viewport) await page.setViewportSize(viewport);
      page.on('console', (message) => {
        if (message.type() === 'error') problems.push(`console: ${message.text()} (${page.url()})`);
      });
      page.on('pageerror', (error) => problems.push(`page error: ${error.message} (${page.url()})`));
      await page.goto(url);
      return page;
    },
    async closePages() {
      for (const page of pages.splice(0)) await page.close();
      return problems.splice(0);
    },
    async close() {
      await context.close();
      await release();
    },
  };
}
