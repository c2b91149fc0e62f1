/**
 * What most PAY-* rules set up once: a registered payer (customer) and the organization's BUSINESS
 * bank account (beneficiary), made through the API with the config's institutions, and the target's
 * "today" in GMT-3 (from the control API's clock, else from the new customer's `created_at`).
 */
import fc from 'fast-check';
import type { HttpSession } from '../../http/http-client.js';
import { type Skip, type SuiteContext, skipForEnvironment } from '../rule.js';
import {
  accountNumberArbitrary,
  agencyArbitrary,
  cnpjArbitrary,
  cpfArbitrary,
  uniqueAccountNumber,
} from './brazilian-documents.js';
import { type ClockState, expectObject, member, PAYMENTS, readClock } from './payment-api.js';
import { businessAccountBody } from './payment-bodies.js';
import { paymentsDate } from './payment-dates.js';

export interface PaymentFixture {
  /** The target's date in GMT-3 when the rule started. */
  today: string;
  /** The clock as the rule found it (control API only), put back after every run that moves it. */
  clock: ClockState | undefined;
  customer: { id: string; cpf: string };
  beneficiary: string;
  /** A fresh number each call, to keep generated account numbers apart from earlier runs' accounts. */
  nextSerial: () => number;
}

/** PAY-SANDBOX: the operations that initiate payments, refused in the sandbox. */
const INITIATIONS = ['createPaymentIntent', 'createPaymentAuthorization', 'createEnrollment'];

const one = <T>(arbitrary: fc.Arbitrary<T>): T => fc.sample(arbitrary, 1)[0]!;

/** A serial counter starting somewhere new on every suite run. */
function serials(): () => number {
  let serial = Date.now() % 10_000;
  return () => {
    serial = (serial + 1) % 10_000;
    return serial;
  };
}

async function createCustomer(suite: SuiteContext, http: HttpSession) {
  const cpf = one(cpfArbitrary(suite.config.payments));
  const json = { identifier: cpf, name: 'Maria Aparecida Souza', customer_type: 'INDIVIDUAL' };
  const call = { method: 'POST', url: `${PAYMENTS}/customers/`, json };
  const created = await expectObject(http, call, [201], 'set-up: creating a customer (V1)');
  return {
    id: member(created, 'id', 'set-up customer'),
    cpf,
    createdAt: member(created, 'created_at', 'customer'),
  };
}

/** Registers a BUSINESS beneficiary account with a fresh number; its id. */
export async function createBeneficiary(
  suite: SuiteContext,
  http: HttpSession,
  serial: number,
): Promise<string> {
  const payments = suite.config.payments;
  const details = {
    institution: payments.beneficiaryInstitution,
    agency: one(agencyArbitrary()),
    number: uniqueAccountNumber(serial, one(accountNumberArbitrary())),
  };
  const json = businessAccountBody(details, one(cnpjArbitrary(payments)), 'V1');
  const call = { method: 'POST', url: `${PAYMENTS}/bank-accounts/`, json };
  const created = await expectObject(http, call, [201], 'set-up: registering a BUSINESS bank account');
  return member(created, 'id', 'set-up bank account');
}

/** Every operation a payment rule needs: the set-up's (a customer, a bank account) and its own. */
export const paymentOperations = (operationIds: readonly string[]) => [
  'createCustomer',
  'createBankAccount',
  ...operationIds,
];

/** The shared set-up (the rule declares paymentOperations(operationIds)), or why the rule cannot run. */
export async function preparePayments(
  suite: SuiteContext,
  operationIds: readonly string[],
): Promise<PaymentFixture | Skip> {
  const initiates = operationIds.some((id) => INITIATIONS.includes(id));
  if (initiates && suite.environment === 'sandbox') {
    return skipForEnvironment(
      'payment initiation is not available in the sandbox (interface spec, Environments; PAY-SANDBOX asserts the refusal)',
    );
  }
  const nextSerial = serials();
  const customer = await createCustomer(suite, suite.http);
  const beneficiary = await createBeneficiary(suite, suite.http, nextSerial());
  const clock = suite.capabilities.controlApi ? await readClock(suite.http) : undefined;
  const today = paymentsDate(Date.parse(clock?.now ?? customer.createdAt));
  return { today, clock, customer: { id: customer.id, cpf: customer.cpf }, beneficiary, nextSerial };
}
