/**
 * The dashboard's browser tests and screenshots: the simulator served over HTTP on 127.0.0.1 (port 0)
 * with every API and control API response checked against its document, and Debian's Chromium driven
 * by playwright-core with a fresh profile (never `npx playwright install`).
 */
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type BrowserContext, chromium, type Page } from 'playwright-core';
import { basicAuthorization } from '../../openapi/config/api-keys.js';
import type { Simulator } from '../src/simulator.js';
import { startSimulator } from '../src/start-simulator.js';
import { contractCheckedExchange, FIXED_NOW, TEST_KEYS } from './contract-checked-simulator.js';

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

export async function launchBrowser(): Promise<DashboardBrowser> {
  const profile = await mkdtemp(join(tmpdir(), 'ofkit-dashboard-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: CHROMIUM_ARGS,
    viewport: { width: 1280, height: 800 },
  });
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
      await rm(profile, { recursive: true, force: true });
    },
  };
}
