/**
 * The dashboard in a real browser: Debian's Chromium driven by playwright-core, the simulator served on
 * 127.0.0.1 (port 0) with every response checked against its document. Outside CI the suite is skipped
 * only when Chromium is missing (and says so); in CI it always runs.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  CHROMIUM,
  type DashboardBrowser,
  launchBrowser,
  type ServedSimulator,
  serveSimulator,
  skipBrowser,
} from '../../test-support/browser-harness.js';
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
    browser = await launchBrowser();
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

  /** Opens the dashboard and picks tenant-a among the keys offered on loopback. */
  async function openAsTenantA() {
    const page = await browser.open(`${served.url}/_ofkit/ui/`);
    await page.getByRole('button', { name: 'Use tenant-a' }).click();
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
    await form.getByLabel('operation_id').fill('listInstitutions');
    await form.getByLabel('status').selectOption('500');
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
});
