/**
 * Test support: a client session that passes through the proxy the situations the server rules show
 * in traffic (a login check, mistakes a client makes, pages and filters, refreshes, deletions, two
 * keys, MFA, fiscal and employment retrievals, new credentials after a failed refresh). The payments
 * part is in sample-payments.ts. It asserts nothing: the recording is what the checks read.
 */
import { runSamplePayments } from './sample-payments.js';
import type { Answer, Key, TrafficClient } from './traffic-client.js';

export const BANK = { institution: 'ofbank_br_retail', username: '76109277673', password: 'secret' };
const FISCAL = { institution: 'ofsat_mx_fiscal', username: 'GOMA850315AB1', password: 'ciec' };
const METRICS = { institution: 'ofimss_mx_employment', username: 'GOMA850315HDFNRN09' };
const MFA = { institution: 'tokenbank_br_business', username: 'mfa12345678000190', password: 'secret' };
export const LAST_MONTH = { date_from: '2026-10-01', date_to: '2026-10-31' };
/** The traffic's clock: every tenant starts at this instant (following real time from there). */
export const TRAFFIC_START = '2026-11-02T12:00:00.000Z';

type Call = TrafficClient['call'];

const idOf = (answer: Answer): string => (typeof answer.body?.id === 'string' ? answer.body.id : '');
const results = (answer: Answer): Record<string, unknown>[] =>
  Array.isArray(answer.body?.results) ? answer.body.results : [];

async function register(call: Call, body: Record<string, unknown>, key?: Key): Promise<string> {
  return idOf(await call('POST', '/api/links/', { body, ...(key && { key }) }));
}

/** Mistakes a client makes, answered with errors the rules shape. */
async function mistakes(call: Call, key: Key): Promise<void> {
  await call('GET', '/api/');
  await call('GET', '/api/', { key: null });
  await call('GET', '/api/', {
    key: { secretId: key.secretId, secretPassword: `${key.secretPassword}-old` },
  });
  await call('POST', '/api/links/', { body: { username: BANK.username, password: BANK.password } });
  await call('PATCH', '/api/br/balances/', { body: {} });
  await call('GET', '/v1/api/links/');
  await call('GET', '/api/transactions/');
  await call('GET', '/api/links/6a3e2f1c-0b9d-4e8a-9c7b-5d4e3f2a1b0c/');
}

/** Pages, filters and a detail of the bank link's transactions and accounts. */
async function readBank(call: Call, link: string): Promise<Record<string, unknown>[]> {
  await call('POST', '/api/accounts/', { body: { link } });
  await call('POST', '/api/owners/', { body: { link } });
  await call('POST', '/api/transactions/', { body: { link, ...LAST_MONTH } });
  const accounts = results(await call('GET', `/api/accounts/?link=${link}`));
  if (accounts[0]) await call('GET', `/api/accounts/${accounts[0].id}/`);
  await call('GET', `/api/owners/?link=${link}`);
  const all = results(await call('GET', `/api/transactions/?link=${link}&page_size=1000`));
  if (all[0]) await call('GET', `/api/transactions/${all[0].id}/?link=${link}`);
  const first = await call('GET', `/api/transactions/?link=${link}&page_size=10`);
  if (typeof first.body?.next === 'string')
    await call('GET', new URL(first.body.next).pathname + new URL(first.body.next).search);
  await call('GET', `/api/transactions/?link=${link}&page_size=1.5`);
  await call('GET', `/api/transactions/?link=${link}&page_size=5000`);
  const days = [...new Set(all.map((t) => String(t.value_date)))].sort();
  if (all.length > 2) {
    await call('GET', `/api/transactions/?link=${link}&page_size=1000&id__in=${all[0]!.id},${all[1]!.id}`);
    await call('GET', `/api/transactions/?link=${link}&page_size=1000&amount__gt=${all[2]!.amount}`);
  }
  if (days.length > 2)
    await call(
      'GET',
      `/api/transactions/?link=${link}&page_size=1000&value_date__range=${days[0]},${days[1]}`,
    );
  return all;
}

/** LINK-REFRESH-202 and LINK-REFRESH-COOLDOWN, then deletions (DELETE-RATE-LIMIT, DATA-DELETE, the cascade). */
async function refreshAndDelete(
  call: Call,
  link: string,
  transactions: Record<string, unknown>[],
): Promise<void> {
  await call('POST', `/api/links/${link}/refresh/`, { body: { fetch_resources: ['ACCOUNTS'] } });
  await call('POST', `/api/links/${link}/refresh/`, { body: { fetch_resources: ['ACCOUNTS'] } });
  await call('GET', `/api/links/${link}/`);
  const doomed = transactions.slice(0, 6);
  for (const transaction of doomed) await call('DELETE', `/api/transactions/${transaction.id}/`);
  if (doomed[0]) await call('GET', `/api/transactions/${doomed[0].id}/?link=${link}`);
  await call('GET', `/api/transactions/?link=${link}&page_size=1000`);
  const account = (transactions.at(-1)?.account as { id?: string } | undefined)?.id;
  if (account) await call('DELETE', `/api/accounts/${account}/`);
  await call('GET', `/api/transactions/?link=${link}&page_size=1000`);
}

/** AUTH-TENANT: a second key reads its own links and asks for the first key's. */
async function secondKey(call: Call, other: Key, foreignLink: string): Promise<void> {
  await call('PUT', '/_ofkit/clock/', { body: { now: TRAFFIC_START, frozen: false }, key: other });
  await register(call, BANK, other);
  await call('GET', '/api/links/', { key: other });
  await call('GET', `/api/links/${foreignLink}/`, { key: other });
}

/** LINK-MFA-428, TOKEN-WIDGET, ERR-500-408, LINK-DELETE-SYNC and LINK-DELETE-ASYNC. */
async function linkLifecycle(call: Call, key: Key): Promise<void> {
  const paused = await call('POST', '/api/links/', { body: MFA });
  const item = Array.isArray(paused.body) ? paused.body[0] : undefined;
  if (item?.session)
    await call('PATCH', '/api/links/', { body: { session: item.session, link: item.link, token: '123456' } });
  await call('POST', '/api/token/', {
    body: { id: key.secretId, password: key.secretPassword, scopes: 'read_institutions,write_links' },
  });
  for (const status of [500, 408]) {
    await call('POST', '/_ofkit/faults/', { body: { operation_id: 'listConsents', status } });
    await call('GET', '/api/consents/');
  }
  const doomed = await register(call, BANK);
  await call('POST', '/api/accounts/', { body: { link: doomed } });
  await call('DELETE', `/api/links/${doomed}/`);
  await call('GET', `/api/accounts/?link=${doomed}`);
  await call('GET', `/api/links/${doomed}/`);
  const later = await register(call, BANK);
  await call('DELETE', `/api/links/${later}/`, { headers: { 'x-service-request-mode': 'async' } });
}

/** RANGE-365, INVOICE-CANCELLED, TAX-RETURNS-MIXED, TAX-RETENTIONS-500, EMPLOYMENT-METRICS-PREREQ. */
async function fiscalAndEmployment(call: Call): Promise<void> {
  const fiscal = await register(call, FISCAL);
  await call('POST', '/api/invoices/', {
    body: { link: fiscal, date_from: '2025-01-01', date_to: '2026-02-28', type: 'INFLOW' },
  });
  await call('POST', '/api/invoices/', { body: { link: fiscal, ...LAST_MONTH, type: 'INFLOW' } });
  await call('GET', `/api/invoices/?link=${fiscal}&page_size=1000`);
  await call('GET', `/api/invoices/?link=${fiscal}&page_size=1000&status=CANCELLED`);
  await call('POST', '/api/tax-returns/', {
    body: { link: fiscal, type: 'yearly', year_from: '2024', year_to: '2025' },
  });
  await call('POST', '/api/tax-retentions/', {
    body: { link: fiscal, date_from: '2024-11-01', date_to: '2026-10-31', type: 'OUTFLOW' },
  });
  const metrics = await register(call, METRICS);
  await call('POST', '/api/employment-metrics/', { body: { link: metrics } });
  await call('POST', '/api/employment-records/', { body: { link: metrics } });
  await call('POST', '/api/employment-metrics/', { body: { link: metrics } });
}

/** LINK-PUT-CREDENTIALS: a recurrent link whose daily refresh finds invalid credentials gets new ones. */
async function newCredentials(call: Call): Promise<void> {
  const link = await register(call, BANK);
  await call('PATCH', `/api/links/${link}/`, { body: { access_mode: 'recurrent' } });
  await call('POST', '/_ofkit/scenarios/', { body: { scenario: 'next_refresh_invalid_credentials', link } });
  await call('POST', '/_ofkit/clock/advance/', { body: { seconds: 86_400 } });
  await call('GET', `/api/links/${link}/`);
  await call('PUT', `/api/links/${link}/`, { body: { password: 'a-new-secret' } });
}

/** The whole session: `keys[0]` does most of it, `keys[1]` is the second tenant. */
export async function runSampleTraffic(client: TrafficClient, keys: readonly [Key, Key]): Promise<void> {
  const call = client.call;
  await call('PUT', '/_ofkit/clock/', { body: { now: TRAFFIC_START, frozen: false } });
  await mistakes(call, keys[0]);
  const bank = await register(call, BANK);
  const transactions = await readBank(call, bank);
  await refreshAndDelete(call, bank, transactions);
  await secondKey(call, keys[1], bank);
  await linkLifecycle(call, keys[0]);
  await fiscalAndEmployment(call);
  await runSamplePayments(call);
  await newCredentials(call);
}
