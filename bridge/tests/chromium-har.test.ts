/**
 * HAR files between ofkit and a real browser, both ways: Chromium (Debian's, driven by playwright-core
 * with `recordHar`) records a page of the simulator's origin calling the API through fetch, and `ofkit
 * drift` reads that recording; and Playwright's HAR router serves a page from a recording `ofkit
 * record` wrote, after the implementation is gone.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Browser, chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { drift } from '../../scripts/cli/drift.js';
import { startSimulator } from '../../simulator/src/start-simulator.js';
import { skipBrowser as skip } from '../../simulator/test-support/chromium.js';
import { loadBridgeDocument } from '../src/document/bridge-document.js';
import { checkRecordings } from '../src/recording/check-recordings.js';
import { startRecorder } from '../src/recording/recorder.js';

let folder: string;
let browser: Browser;

beforeAll(async () => {
  if (skip) return;
  folder = await mkdtemp(join(tmpdir(), 'ofkit-chromium-'));
  // The browser lane's Chromium (simulator/test-support/browser-lane.ts).
  browser = await chromium.connect(inject('chromiumEndpoint'));
}, 60_000);

afterAll(async () => {
  if (skip) return;
  await browser.close();
  await rm(folder, { recursive: true, force: true });
});

/** What the page runs: a client of the API in the browser, with the simulator's first key. */
async function pageSession(basic: string): Promise<number[]> {
  const call = async (method: string, path: string, body?: unknown) => {
    const answer = await fetch(path, {
      method,
      headers: { authorization: basic, ...(body !== undefined && { 'content-type': 'application/json' }) },
      ...(body !== undefined && { body: JSON.stringify(body) }),
    });
    return { status: answer.status, body: await answer.json().catch(() => undefined) };
  };
  const link = await call('POST', '/api/links/', {
    institution: 'ofbank_br_retail',
    username: '76109277673',
    password: 'page-pass',
  });
  const id = (link.body as { id: string }).id;
  const statuses = [link.status];
  statuses.push((await call('POST', '/api/accounts/', { link: id })).status);
  statuses.push((await call('GET', `/api/accounts/?link=${id}`)).status);
  statuses.push((await call('GET', `/api/links/${id}/`)).status);
  statuses.push((await call('GET', '/api/institutions/?page_size=5')).status);
  return statuses;
}

describe.skipIf(skip)('HAR files and Chromium (skipped outside CI when /usr/bin/chromium is missing)', () => {
  it('ofkit drift reads the HAR Chromium records while a page of the same origin calls the API', {
    timeout: 60_000,
  }, async () => {
    const simulator = await startSimulator({ seed: 'chromium', tickMs: 0 });
    const har = join(folder, 'chromium.har');
    try {
      const context = await browser.newContext({ recordHar: { path: har } });
      const page = await context.newPage();
      await page.goto(`${simulator.url}/_ofkit/ui/`);
      const key = simulator.keys[0]!;
      const basic = `Basic ${Buffer.from(`${key.secretId}:${key.secretPassword}`).toString('base64')}`;
      expect(await page.evaluate(pageSession, basic)).toEqual([201, 201, 200, 200, 200]);
      await context.close();
    } finally {
      await simulator.close();
    }
    const report = await checkRecordings({
      document: loadBridgeDocument(),
      files: [har],
      keepPersonal: false,
      allowances: [],
    });
    expect(report.recordings[0]?.creator).toMatch(/playwright/i);
    expect(report.checked).toBeGreaterThanOrEqual(5);
    expect(report.operations.map((o) => o.operation)).toEqual(
      expect.arrayContaining([
        'registerLink',
        'retrieveAccounts',
        'listAccounts',
        'getLink',
        'listInstitutions',
      ]),
    );
    expect(report.drift).toEqual([]);
    const lines: string[] = [];
    expect(await drift([har], (line) => lines.push(line))).toBe(0);
    expect(lines.join('\n')).toContain('no drift');
  });

  it("Playwright's HAR router serves a page from ofkit record's recording once the API is gone", {
    timeout: 60_000,
  }, async () => {
    const simulator = await startSimulator({ seed: 'chromium', tickMs: 0 });
    const har = join(folder, 'ofkit.har');
    const recorder = await startRecorder({ upstream: simulator.url, harPath: har, env: {} });
    const institutions = `${simulator.url}/api/institutions/?page_size=2`;
    const key = simulator.keys[0]!;
    const basic = `Basic ${Buffer.from(`${key.secretId}:${key.secretPassword}`).toString('base64')}`;
    const direct = await (await fetch(institutions, { headers: { authorization: basic } })).json();
    await fetch(`${recorder.url}/api/institutions/?page_size=2`, { headers: { authorization: basic } }).then(
      (r) => r.text(),
    );
    await recorder.close();
    await simulator.close();
    const context = await browser.newContext();
    await context.routeFromHAR(har, { notFound: 'abort' });
    const page = await context.newPage();
    const answer = await page.goto(institutions);
    expect(answer?.status()).toBe(200);
    expect(JSON.parse(await answer!.text())).toEqual(direct);
    await context.close();
  });
});
