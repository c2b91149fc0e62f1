/**
 * Payment intents as the PAY-INTENT-* rules drive them: the five beneficiary/payer configurations of
 * POST /payments/br/payment-intents/ (PAY-INTENT-CONFIGS), the PATCH that completes a Pix-key intent
 * (PAY-INTENT-PIX-PATCH), the payer's authorization through the control API and the intent's charge.
 */
import fc from 'fast-check';
import type { JsonObject } from '../../../../openapi/document/json.js';
import type { HttpSession } from '../../http/http-client.js';
import type { PaymentsConfig } from '../../target/target-config.js';
import { fail } from '../rule.js';
import { cnpjArbitrary, uniqueAccountNumber } from './brazilian-documents.js';
import { expectObject, INTENTS, listResults, member, userAction } from './payment-api.js';
import {
  accountDetailsArbitrary,
  amountArbitrary,
  businessAccountBody,
  individualCustomerV1,
  pixKeyArbitrary,
  textArbitrary,
} from './payment-bodies.js';
import { addDays } from './payment-dates.js';
import type { PaymentFixture } from './payment-fixture.js';

/** The five configurations of the interface spec (Endpoints, payment intent configurations). */
export const INTENT_CONFIGS = [
  'pix-key+registered-customer',
  'pix-key+new-customer',
  'registered-account+registered-customer',
  'registered-account+new-customer',
  'new-account+new-customer',
] as const;

export type IntentConfig = (typeof INTENT_CONFIGS)[number];

/** Everything a create body can need; each configuration takes its part. */
export interface IntentInput {
  config: IntentConfig;
  amount: string;
  description: string;
  /** Days after today of a scheduled one-off payment; null: immediate. */
  scheduledIn: number | null;
  pixKey: JsonObject;
  newCustomer: JsonObject;
  newAccount: { details: { institution: string; agency: string; number: string }; cnpj: string };
}

export const usesPixKey = (config: IntentConfig) => config.startsWith('pix-key');
export const createsCustomer = (config: IntentConfig) => config.endsWith('new-customer');

export function intentInputArbitrary(
  payments: PaymentsConfig,
  configs: readonly IntentConfig[] = INTENT_CONFIGS,
): fc.Arbitrary<IntentInput> {
  return fc.record({
    config: fc.constantFrom(...configs),
    amount: amountArbitrary(),
    description: textArbitrary(),
    scheduledIn: fc.option(fc.integer({ min: 1, max: 60 }), { nil: null }),
    pixKey: pixKeyArbitrary(),
    newCustomer: individualCustomerV1(payments),
    newAccount: fc.record({
      details: accountDetailsArbitrary(payments.beneficiaryInstitution),
      cnpj: cnpjArbitrary(payments),
    }),
  });
}

function beneficiaryPart(input: IntentInput, fixture: PaymentFixture, serial: number): JsonObject {
  if (usesPixKey(input.config)) return { pix_key: input.pixKey };
  if (input.config.startsWith('registered-account')) return { beneficiary: fixture.beneficiary };
  const details = {
    ...input.newAccount.details,
    number: uniqueAccountNumber(serial, input.newAccount.details.number),
  };
  return { beneficiary: businessAccountBody(details, input.newAccount.cnpj, 'V1') };
}

/** The create body of the input's configuration; `serial` keeps a new account's number fresh. */
export function intentBody(input: IntentInput, fixture: PaymentFixture, serial: number): JsonObject {
  return {
    amount: input.amount,
    description: input.description,
    provider: 'PIX',
    ...(input.scheduledIn === null ? {} : { scheduled_date: addDays(fixture.today, input.scheduledIn) }),
    ...beneficiaryPart(input, fixture, serial),
    customer: createsCustomer(input.config) ? input.newCustomer : fixture.customer.id,
  };
}

export const intentUrl = (id: string) => `${INTENTS}${encodeURIComponent(id)}/`;

export const createIntent = (http: HttpSession, json: JsonObject, what: string) =>
  expectObject(http, { method: 'POST', url: INTENTS, json }, [201], what);

export const getIntent = (http: HttpSession, id: string) =>
  expectObject(http, { method: 'GET', url: intentUrl(id) }, [200], 'reading the payment intent');

/** PAY-INTENT-PIX-PATCH: the body that completes a Pix-key intent (PaymentIntentCompleteRequest). */
export const COMPLETE_BODY = { pix_key_confirmation: true };

export const completeIntent = (http: HttpSession, id: string) =>
  expectObject(
    http,
    { method: 'PATCH', url: intentUrl(id), json: COMPLETE_BODY },
    [200],
    'completing the Pix-key intent',
  );

/** A scheduled one-off intent on `date`, completed when it pays to a Pix key, authorized by the payer. */
export async function scheduledIntent(
  http: HttpSession,
  fixture: PaymentFixture,
  input: { date: string; amount: string; pixKey: JsonObject | null },
): Promise<{ intent: string; charge: string }> {
  const beneficiary: JsonObject = input.pixKey
    ? { pix_key: input.pixKey }
    : { beneficiary: fixture.beneficiary };
  const json = {
    amount: input.amount,
    description: 'Pedido agendado',
    provider: 'PIX',
    scheduled_date: input.date,
  };
  const created = await createIntent(
    http,
    { ...json, ...beneficiary, customer: fixture.customer.id },
    'creating a scheduled intent',
  );
  const intent = member(created, 'id', 'the created payment intent');
  if (input.pixKey) await completeIntent(http, intent);
  await userAction(http, 'payment-intents', intent, 'authorize');
  const charges = await listResults(http, `${intentUrl(intent)}charges/`, 'listing the intent charges');
  const scheduled = charges.find((charge) => charge.status === 'SCHEDULED');
  if (!scheduled)
    fail(`after the payer authorized, the intent has no SCHEDULED charge: ${JSON.stringify(charges)}`);
  return { intent, charge: member(scheduled, 'charge_id', 'the intent charge') };
}
