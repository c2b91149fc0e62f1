/**
 * Test support: the payments scenes of the sample session: PAY-VERSION-HEADER and PAY-BANK-ACCOUNT-DUP
 * (customers and accounts), PAY-INTENT-CONFIGS and PAY-INTENT-PIX-PATCH (intents), PAY-AUTH-V2-REQUIRED
 * and PAY-CHARGE-RETRY (authorizations), PAY-ENROLLMENT, and PAY-SANDBOX (a sandbox key's payment).
 */
import { brazilianNumbers } from './brazilian-numbers.js';
import type { Scene, TrafficClient } from './traffic-client.js';

type Call = TrafficClient['call'];
type Numbers = ReturnType<typeof brazilianNumbers>;

const V2 = { 'x-service-api-resource-version': 'Payments-BR.V2' };
/** The payment institutions of the simulator's catalogue (the payer's and the beneficiary's). */
export const AURORA = '375eff08-33be-4d41-8d24-13ab2c7e0632';
export const HORIZONTE = '86a1e016-7c1e-47b9-9f22-6f939c3770ba';

/** A beneficiary account of a business at HORIZONTE, with fresh numbers. */
export function businessAccount(next: Numbers) {
  return {
    type: 'BUSINESS',
    institution: HORIZONTE,
    agency: '0001',
    number: next.accountNumber(),
    account_type: 'CHECKING',
    holder: { name: 'Padaria Pao Dourado Ltda', identifier: next.cnpj() },
  };
}

async function customer(call: Call, next: Numbers): Promise<string> {
  const created = await call('POST', '/payments/br/customers/', {
    body: {
      identifier: next.cpf(),
      name: 'Maria Souza',
      email: 'maria.souza@example.com',
      customer_type: 'INDIVIDUAL',
    },
  });
  return String(created.body?.id);
}

/** A beneficiary account registered, deactivated and registered again; its id and holder's CNPJ. */
async function beneficiary(call: Call, next: Numbers): Promise<{ id: string; cnpj: string }> {
  const account = businessAccount(next);
  const created = await call('POST', '/payments/br/bank-accounts/', { body: account });
  await call('PATCH', `/payments/br/bank-accounts/${created.body?.id}/`, { body: { active: false } });
  const again = await call('POST', '/payments/br/bank-accounts/', { body: account });
  return { id: String(again.body?.id ?? created.body?.id), cnpj: account.holder.identifier };
}

async function pixIntent(call: Call, next: Numbers, cnpj: string): Promise<void> {
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

export const PAYMENT_SCENES: Record<string, Scene> = {
  /** PAY-VERSION-HEADER (a V1 customer read in V2) and PAY-BANK-ACCOUNT-DUP. */
  payers: {
    async run(call) {
      const next = brazilianNumbers(100);
      const id = await customer(call, next);
      await call('GET', `/payments/br/customers/${id}/`, { headers: V2 });
      await beneficiary(call, next);
    },
  },
  /** PAY-INTENT-CONFIGS (a payer created in the request) and PAY-INTENT-PIX-PATCH (completed twice). */
  intents: {
    async run(call) {
      const next = brazilianNumbers(200);
      const { cnpj } = await beneficiary(call, next);
      await pixIntent(call, next, cnpj);
    },
  },
  /** PAY-AUTH-V2-REQUIRED (no header) and PAY-CHARGE-RETRY (a scheduled charge retried). */
  authorizations: {
    async run(call) {
      const next = brazilianNumbers(300);
      const body = {
        customer: await customer(call, next),
        beneficiary: (await beneficiary(call, next)).id,
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
      const charges = await call('GET', `/payments/br/payment-authorizations/${id}/charges/`, {
        headers: V2,
      });
      const charge = charges.body?.results?.[0]?.charge_id;
      if (typeof charge === 'string')
        await call('POST', `/payments/br/payment-authorizations/${id}/charges/${charge}/retry/`, {
          headers: V2,
        });
    },
  },
  /** PAY-ENROLLMENT: a pending enrollment, then the list of the succeeded ones. */
  enrollments: {
    async run(call) {
      const next = brazilianNumbers(400);
      const body = {
        customer: await customer(call, next),
        institution: AURORA,
        platform: 'ANDROID',
        callback_url: 'https://app.example.com.br/biometria',
      };
      await call('POST', '/payments/br/enrollments/', { body });
      await call('GET', '/payments/br/enrollments/?status=SUCCEEDED');
    },
  },
  /** PAY-SANDBOX (against a sandbox simulator): the login check says sandbox, then a payment starts. */
  sandboxPayments: {
    async run(call) {
      const next = brazilianNumbers(500);
      await call('GET', '/api/');
      const { cnpj } = await beneficiary(call, next);
      await pixIntent(call, next, cnpj);
    },
  },
};
