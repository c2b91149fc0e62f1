/**
 * The simulated institutions: one or more per data area of the spec (banking BR, employment BR and MX,
 * fiscal MX and CL), the Mexican social-security institution that offers employment metrics, and a
 * sandbox institution. Ids are fixed so that documentation and tests can name them. The sandbox
 * environment adds the provider's documented sandbox institutions (sandbox-institutions.ts).
 */
import type { Environment } from '../../core/keys.js';
import type { InstitutionEntry } from './institution-entry.js';
import { BANKING_BR_RESOURCES, FISCAL_MX_RESOURCES } from './institution-resources.js';
import { SANDBOX_INSTITUTIONS } from './sandbox-institutions.js';

export type { FormFieldName, InstitutionEntry, InstitutionType } from './institution-entry.js';

const FISCAL_CL = ['INVOICES', 'TAX_STATUS', 'DEBT_REPORTS'];
const user = (label: string, validation: string | null = null) =>
  ({ name: 'username', type: 'text', label, optional: false, validation }) as const;
const password = (label = 'Password') =>
  ({ name: 'password', type: 'password', label, optional: false, validation: null }) as const;

function institution(
  id: string,
  name: string,
  fields: Omit<InstitutionEntry, 'id' | 'name' | 'website' | 'primary_color'> & { color: string },
): InstitutionEntry {
  const { color, ...rest } = fields;
  return { id, name, website: `https://www.${name.split('_')[0]}.example/`, primary_color: color, ...rest };
}

export const INSTITUTIONS: readonly InstitutionEntry[] = [
  institution('5b0c1d2e-3f4a-4b5c-8d6e-7f8a9b0c1d2e', 'ofbank_br_retail', {
    display_name: 'OF Bank Varejo',
    type: 'bank',
    country_codes: ['BR'],
    color: '#0a4b8c',
    resources: BANKING_BR_RESOURCES,
    form_fields: [user('CPF', '^\\d{11}$'), password('Senha')],
    features: [],
  }),
  institution('6c1d2e3f-4a5b-4c6d-9e7f-8a9b0c1d2e3f', 'tokenbank_br_business', {
    display_name: 'Token Bank Empresas',
    type: 'bank',
    country_codes: ['BR'],
    color: '#8c0a4b',
    resources: BANKING_BR_RESOURCES,
    form_fields: [user('CNPJ', '^\\d{14}$'), password('Senha')],
    features: ['token_required'],
  }),
  institution('7d2e3f4a-5b6c-4d7e-8f8a-9b0c1d2e3f4a', 'ofinss_br_employment', {
    display_name: 'OF INSS Vinculos',
    type: 'employment',
    country_codes: ['BR'],
    color: '#1f7a3a',
    resources: ['EMPLOYMENTS'],
    form_fields: [user('CPF', '^\\d{11}$'), password('Senha')],
    features: [],
  }),
  institution('8e3f4a5b-6c7d-4e8f-9a9b-0c1d2e3f4a5b', 'ofimss_mx_employment', {
    display_name: 'OF IMSS',
    type: 'employment',
    country_codes: ['MX'],
    color: '#2d5f2e',
    resources: ['EMPLOYMENT_RECORDS'],
    form_fields: [user('CURP', '^[A-Z0-9]{18}$')],
    features: ['employment_metrics'],
  }),
  institution('9f4a5b6c-7d8e-4f9a-8b0c-1d2e3f4a5b6c', 'ofissste_mx_employment', {
    display_name: 'OF ISSSTE',
    type: 'employment',
    country_codes: ['MX'],
    color: '#6b2d5f',
    resources: ['EMPLOYMENT_RECORDS'],
    form_fields: [user('CURP', '^[A-Z0-9]{18}$')],
    features: [],
  }),
  institution('a05b6c7d-8e9f-4a0b-9c1d-2e3f4a5b6c7d', 'ofsat_mx_fiscal', {
    display_name: 'OF SAT',
    type: 'fiscal',
    country_codes: ['MX'],
    color: '#5f2d2d',
    resources: FISCAL_MX_RESOURCES,
    form_fields: [user('RFC', '^[A-ZÑ&]{3,4}\\d{6}[A-Z0-9]{3}$'), password('CIEC')],
    features: [],
  }),
  institution('b16c7d8e-9f0a-4b1c-8d2e-3f4a5b6c7d8e', 'ofsii_cl_fiscal', {
    display_name: 'OF SII',
    type: 'fiscal',
    country_codes: ['CL'],
    color: '#2d2d5f',
    resources: FISCAL_CL,
    form_fields: [user('RUT'), password('Clave tributaria')],
    features: [],
  }),
  institution('c27d8e9f-0a1b-4c2d-9e3f-4a5b6c7d8e9f', 'ofsandbox_mx_employment', {
    display_name: 'OF Sandbox Employment',
    type: 'employment',
    country_codes: ['MX'],
    color: '#777777',
    resources: ['EMPLOYMENT_RECORDS'],
    form_fields: [user('CURP')],
    features: ['sandbox'],
  }),
];

/** The institution's record as the API answers it. */
export function institutionRecord(entry: InstitutionEntry): Record<string, unknown> {
  return {
    ...entry,
    status: 'healthy',
    logo: null,
    icon_logo: null,
    text_logo: null,
    integration_type: 'credentials',
    // The provider's record: each field says what to type and what a wrong value gets; features are objects.
    form_fields: entry.form_fields.map(({ optional: _optional, validation, ...field }) => ({
      ...field,
      validation: validation ?? '.*',
      placeholder: field.label,
      validation_message: `Invalid ${field.label}`,
    })),
    features: entry.features.map((name) => ({ name })),
  };
}

/** Every institution either environment knows (a stored link's institution is looked up here). */
const ALL: readonly InstitutionEntry[] = [...INSTITUTIONS, ...SANDBOX_INSTITUTIONS];

export const institutionByName = (name: string) => ALL.find((entry) => entry.name === name);

/** The environment's catalogue: production serves ours; sandbox ours and the provider's sandbox ones. */
export const institutionsOf = (environment: Environment): readonly InstitutionEntry[] =>
  environment === 'sandbox' ? ALL : INSTITUTIONS;

/** The institution a registration in `environment` may name. */
export const institutionIn = (name: string, environment: Environment) =>
  institutionsOf(environment).find((entry) => entry.name === name);
