/**
 * Test support: the payments part of the sample session: PAY-VERSION-HEADER, PAY-BANK-ACCOUNT-DUP,
 * PAY-INTENT-CONFIGS, PAY-INTENT-PIX-PATCH, PAY-AUTH-V2-REQUIRED and PAY-CHARGE-RETRY as a client
 * meets them (and the sandbox's refusal, PAY-SANDBOX, in runSandboxPayments).
 */
import { brazilianNumbers } from './brazilian-numbers.js';
import type { TrafficClient } from './traffic-client.js';

type Call = TrafficClient['call'];

const V2 = { 'x-service-api-resource-version': 'Payments-BR.V2' };
/** The payment institutions of the simulator's catalogue (the payer's and the beneficiary's). */
const AURORA = '375eff08-33be-4d41-8d24-13ab2c7e0632';
const HORIZONTE = '86a1e016-7c1e-47b9-9f22-6f939c3770ba';

const numbers = () => brazilianNumbers();

function businessAccount(next: ReturnType<typeof numbers>) {
  return {
    type: 'BUSINESS',
    institution: HORIZONTE,
    agency: '0001',
    number: next.accountNumber(),
    account_type: 'CHECKING',
    holder: { name: 'Padaria Pao Dourado Ltda', identifier: next.cnpj() },
  };
}

async function customersAndAccounts(call: Call, next: ReturnType<typeof numbers>) {
  const customer = await call('POST', '/payments/br/customers/', {
    body: {
      identifier: next.cpf(),
      name: 'Maria Souza',
      email: 'maria.souza@example.com',
      customer_type: 'INDIVIDUAL',
    },
  });
  await call('GET', `/payments/br/customers/${customer.body?.id}/`, { headers: V2 });
  const account = businessAccount(next);
  const created = await call('POST', '/payments/br/bank-accounts/', { body: account });
  await call('PATCH', `/payments/br/bank-accounts/${created.body?.id}/`, { body: { active: false } });
  const again = await call('POST', '/payments/br/bank-accounts/', { body: account });
  return {
    customer: String(customer.body?.id),
    beneficiary: String(again.body?.id ?? created.body?.id),
    cnpj: account.holder.identifier,
  };
}

async function intents(call: Call, next: ReturnType<typeof numbers>, cnpj: string) {
  const intent = await call('POST', '/payments/br/payment-intents/', {
    body: {
      amount: '250.00',
      description: 'Pedido 4471',
      provider: 'PIX',
      pix_key: { type: 'CNPJ', value: cnpj },
      customer: { identifier: next.cpf(), name: 'Joao Lima', customer_type: 'INDIVIDUAL' },
    },
  });
  for (let time = 0; time < 2; time++)
    await call('PATCH', `/payments/br/payment-intents/${intent.body?.id}/`, {
      body: { pix_key_confirmation: true },
    });
}

async function authorizations(call: Call, customer: string, beneficiary: string) {
  const body = {
    customer,
    beneficiary,
    institution: AURORA,
    description: 'Assinatura mensal',
    schedule: { frequency: 'MONTHLY', start_date: '2026-11-10', occurrences: 3, amount: '89.90' },
    callback_url: 'https://app.example.com.br/retorno',
  };
  await call('POST', '/payments/br/payment-authorizations/', { body });
  const created = await call('POST', '/payments/br/payment-authorizations/', { body, headers: V2 });
  const id = created.body?.payment_authorization_id;
  if (typeof id !== 'string') return;
  await call('POST', `/_ofkit/payment-authorizations/${id}/confirm/`);
  const charges = await call('GET', `/payments/br/payment-authorizations/${id}/charges/`, { headers: V2 });
  const charge = charges.body?.results?.[0]?.charge_id;
  if (typeof charge === 'string')
    await call('POST', `/payments/br/payment-authorizations/${id}/charges/${charge}/retry/`, { headers: V2 });
}

/** PAY-ENROLLMENT: a pending enrollment, then the list of the succeeded ones. */
async function enrollments(call: Call, customer: string) {
  const body = {
    customer,
    institution: AURORA,
    platform: 'ANDROID',
    callback_url: 'https://app.example.com.br/biometria',
  };
  await call('POST', '/payments/br/enrollments/', { body });
  await call('GET', '/payments/br/enrollments/?status=SUCCEEDED');
}

export async function runSamplePayments(call: Call): Promise<void> {
  const next = numbers();
  const { customer, beneficiary, cnpj } = await customersAndAccounts(call, next);
  await intents(call, next, cnpj);
  await authorizations(call, customer, beneficiary);
  await enrollments(call, customer);
}

/** PAY-SANDBOX: a sandbox key's login check, then a payment it may not start. */
export async function runSandboxPayments(client: TrafficClient): Promise<void> {
  const next = numbers();
  await client.call('GET', '/api/');
  const { cnpj } = await customersAndAccounts(client.call, next);
  await intents(client.call, next, cnpj);
}
