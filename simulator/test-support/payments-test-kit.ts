/**
 * What the payment tests share: valid documents, builders of customers, accounts, authorizations and
 * intents through the API, the raised events (validated against the document's `webhooks` schemas) and
 * a sandbox simulator whose responses are checked like the harness checks production ones.
 */
import { expect } from 'vitest';
import { createDocumentAjv, describeErrors } from '../../openapi/document/document-ajv.js';
import type { JsonObject } from '../../openapi/document/json.js';
import type { RaisedEvent } from '../src/core/events.js';
import { withCheckDigits } from './check-digits.js';
import { type CheckedSimulator, contractCheckedSimulator } from './contract-checked-simulator.js';

export const V2 = { 'x-service-api-resource-version': 'Payments-BR.V2' };
export const AURORA = '375eff08-33be-4d41-8d24-13ab2c7e0632';
export const HORIZONTE = '86a1e016-7c1e-47b9-9f22-6f939c3770ba';
export const HOUR = 3_600_000;
export const DAY = 24 * HOUR;
/** An instant given in GMT-3, as the rules state them. */
export const gmt3 = (dateTime: string) => Date.parse(`${dateTime}-03:00`);

let serial = 100;
/** A fresh valid CPF (11 digits) each call. */
export const nextCpf = () => withCheckDigits(String(310_000_000 + serial++), 10, false);
/** A fresh valid CNPJ (14 digits) each call. */
export const nextCnpj = () => withCheckDigits(`${String(40_000_000 + serial++)}0001`, 5, true);
/** A fresh account number `NNNNNN-D`. */
export const nextAccountNumber = () => `${String(200_000 + serial++)}-${serial % 10}`;

export async function createCustomer(sim: CheckedSimulator, body: Record<string, unknown> = {}) {
  const created = await sim.call('POST', '/payments/br/customers/', {
    body: { identifier: nextCpf(), name: 'Maria Souza', customer_type: 'INDIVIDUAL', ...body },
  });
  expect(created.status).toBe(201);
  return created.body as { id: string; identifier: string };
}

export function businessAccountBody(body: Record<string, unknown> = {}) {
  return {
    type: 'BUSINESS',
    institution: HORIZONTE,
    agency: '0001',
    number: nextAccountNumber(),
    account_type: 'CHECKING',
    holder: { name: 'Padaria Pao Dourado Ltda', identifier: nextCnpj() },
    ...body,
  };
}

export async function createBusinessAccount(sim: CheckedSimulator, body: Record<string, unknown> = {}) {
  const created = await sim.call('POST', '/payments/br/bank-accounts/', { body: businessAccountBody(body) });
  expect(created.status).toBe(201);
  return created.body as { id: string; holder: { identifier: string } };
}

export interface AuthorizationSetup {
  customer: string;
  beneficiary: string;
  schedule?: Record<string, unknown>;
  external_id?: string;
}

/** A payment authorization (AWAITING_AUTHORIZATION) of a fresh customer and beneficiary. */
export async function createAuthorization(sim: CheckedSimulator, setup: Partial<AuthorizationSetup> = {}) {
  const customer = setup.customer ?? (await createCustomer(sim)).id;
  const beneficiary = setup.beneficiary ?? (await createBusinessAccount(sim)).id;
  const created = await sim.call('POST', '/payments/br/payment-authorizations/', {
    headers: V2,
    body: {
      customer,
      beneficiary,
      institution: AURORA,
      description: 'Assinatura mensal',
      schedule: {
        frequency: 'MONTHLY',
        start_date: '2026-11-10',
        occurrences: 3,
        amount: '89.90',
        ...setup.schedule,
      },
      callback_url: 'https://app.example.com.br/retorno',
      ...(setup.external_id && { external_id: setup.external_id }),
    },
  });
  expect(created.status).toBe(201);
  return created.body as { payment_authorization_id: string; status: string };
}

/** PAY-AUTH-AUTHORIZED through the control API. */
export async function confirmAuthorization(sim: CheckedSimulator, id: string) {
  const confirmed = await sim.call('POST', `/_ofkit/payment-authorizations/${id}/confirm/`);
  expect(confirmed.status).toBe(200);
  return confirmed.body as { status: string; next_charge_date: string | null };
}

export const authorizationCharges = async (sim: CheckedSimulator, id: string) =>
  (await sim.call('GET', `/payments/br/payment-authorizations/${id}/charges/`, { headers: V2 })).body
    .results as {
    charge_id: string;
    status: string;
    date: string;
    retries: number;
    paid_at: string | null;
    failure: { code: string } | null;
    end_to_end_id: string | null;
  }[];

export const eventsOf = (sim: CheckedSimulator, tenant = 'tenant-a'): RaisedEvent[] => sim.events(tenant);

/** Events raised since `from` (an index into the tenant's events). */
export const eventsSince = (sim: CheckedSimulator, from: number, tenant = 'tenant-a') =>
  eventsOf(sim, tenant).slice(from);

/** Every raised event, with the emitter's `webhook_id`, validates against its `webhooks` entry. */
export function expectValidEvents(sim: CheckedSimulator, tenant = 'tenant-a'): void {
  const document = sim.simulator.document;
  const ajv = createDocumentAjv(document);
  const webhooks = document.webhooks as JsonObject;
  for (const { withoutWebhookId: _, ...event } of eventsOf(sim, tenant)) {
    const name = `${event.webhook_type.toLowerCase()}_${event.webhook_code}`;
    const entry = webhooks[name] as {
      post: { requestBody: { content: Record<string, { schema: JsonObject }> } };
    };
    expect(entry, `no webhook ${name}`).toBeDefined();
    const validate = ajv.compile(entry.post.requestBody.content['application/json']!.schema);
    const payload = { webhook_id: '0123456789abcdef0123456789abcdef', ...event };
    expect(validate(payload), `${name}: ${describeErrors(validate).join('; ')}`).toBe(true);
  }
}

/** PAY-SANDBOX: a sandbox simulator whose every response the harness checks against the document. */
export async function sandboxSimulator(): Promise<CheckedSimulator['call']> {
  const sandbox = await contractCheckedSimulator('sandbox', { environment: 'sandbox' });
  return sandbox.call;
}
