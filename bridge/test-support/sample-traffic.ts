/**
 * Test support: a client session that passes through the proxy the situations the server rules show
 * in traffic, as scenes that each set up what they need (a login check and a client's mistakes, pages
 * and filters, refreshes, deletions, two keys, MFA, fiscal and employment retrievals, new credentials
 * after a failed refresh, payments). The whole session runs every scene; the break matrix runs the
 * scenes of the rule it breaks. It asserts nothing: the recording is what the checks read.
 */
import { PAYMENT_SCENES } from './sample-payments.js';
import type { Answer, Key, Scene, TrafficClient } from './traffic-client.js';

export const BANK = { institution: 'ofbank_br_retail', username: '76109277673', password: 'bank-pass-7391' };
const FISCAL = { institution: 'ofsat_mx_fiscal', username: 'GOMA850315AB1', password: 'ciec' };
const METRICS = { institution: 'ofimss_mx_employment', username: 'GOMA850315HDFNRN09' };
const MFA = {
  institution: 'tokenbank_br_business',
  username: 'mfa12345678000190',
  password: 'token-bank-pass',
};
export const LAST_MONTH = { date_from: '2026-10-01', date_to: '2026-10-31' };
/** The traffic's clock: every tenant starts at this instant (following real time from there). */
export const TRAFFIC_START = '2026-11-02T12:00:00.000Z';

type Call = TrafficClient['call'];
const idOf = (answer: Answer): string => (typeof answer.body?.id === 'string' ? answer.body.id : '');
const results = (answer: Answer): Record<string, unknown>[] =>
  Array.isArray(answer.body?.results) ? answer.body.results : [];

export async function register(call: Call, body: Record<string, unknown> = BANK, key?: Key): Promise<string> {
  return idOf(await call('POST', '/api/links/', { body, ...(key && { key }) }));
}

/** A bank link with accounts, owners and last month's transactions retrieved; its transactions. */
async function bankLink(call: Call): Promise<{ link: string; transactions: Record<string, unknown>[] }> {
  const link = await register(call);
  await call('POST', '/api/accounts/', { body: { link } });
  await call('POST', '/api/transactions/', { body: { link, ...LAST_MONTH } });
  return { link, transactions: results(await call('GET', `/api/transactions/?link=${link}&page_size=1000`)) };
}

export const SCENES: Record<string, Scene> = {
  /** A login check, and mistakes a client makes, answered with errors the rules shape. */
  mistakes: {
    async run(call, [key]) {
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
    },
  },
  /** Pages, a detail, filters on the whole list just read (FILTER-*, PAGE-*, DATA-*). */
  reads: {
    async run(call) {
      const { link, transactions: all } = await bankLink(call);
      await call('POST', '/api/owners/', { body: { link } });
      const accounts = results(await call('GET', `/api/accounts/?link=${link}`));
      if (accounts[0]) await call('GET', `/api/accounts/${accounts[0].id}/`);
      await call('GET', `/api/owners/?link=${link}`);
      if (all[0]) await call('GET', `/api/transactions/${all[0].id}/?link=${link}`);
      const first = await call('GET', `/api/transactions/?link=${link}&page_size=10`);
      if (typeof first.body?.next === 'string')
        await call('GET', new URL(first.body.next).pathname + new URL(first.body.next).search);
      await call('GET', `/api/transactions/?link=${link}&page_size=1.5`);
      await call('GET', `/api/transactions/?link=${link}&page_size=5000`);
      const days = [...new Set(all.map((t) => String(t.value_date)))].sort();
      if (all.length > 2) {
        await call(
          'GET',
          `/api/transactions/?link=${link}&page_size=1000&id__in=${all[0]!.id},${all[1]!.id}`,
        );
        await call('GET', `/api/transactions/?link=${link}&page_size=1000&amount__gt=${all[2]!.amount}`);
      }
      if (days.length > 2)
        await call(
          'GET',
          `/api/transactions/?link=${link}&page_size=1000&value_date__range=${days[0]},${days[1]}`,
        );
    },
  },
  /** LINK-REFRESH-202 and LINK-REFRESH-COOLDOWN. */
  refreshes: {
    async run(call) {
      const link = await register(call);
      await call('POST', `/api/links/${link}/refresh/`, { body: { fetch_resources: ['ACCOUNTS'] } });
      await call('POST', `/api/links/${link}/refresh/`, { body: { fetch_resources: ['ACCOUNTS'] } });
      await call('GET', `/api/links/${link}/`);
    },
  },
  /** DELETE-RATE-LIMIT, DATA-DELETE, ERR-404 after a deletion, ACCOUNT-DELETE-CASCADE. */
  deletions: {
    async run(call) {
      const { link, transactions } = await bankLink(call);
      const doomed = transactions.slice(0, 6);
      for (const transaction of doomed) await call('DELETE', `/api/transactions/${transaction.id}/`);
      if (doomed[0]) await call('GET', `/api/transactions/${doomed[0].id}/?link=${link}`);
      await call('GET', `/api/transactions/?link=${link}&page_size=1000`);
      const account = (transactions.at(-1)?.account as { id?: string } | undefined)?.id;
      if (account) await call('DELETE', `/api/accounts/${account}/`);
      await call('GET', `/api/transactions/?link=${link}&page_size=1000`);
    },
  },
  /** AUTH-TENANT: a second key reads its own links and asks for the first key's. */
  tenants: {
    async run(call, [, other]) {
      const foreign = await register(call);
      await call('PUT', '/_ofkit/clock/', { body: { now: TRAFFIC_START, frozen: false }, key: other });
      await register(call, BANK, other);
      await call('GET', '/api/links/', { key: other });
      await call('GET', `/api/links/${foreign}/`, { key: other });
    },
  },
  /** LINK-MFA-428's shape, TOKEN-WIDGET, ERR-500-408 (injected faults). */
  sessions: {
    async run(call, [key]) {
      const paused = await call('POST', '/api/links/', { body: MFA });
      const item = Array.isArray(paused.body) ? paused.body[0] : undefined;
      if (item?.session)
        await call('PATCH', '/api/links/', {
          body: { session: item.session, link: item.link, token: '123456' },
        });
      await call('POST', '/api/token/', {
        body: { id: key.secretId, password: key.secretPassword, scopes: 'read_institutions,write_links' },
      });
      for (const status of [500, 408]) {
        await call('POST', '/_ofkit/faults/', { body: { operation_id: 'listConsents', status } });
        await call('GET', '/api/consents/');
      }
    },
  },
  /** LINK-DELETE-SYNC and LINK-DELETE-ASYNC. */
  linkDeletions: {
    async run(call) {
      const doomed = await register(call);
      await call('POST', '/api/accounts/', { body: { link: doomed } });
      await call('DELETE', `/api/links/${doomed}/`);
      await call('GET', `/api/accounts/?link=${doomed}`);
      await call('GET', `/api/links/${doomed}/`);
      const later = await register(call);
      await call('DELETE', `/api/links/${later}/`, { headers: { 'x-service-request-mode': 'async' } });
    },
  },
  /** RANGE-365, INVOICE-CANCELLED, TAX-RETURNS-MIXED, TAX-RETENTIONS-500. */
  fiscal: {
    async run(call) {
      const link = await register(call, FISCAL);
      await call('POST', '/api/invoices/', {
        body: { link, date_from: '2025-01-01', date_to: '2026-02-28', type: 'INFLOW' },
      });
      await call('POST', '/api/invoices/', { body: { link, ...LAST_MONTH, type: 'INFLOW' } });
      await call('GET', `/api/invoices/?link=${link}&page_size=1000`);
      await call('GET', `/api/invoices/?link=${link}&page_size=1000&status=Cancelado`);
      await call('POST', '/api/tax-returns/', {
        body: { link, type: 'yearly', year_from: '2024', year_to: '2025' },
      });
      await call('POST', '/api/tax-retentions/', {
        body: { link, date_from: '2024-11-01', date_to: '2026-10-31', type: 'OUTFLOW' },
      });
    },
  },
  /** EMPLOYMENT-METRICS-PREREQ: metrics asked before and after the employment records. */
  employment: {
    async run(call) {
      const link = await register(call, METRICS);
      await call('POST', '/api/employment-metrics/', { body: { link } });
      await call('POST', '/api/employment-records/', { body: { link } });
      await call('POST', '/api/employment-metrics/', { body: { link } });
    },
  },
  /** LINK-PUT-CREDENTIALS: a recurrent link whose daily refresh finds invalid credentials gets new ones. */
  newCredentials: {
    async run(call) {
      const link = await register(call);
      await call('PATCH', `/api/links/${link}/`, { body: { access_mode: 'recurrent' } });
      await call('POST', '/_ofkit/scenarios/', {
        body: { scenario: 'next_refresh_invalid_credentials', link },
      });
      await call('POST', '/_ofkit/clock/advance/', { body: { seconds: 86_400 } });
      await call('GET', `/api/links/${link}/`);
      await call('PUT', `/api/links/${link}/`, { body: { password: 'a-new-secret' } });
    },
  },
  ...PAYMENT_SCENES,
};

/** Runs `names` (default: every scene but the sandbox's), after setting the first key's clock. */
export async function runSampleTraffic(
  client: TrafficClient,
  keys: readonly [Key, Key],
  names: readonly string[] = Object.keys(SCENES).filter((name) => name !== 'sandboxPayments'),
): Promise<void> {
  await client.call('PUT', '/_ofkit/clock/', { body: { now: TRAFFIC_START, frozen: false } });
  for (const name of names) {
    const scene = SCENES[name];
    if (scene === undefined) throw new Error(`no scene ${name}`);
    await scene.run(client.call, keys);
  }
}
