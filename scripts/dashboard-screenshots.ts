/**
 * `npx tsx scripts/dashboard-screenshots.ts`: regenerates the dashboard screenshots of the README
 * (`docs/dashboard-*.png`) with Debian's Chromium, against a simulator on 127.0.0.1 with a fixed clock
 * and seed, a few links, a webhook receiver that answers 500, an armed scenario and fault, and a payment
 * authorization.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join, resolve } from 'node:path';
import type { Page } from 'playwright-core';
import { BASIC, launchBrowser, serveSimulator } from '../simulator/test-support/browser-harness.js';
import { TEST_KEYS } from '../simulator/test-support/contract-checked-simulator.js';

const DOCS = resolve(import.meta.dirname, '../docs');
const AURORA = '375eff08-33be-4d41-8d24-13ab2c7e0632';
const HORIZONTE = '86a1e016-7c1e-47b9-9f22-6f939c3770ba';
const V2 = { 'x-service-api-resource-version': 'Payments-BR.V2' };

/** A receiver that answers every delivery with 500, so the events show retries. */
async function failingReceiver() {
  const server = createServer((request, response) => {
    request.resume();
    request.on('end', () => response.writeHead(500).end());
  });
  await new Promise<void>((ready) => server.listen(0, '127.0.0.1', ready));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`, server };
}

async function seed(api: Awaited<ReturnType<typeof serveSimulator>>['api'], receiverUrl: string) {
  await api('PUT', '/_ofkit/webhooks/', { url: receiverUrl, retry_interval_seconds: 60 });
  const link = (await api('POST', '/api/links/', {
    institution: 'ofbank_br_retail',
    username: '76109277673',
    password: 'secret',
    access_mode: 'recurrent',
  })) as { body: { id: string } };
  await api('POST', '/api/links/', {
    institution: 'ofsat_mx_fiscal',
    username: 'ABCD123456XY1',
    password: 'secret',
  });
  await api('POST', '/_ofkit/scenarios/', {
    scenario: 'next_refresh_invalid_credentials',
    link: link.body.id,
  });
  await api('POST', '/_ofkit/faults/', { operation_id: 'createPaymentsWidgetToken', status: 500, count: 2 });
  const customer = (await api('POST', '/payments/br/customers/', {
    identifier: '76109277673',
    name: 'Maria Souza',
    customer_type: 'INDIVIDUAL',
  })) as { body: { id: string } };
  const beneficiary = (await api('POST', '/payments/br/bank-accounts/', {
    type: 'BUSINESS',
    institution: HORIZONTE,
    agency: '0001',
    number: '200100-1',
    account_type: 'CHECKING',
    holder: { name: 'Padaria Pao Dourado Ltda', identifier: '11222333000181' },
  })) as { body: { id: string } };
  return { link: link.body.id, customer: customer.body.id, beneficiary: beneficiary.body.id };
}

async function shoot(page: Page, hash: string, name: string, ready: string) {
  await page.evaluate(`location.hash = ${JSON.stringify(hash)}`);
  await page.getByText(ready, { exact: false }).first().waitFor();
  await page.waitForTimeout(300);
  await page.screenshot({ path: join(DOCS, `dashboard-${name}.png`) });
  console.log(`docs/dashboard-${name}.png`);
}

async function main() {
  const served = await serveSimulator('dashboard-screenshots');
  const receiver = await failingReceiver();
  const browser = await launchBrowser();
  try {
    const ids = await seed(served.api, receiver.url);
    // Two payment authorizations (the V2 header is required): one the payer confirms, one awaiting.
    for (const confirm of [true, false]) {
      const created = await fetch(`${served.url}/payments/br/payment-authorizations/`, {
        method: 'POST',
        headers: { authorization: BASIC, 'content-type': 'application/json', ...V2 },
        body: JSON.stringify({
          customer: ids.customer,
          beneficiary: ids.beneficiary,
          institution: AURORA,
          description: 'Assinatura mensal',
          schedule: { frequency: 'MONTHLY', start_date: '2026-11-10', occurrences: 3, amount: '89.90' },
          callback_url: 'https://app.example.com.br/retorno',
        }),
      });
      const { payment_authorization_id: id } = (await created.json()) as { payment_authorization_id: string };
      if (confirm) await served.api('POST', `/_ofkit/payment-authorizations/${id}/confirm/`);
    }
    await served.simulator.webhooks.idle();
    await served.api('POST', '/_ofkit/clock/advance/', { seconds: 60 });
    await served.simulator.webhooks.idle();
    const page = await browser.open(`${served.url}/_ofkit/ui/`);
    // The test keys are not the published defaults: the page asks for one, as it asks a --keys tenant.
    await page.getByLabel('Secret id').waitFor();
    await page.screenshot({ path: join(DOCS, 'dashboard-tenant.png') });
    await page.getByLabel('Secret id').fill(TEST_KEYS[0]!.secretId);
    await page.getByLabel('Secret password').fill(TEST_KEYS[0]!.secretPassword);
    await page.getByRole('button', { name: 'Use this key' }).click();
    await shoot(page, '#/links', 'links', 'ofsat_mx_fiscal');
    await shoot(page, `#/links/${ids.link}`, 'link', 'accounts');
    await page.getByRole('button', { name: /^accounts/ }).click();
    await page.getByText('accounts of the link').waitFor();
    await page.screenshot({ path: join(DOCS, 'dashboard-link.png') });
    await shoot(page, '#/clock', 'clock', 'Next scheduled jobs');
    await page.getByRole('button', { name: 'To the next job' }).click();
    await page.getByText('The last move ran').waitFor();
    await page.screenshot({ path: join(DOCS, 'dashboard-clock.png') });
    await shoot(page, '#/events', 'events', 'scheduled on the clock');
    await shoot(page, '#/switches', 'switches', 'next_refresh_invalid_credentials');
    await shoot(page, '#/payments', 'payments', 'AWAITING_AUTHORIZATION');
    await page.setViewportSize({ width: 420, height: 800 });
    await shoot(page, '#/events', 'narrow', 'scheduled on the clock');
    if (browser.problems.length > 0) throw new Error(browser.problems.join('\n'));
    if (served.violations.length > 0) throw new Error(served.violations.join('\n'));
  } finally {
    await browser.close();
    await served.close();
    receiver.server.close();
  }
}

await main();
