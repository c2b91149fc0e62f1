/**
 * The provider states of the reference pacts, by their sentence. Each sets its world up through the
 * API (`POST /api/links/`, retrievals, payments) and, where time or the institution's behaviour must
 * change, the control API (`/_ofkit/clock/advance/`, `/_ofkit/scenarios/`); it returns the ids the
 * provider created, which Pact injects into the request (`fromProviderState`).
 */
import { randomInt } from 'node:crypto';
import { LINKS } from '../../openapi/http/api-paths.js';
import { type ProviderApi, StateSetupError } from './provider-api.js';

/** An end user's credentials at one institution of the provider's catalogue. */
export interface LinkCredentials {
  institution: string;
  username: string;
  password: string;
}

export interface StateContext {
  api: ProviderApi;
  credentials: LinkCredentials;
  /** The MFA token the provider accepts when it asks for one (LINK-MFA-428). */
  mfaToken: string;
  controlApi: boolean;
}

export type InjectedValues = Record<string, string>;

export interface ProviderState {
  /** Why the state needs the control API, when it does; without it the state is unverifiable. */
  needsControlApi?: string;
  setup(context: StateContext): Promise<InjectedValues>;
}

const V2 = { 'X-Service-API-Resource-Version': 'Payments-BR.V2' };
const NEEDS_CLOCK = 'the clock must move (POST /_ofkit/clock/advance/)';
const NEEDS_SCENARIO = 'the institution must ask for a token (POST /_ofkit/scenarios/)';
const NEEDS_RESET =
  'the full deletion window must be forgotten afterwards (POST /_ofkit/reset/), or later deletions get 429';

const idOf = (body: unknown, field = 'id'): string => {
  const value = (body as Record<string, unknown> | undefined)?.[field];
  if (typeof value !== 'string')
    throw new StateSetupError(`the answer has no \`${field}\`: ${JSON.stringify(body)}`);
  return value;
};

async function registerLink(context: StateContext, accessMode: 'single' | 'recurrent'): Promise<string> {
  const body = { ...context.credentials, access_mode: accessMode, external_id: 'customer-4521' };
  return idOf(await context.api.expect(201, 'POST', LINKS, { body }));
}

/** The provider's time: its virtual clock where it has one, else this machine's. */
async function providerNow(context: StateContext): Promise<number> {
  if (!context.controlApi) return Date.now();
  const clock = (await context.api.expect(200, 'GET', '/_ofkit/clock/')) as { now?: unknown };
  return typeof clock?.now === 'string' ? Date.parse(clock.now) : Date.now();
}

/** `YYYY-MM-DD`, `days` after `now`. */
const dayOf = (now: number, days = 0) => new Date(now + days * 86_400_000).toISOString().slice(0, 10);

async function recurrentLink(context: StateContext): Promise<InjectedValues> {
  const linkId = await registerLink(context, 'recurrent');
  const now = await providerNow(context);
  return { linkId, dateFrom: dayOf(now, -30), dateTo: dayOf(now) };
}

/** LINK-REFRESH-COOLDOWN: a refresh, then `seconds` of the provider's time. */
async function refreshedAgo(context: StateContext, seconds: number): Promise<InjectedValues> {
  const linkId = await registerLink(context, 'recurrent');
  await context.api.expect(202, 'POST', `${LINKS}${linkId}/refresh/`);
  if (seconds > 0) await context.api.expect(200, 'POST', '/_ofkit/clock/advance/', { body: { seconds } });
  return { linkId };
}

/** LINK-MFA-428: the next registration at the institution is answered with 428. */
async function institutionAsksForToken(context: StateContext): Promise<void> {
  const body = {
    scenario: 'institution_requires_token',
    institution: context.credentials.institution,
    count: 1,
  };
  await context.api.expect(201, 'POST', '/_ofkit/scenarios/', { body });
}

/** DATA-RETRIEVE of the last 30 days of transactions of a new recurrent link. */
async function retrievedTransactions(context: StateContext, atLeast: number) {
  const { linkId = '', dateFrom, dateTo } = await recurrentLink(context);
  const body = { link: linkId, date_from: dateFrom, date_to: dateTo };
  const records = await context.api.expect(201, 'POST', '/api/transactions/', { body });
  const ids = Array.isArray(records) ? records.map((record) => idOf(record)) : [];
  if (ids.length < atLeast) {
    throw new StateSetupError(`the retrieval gave ${ids.length} transactions; the state needs ${atLeast}`);
  }
  return { linkId, ids };
}

/** DELETE-RATE-LIMIT: five synchronous deletions, then a sixth link to delete. */
async function fiveDeletions(context: StateContext): Promise<InjectedValues> {
  for (let deleted = 0; deleted < 5; deleted += 1) {
    const linkId = await registerLink(context, 'single');
    // A 429 already means the window is full, which is the state asked for.
    const answer = await context.api.send('DELETE', `${LINKS}${linkId}/`);
    if (answer.status === 429) break;
    if (answer.status !== 204)
      throw new StateSetupError(`DELETE ${LINKS}${linkId}/ answered ${answer.status}`);
  }
  return { linkId: await registerLink(context, 'single') };
}

/** PAY-AUTH-*: a payer, the organization's BUSINESS account (a fresh number: PAY-BANK-ACCOUNT-DUP). */
async function paymentParties(context: StateContext): Promise<InjectedValues> {
  const institutions = await context.api.expect(200, 'GET', '/payments/br/institutions/?page_size=1');
  const institutionId = idOf((institutions as { results?: unknown[] }).results?.[0]);
  const customer = { identifier: '52601815906', name: 'Maria Aparecida Souza', customer_type: 'INDIVIDUAL' };
  const customerId = idOf(
    await context.api.expect(201, 'POST', '/payments/br/customers/', { body: customer }),
  );
  const account = {
    type: 'BUSINESS',
    institution: institutionId,
    agency: '0001',
    number: `${randomInt(100_000, 999_999)}-${randomInt(0, 9)}`,
    account_type: 'CHECKING',
    holder: { name: 'Padaria Pao Dourado Ltda', identifier: '62819482000163' },
  };
  const beneficiaryId = idOf(
    await context.api.expect(201, 'POST', '/payments/br/bank-accounts/', { body: account }),
  );
  return { customerId, beneficiaryId, institutionId, startDate: dayOf(await providerNow(context), 10) };
}

async function awaitingAuthorization(context: StateContext): Promise<InjectedValues> {
  const parties = await paymentParties(context);
  const body = {
    customer: parties.customerId,
    beneficiary: parties.beneficiaryId,
    institution: parties.institutionId,
    description: 'Assinatura mensal Clube do Pao',
    schedule: { frequency: 'MONTHLY', start_date: parties.startDate, occurrences: 12, amount: '89.90' },
    callback_url: 'https://app.paodourado.com.br/pagamentos/retorno',
  };
  const created = await context.api.expect(201, 'POST', '/payments/br/payment-authorizations/', {
    body,
    headers: V2,
  });
  return { paymentAuthorizationId: idOf(created, 'payment_authorization_id') };
}

/** Every state sentence the reference pacts use. */
export const PROVIDER_STATES: Readonly<Record<string, ProviderState>> = {
  'the institution accepts the credentials': { setup: async (context) => ({ ...context.credentials }) },
  'the institution requires a token': {
    needsControlApi: NEEDS_SCENARIO,
    setup: async (context) => {
      await institutionAsksForToken(context);
      return { ...context.credentials };
    },
  },
  'a link registration is waiting for a token': {
    needsControlApi: NEEDS_SCENARIO,
    setup: async (context) => {
      await institutionAsksForToken(context);
      const body = { ...context.credentials, access_mode: 'recurrent' };
      const paused = await context.api.expect(428, 'POST', LINKS, { body });
      const item = (paused as unknown[])[0];
      // LINK-MFA-428: the 428 names the link it created; the resume sends it back.
      return { session: idOf(item, 'session'), linkId: idOf(item, 'link'), token: context.mfaToken };
    },
  },
  'a recurrent link exists': { setup: recurrentLink },
  'a link exists': { setup: async (context) => ({ linkId: await registerLink(context, 'single') }) },
  'the link was just refreshed': { setup: (context) => refreshedAgo(context, 0) },
  'the link was refreshed 5 minutes ago': {
    needsControlApi: NEEDS_CLOCK,
    setup: (c) => refreshedAgo(c, 300),
  },
  'the link was refreshed 11 minutes ago': {
    needsControlApi: NEEDS_CLOCK,
    setup: (c) => refreshedAgo(c, 660),
  },
  'five links were deleted in the last minute': { needsControlApi: NEEDS_RESET, setup: fiveDeletions },
  "the link's accounts were retrieved": {
    setup: async (context) => {
      const linkId = await registerLink(context, 'recurrent');
      const accounts = await context.api.expect(201, 'POST', '/api/accounts/', { body: { link: linkId } });
      return { linkId, accountId: idOf((accounts as unknown[] | undefined)?.[0]) };
    },
  },
  "the link's transactions were retrieved": {
    setup: async (context) => {
      const { linkId, ids } = await retrievedTransactions(context, 3);
      return { linkId, transactionId: ids[0] ?? '' };
    },
  },
  'a webhook named two updated transactions of the link': {
    setup: async (context) => {
      const { linkId, ids } = await retrievedTransactions(context, 2);
      return { linkId, transactionIds: ids.slice(0, 2).join(',') };
    },
  },
  'a customer, a business bank account and a payment institution exist': { setup: paymentParties },
  'a payment authorization awaiting authorization exists': { setup: awaitingAuthorization },
};
