/**
 * The simulated payment institutions (`GET /payments/br/institutions/`), with the fixed ids the
 * document's examples use so that documentation and tests can name them. Readable in the sandbox too.
 */

import type { Handler } from '../core/handler.js';
import { ok } from '../core/result.js';
import type { StoredRecord } from '../store/store.js';
import { pageOf } from './payment-store.js';

export interface PaymentInstitution {
  id: string;
  name: string;
  display_name: string;
  code: string | null;
  ispb: string;
  country_code: 'BR';
  logo: string | null;
  status: 'healthy' | 'down';
  features: string[];
}

export const PAYMENT_INSTITUTIONS: readonly PaymentInstitution[] = [
  {
    id: '375eff08-33be-4d41-8d24-13ab2c7e0632',
    name: 'banco_aurora_br',
    display_name: 'Banco Aurora',
    code: '421',
    ispb: '31872495',
    country_code: 'BR',
    logo: 'https://cdn.ofkit.dev/logos/banco_aurora_br.png',
    status: 'healthy',
    features: ['pix_immediate', 'pix_scheduled', 'pix_automatic', 'biometric_pix'],
  },
  {
    id: '86a1e016-7c1e-47b9-9f22-6f939c3770ba',
    name: 'cooperativa_horizonte_br',
    display_name: 'Cooperativa Horizonte',
    code: null,
    ispb: '09461205',
    country_code: 'BR',
    logo: null,
    status: 'healthy',
    features: ['pix_immediate', 'pix_scheduled'],
  },
  {
    id: '5d1c7e2a-3b4f-4c6d-8e9f-0a1b2c3d4e5f',
    name: 'banco_pinheiro_br',
    display_name: 'Banco Pinheiro',
    code: '512',
    ispb: '48203917',
    country_code: 'BR',
    logo: null,
    status: 'healthy',
    features: ['pix_immediate', 'pix_scheduled', 'pix_automatic'],
  },
];

/** (choice) The payer's institution when nothing names one (intents name none): the first one. */
export const DEFAULT_PAYER_INSTITUTION = PAYMENT_INSTITUTIONS[0]!;

export const paymentInstitution = (id: string) => PAYMENT_INSTITUTIONS.find((entry) => entry.id === id);

const records = PAYMENT_INSTITUTIONS.map((entry) => ({ ...entry }) as StoredRecord);

const listPaymentInstitutions: Handler = async ({ input, request }) =>
  ok(pageOf(records, input.query, request, (record) => record));

export const paymentInstitutionHandlers: [string, Handler][] = [
  ['listPaymentInstitutions', listPaymentInstitutions],
];
