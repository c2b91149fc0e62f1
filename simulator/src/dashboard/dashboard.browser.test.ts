/**
 * The dashboard in a real browser: Debian's Chromium driven by playwright-core, the simulator served on
 * 127.0.0.1 (port 0) with every response checked against its document. Outside CI the suite is skipped
 * only when Chromium is missing (and says so); in CI it always runs.
 */
import { readFileSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Locator } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, inject, it } from 'vitest';
import {
  CHROMIUM,
  type DashboardBrowser,
  launchBrowser,
  type ServedSimulator,
  serveSimulator,
  skipBrowser,
} from '../../test-support/browser-harness.js';
import { TEST_KEYS } from '../../test-support/contract-checked-simulator.js';
import { startReceiver, type TestReceiver } from '../../test-support/test-receiver.js';

const title = skipBrowser
  ? `dashboard in Chromium (skipped: no Chromium at ${CHROMIUM}; apt-get install chromium)`
  : 'dashboard in Chromium';
if (skipBrowser) console.warn(`${title}`);

const WAIT = { timeout: 15_000 };
const HOOK_MS = 60_000;

describe.skipIf(skipBrowser)(title, { timeout: 90_000 }, () => {
  let browser: DashboardBrowser;
  let served: ServedSimulator;
  let receiver: TestReceiver | undefined;

  // Hooks start Chromium and a simulator: generous limits for a loaded machine.
  beforeAll(async () => {
    browser = await launchBrowser(inject('chromiumEndpoint'));
  }, HOOK_MS);
  afterAll(async () => {
    await browser?.close();
  }, HOOK_MS);
  beforeEach(async () => {
    served = await serveSimulator();
  }, HOOK_MS);
  afterEach(async () => {
    // No console error or uncaught exception on any page, and no response outside the documents.
    const problems = await browser.closePages();
    await served.close();
    expect(problems).toEqual([]);
    expect(served.violations).toEqual([]);
    await receiver?.close();
    receiver = undefined;
  }, HOOK_MS);

  /** Opens the dashboard and types tenant-a's key (only the published default keys are offered). */
  async function openAsTenantA() {
    const page = await browser.open(`${served.url}/_ofkit/ui/`);
    await page.getByLabel('Secret id').fill(TEST_KEYS[0]!.secretId);
    await page.getByLabel('Secret password').fill(TEST_KEYS[0]!.secretPassword);
    await page.getByRole('button', { name: 'Use this key' }).click();
    await page.getByRole('heading', { name: 'Links' }).waitFor(WAIT);
    return page;
  }

  it('a link registered through the API appears in the list without a reload', async () => {
    const page = await openAsTenantA();
    await page.getByText('No link yet').waitFor(WAIT);
    const created = await served.api('POST', '/api/links/', {
      institution: 'ofbank_br_retail',
      username: '76109277673',
      password: 'secret',
    });
    expect(created.status).toBe(201);
    const id = (created.body as { id: string }).id;
    await page.getByRole('link', { name: id }).waitFor(WAIT);
    // The key never goes into a URL; it lives in the tab's session storage only.
    expect(page.url()).not.toContain('secret-a');
    expect(await page.evaluate('localStorage.length')).toBe(0);
  });

  it('WEBHOOK-RETRY: advancing the clock shows the retry attempts of a webhook the receiver refuses', async () => {
    receiver = await startReceiver(() => 500);
    await served.api('PUT', '/_ofkit/webhooks/', { url: receiver.url, retry_interval_seconds: 60 });
    await served.api('POST', '/api/links/', {
      institution: 'ofbank_br_retail',
      username: '76109277673',
      password: 'secret',
      access_mode: 'recurrent',
    });
    await served.simulator.webhooks.idle();
    const page = await openAsTenantA();
    await page.getByRole('link', { name: 'Events' }).click();
    const events = page.locator('li.event');
    await events.first().waitFor(WAIT);
    const eventCount = await events.count();
    expect(eventCount).toBeGreaterThan(0);
    await expect.poll(() => page.locator('li.attempt.failed').count(), WAIT).toBe(eventCount);
    await expect.poll(() => page.getByText('scheduled on the clock').count(), WAIT).toBe(eventCount);

    await page.getByRole('link', { name: 'Clock' }).click();
    await page.getByRole('button', { name: '+1 min' }).click();
    await page.getByText(`The last move ran ${eventCount} jobs`).waitFor(WAIT);
    expect(await page.getByRole('cell', { name: 'webhook retry' }).count()).toBeGreaterThanOrEqual(
      eventCount,
    );

    await page.getByRole('link', { name: 'Events' }).click();
    await expect.poll(() => page.locator('li.attempt.failed').count(), WAIT).toBe(2 * eventCount);
    expect(await page.locator('li.attempt.failed').first().textContent()).toContain('HTTP 500');
    expect(receiver.received.length).toBe(2 * eventCount);
  });

  it('ERR-500-408: a fault armed in the dashboard answers the next request of its operation', async () => {
    const page = await openAsTenantA();
    await page.getByRole('link', { name: 'Scenarios & faults' }).click();
    const form = page.getByRole('form', { name: 'Arm a fault' });
    // The 147 operations of the document, searched by id, method or path.
    await form.getByText('147 of 147 operations').waitFor(WAIT);
    await form.getByLabel('Find an operation').fill('list /api/institutions/');
    await form.getByText('1 of 147 operations').waitFor(WAIT);
    await form.getByLabel('Operation', { exact: true }).selectOption('listInstitutions');
    // The statuses the operation documents that a fault gives, 500 first and chosen.
    const answers = form.getByLabel('Answer');
    expect(
      await answers
        .locator('option')
        .evaluateAll((options) => options.map((o) => (o as unknown as { value: string }).value)),
    ).toEqual(['500', '408', '400']);
    expect(await answers.inputValue()).toBe('500');
    await form.getByRole('button', { name: 'Arm the fault' }).click();
    await page.getByRole('cell', { name: 'listInstitutions' }).waitFor(WAIT);

    const answered = await served.api('GET', '/api/institutions/');
    expect(answered.status).toBe(500);
    expect((answered.body as { message: string }[])[0]?.message).toContain(
      'Injected 500 internal_server_error for listInstitutions',
    );
    await page.getByText('No fault armed.').waitFor(WAIT);
    expect((await served.api('GET', '/api/institutions/')).status).toBe(200);
  });

  it('LINK-MFA-428: a link registered in the form resumes with its token; its sandbox controls; readable selected tabs', async () => {
    const page = await openAsTenantA();
    const form = page.getByRole('form', { name: 'Register a link' });
    await form.getByLabel('CPF (username)').fill('mfa76109277673');
    await form.getByLabel('Senha (password)').fill('secret');
    await form.getByLabel('Access mode').selectOption('recurrent');
    await form.getByRole('button', { name: 'Register the link' }).click();
    const resume = page.getByRole('form', { name: 'Resume with the token' });
    await resume.getByLabel('Token').fill('123456');
    await resume.getByRole('button', { name: 'Resume the registration' }).click();
    // Chromium logs every refused fetch as a console error: this 428 is the one the test asked for.
    expectLogged(browser.problems, 'status of 428');
    await page.getByText('Registered').getByRole('link').click();
    await page.getByRole('heading', { name: 'Sandbox' }).waitFor(WAIT);

    const fire = page.getByRole('form', { name: 'Fire an event' });
    await fire.getByLabel('Event of the catalogue').selectOption('link_invalid_credentials');
    await fire.getByRole('button', { name: 'Fire the event' }).click();
    await page.getByText('Sent LINK invalid_credentials.').waitFor(WAIT);
    await page.locator('.facts .badge-invalid').waitFor(WAIT);

    // The selected record tab and the current view: their text against their background, hovered too.
    const tab = page.getByRole('button', { name: /^accounts/ });
    await tab.click();
    await tab.hover();
    expect(await contrastOf(tab)).toBeGreaterThanOrEqual(4.5);
    const current = page.getByRole('link', { name: 'Links', exact: true });
    expect(await contrastOf(current)).toBeGreaterThanOrEqual(4.5);
    await current.hover();
    expect(await contrastOf(current)).toBeGreaterThanOrEqual(4.5);
  });

  it('ERR-500-408: with the dashboard open on a link, the faults armed for the client still reach it', async () => {
    const created = await served.api('POST', '/api/links/', {
      institution: 'ofbank_br_retail',
      username: '76109277673',
      password: 'secret',
    });
    const id = (created.body as { id: string }).id;
    await served.api('POST', '/api/accounts/', { link: id });
    for (const operation_id of ['listAccounts', 'getLink', 'listLinks'])
      await served.api('POST', '/_ofkit/faults/', { operation_id, status: 500, count: 2 });
    const page = await openAsTenantA();
    await page.getByRole('link', { name: id }).click();
    // Its accounts tab is there (the count read took no fault), and its table shows them.
    await page.getByRole('button', { name: /^accounts/ }).click();
    await page.getByText('accounts of the link').waitFor(WAIT);
    await page.getByRole('link', { name: 'Scenarios & faults' }).click();
    await page.getByRole('cell', { name: 'listAccounts' }).waitFor(WAIT);
    const statuses = [];
    for (const path of [`/api/accounts/?link=${id}`, `/api/links/${id}/`, '/api/links/'])
      for (let i = 0; i < 3; i++) statuses.push((await served.api('GET', path)).status);
    expect(statuses).toEqual([500, 500, 200, 500, 500, 200, 500, 500, 200]);
  });

  it('every view opens without a console error, at 1280x800 and on a narrow window', async () => {
    const created = await served.api('POST', '/api/links/', {
      institution: 'ofbank_br_retail',
      username: '76109277673',
      password: 'secret',
      access_mode: 'recurrent',
    });
    const id = (created.body as { id: string }).id;
    const page = await openAsTenantA();
    const views: [string, string][] = [
      ['Tenant', 'Webhook receiver'],
      ['Links', 'Links'],
      ['Clock', 'Clock'],
      ['Events', 'Events and deliveries'],
      ['Scenarios & faults', 'Scenarios and faults'],
      ['Requests', 'Requests'],
      ['Judge', 'Judge'],
      ['Payments', 'Payments'],
    ];
    for (const width of [1280, 420]) {
      await page.setViewportSize({ width, height: 800 });
      for (const [link, heading] of views) {
        await page.getByRole('link', { name: link, exact: true }).click();
        await page.getByRole('heading', { name: heading, exact: true }).waitFor(WAIT);
      }
    }
    await page.getByRole('link', { name: 'Links', exact: true }).click();
    await page.getByRole('link', { name: id }).click();
    await page.getByRole('button', { name: /^accounts/ }).click();
    await page.getByText('accounts of the link').waitFor(WAIT);
    // Keyboard: the first Tab reaches the skip link; a view opens with Enter on its link.
    await page.reload();
    await page.getByRole('heading', { name: 'Records' }).waitFor(WAIT);
    await page.keyboard.press('Tab');
    expect(await page.evaluate('document.activeElement.textContent')).toBe('Skip to the view');
    await page.getByRole('link', { name: 'Clock', exact: true }).focus();
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'Clock', exact: true }).waitFor(WAIT);
  });

  it('requests: Markdown rendered, paths broken only at separators, one export line; snapshot out and in', async () => {
    const created = await served.api('POST', '/api/links/', {
      institution: 'ofbank_br_retail',
      username: '76109277673',
      password: 'secret',
    });
    const id = (created.body as { id: string }).id;
    await served.api(
      'GET',
      `/api/transactions/?link=${id}&value_date__range=2026-01-01,2026-10-31&page_size=1000`,
    );
    await served.api('POST', '/api/links/', { institution: 'ofbank_br_retail', password: 'secret' });
    const page = await openAsTenantA();
    await page.setViewportSize({ width: 420, height: 800 });
    await page.getByRole('link', { name: 'Requests', exact: true }).click();
    const request = page.locator('td code.path').filter({ hasText: /^GET \/api\/transactions\/\?/ });
    await request.waitFor(WAIT);
    const breaks = await breaksOf(request);
    expect(breaks.length).toBeGreaterThan(0);
    expect(breaks.filter((before) => !['/', '?', '&', ' '].includes(before))).toEqual([]);
    const preamble = await page.locator('.preamble code').textContent();
    expect(preamble).toContain("export OFKIT_KEY='tenant-a' OFKIT_SECRET='secret-a' OFKIT_BODY_PASSWORD=");
    expect(await page.locator('main').innerText()).not.toContain('***');
    await page.getByText('is required').first().waitFor(WAIT);
    for (const view of ['Requests', 'Judge', 'Scenarios & faults']) {
      await page.getByRole('link', { name: view, exact: true }).click();
      await page.locator('main code').first().waitFor(WAIT);
      expect(await page.locator('main').innerText(), view).not.toContain('`');
    }

    await page.getByRole('link', { name: 'Tenant', exact: true }).click();
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Export the snapshot' }).click(),
    ]);
    // The lane's browser runs in another process: the download is saved here.
    const file = join(await mkdtemp(join(tmpdir(), 'ofkit-download-')), 'snapshot.json');
    await download.saveAs(file);
    expect(JSON.parse(readFileSync(file, 'utf8')).format).toBe('ofkit-snapshot/3');
    await served.api('POST', '/_ofkit/reset/');
    await page.getByLabel('Import a snapshot').setInputFiles(file);
    await page.getByText(/^Imported /).waitFor(WAIT);
    expect((await served.api('GET', `/api/links/${id}/`)).status).toBe(200);
  });
});

/** Takes the one problem holding `text` off the list (it must be there): a refusal the test caused. */
function expectLogged(problems: string[], text: string): void {
  const index = problems.findIndex((problem) => problem.includes(text));
  expect(index, `a console line with "${text}" in ${JSON.stringify(problems)}`).toBeGreaterThanOrEqual(0);
  problems.splice(index, 1);
}

/** The browser globals the page functions below use (the project's TypeScript has no DOM library). */
interface PageText {
  textContent: string | null;
}
interface PageGlobals {
  getComputedStyle(node: unknown): { color: string; backgroundColor: string };
  NodeFilter: { SHOW_TEXT: number };
  document: {
    createTreeWalker(root: unknown, show: number): { nextNode(): PageText | null };
    createRange(): {
      setStart(node: PageText, offset: number): void;
      setEnd(node: PageText, offset: number): void;
      getClientRects(): ArrayLike<{ top: number }>;
    };
  };
}

/** WCAG contrast of an element's text colour against its background colour (both opaque here). */
function contrastOf(element: Locator): Promise<number> {
  return element.evaluate((node) => {
    const style = (globalThis as unknown as PageGlobals).getComputedStyle(node);
    const luminance = (css: string) => {
      const [r, g, b] = (css.match(/[\d.]+/g) ?? [])
        .slice(0, 3)
        .map(Number)
        .map((v) => v / 255) as [number, number, number];
      const linear = (c: number) => (c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4);
      return 0.2126 * linear(r) + 0.7152 * linear(g) + 0.0722 * linear(b);
    };
    const [light, dark] = [luminance(style.color), luminance(style.backgroundColor)].sort(
      (a, b) => b - a,
    ) as [number, number];
    return (light + 0.05) / (dark + 0.05);
  });
}

/** The character before each line break of an element's text, as laid out. */
function breaksOf(element: Locator): Promise<string[]> {
  return element.evaluate((node) => {
    const { document, NodeFilter } = globalThis as unknown as PageGlobals;
    const chars: { char: string; top: number }[] = [];
    const walker = document.createTreeWalker(node, NodeFilter.SHOW_TEXT);
    for (let text = walker.nextNode(); text; text = walker.nextNode()) {
      for (let i = 0; i < (text.textContent ?? '').length; i += 1) {
        const range = document.createRange();
        range.setStart(text, i);
        range.setEnd(text, i + 1);
        const rect = range.getClientRects()[0];
        if (rect) chars.push({ char: (text.textContent ?? '')[i] as string, top: Math.round(rect.top) });
      }
    }
    const breaks: string[] = [];
    for (let i = 1; i < chars.length; i += 1)
      if (chars[i]!.top > chars[i - 1]!.top) breaks.push(chars[i - 1]!.char);
    return breaks;
  });
}
