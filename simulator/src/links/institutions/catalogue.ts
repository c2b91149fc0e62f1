/**
 * The simulated institutions: one or more per data area of the spec (banking BR, employment BR and MX,
 * fiscal MX and CL), the Mexican social-security institution that offers employment metrics, and a
 * sandbox institution. Ids are the provider's kind, integers, fixed so that documentation and tests can
 * name them (ours from 1, the sandbox's from 101). The sandbox environment adds the provider's
 * documented sandbox institutions (sandbox-institutions.ts).
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
  id: number,
  name: string,
  fields: Omit<InstitutionEntry, 'id' | 'name' | 'website' | 'primary_color'> & { color: string },
): InstitutionEntry {
  const { color, ...rest } = fields;
  return { id, name, website: `https://www.${name.split('_')[0]}.example/`, primary_color: color, ...rest };
}

export const INSTITUTIONS: readonly InstitutionEntry[] = [
  institution(1, 'ofbank_br_retail', {
    display_name: 'OF Bank Varejo',
    type: 'bank',
    country_codes: ['BR'],
    color: '#0a4b8c',
    resources: BANKING_BR_RESOURCES,
    form_fields: [user('CPF', '^\\d{11}$'), password('Senha')],
    features: [],
  }),
  institution(2, 'tokenbank_br_business', {
    display_name: 'Token Bank Empresas',
    type: 'bank',
    country_codes: ['BR'],
    color: '#8c0a4b',
    resources: BANKING_BR_RESOURCES,
    form_fields: [user('CNPJ', '^\\d{14}$'), password('Senha')],
    features: ['token_required'],
  }),
  institution(3, 'ofinss_br_employment', {
    display_name: 'OF INSS Vinculos',
    type: 'employment',
    country_codes: ['BR'],
    color: '#1f7a3a',
    resources: ['EMPLOYMENTS'],
    form_fields: [user('CPF', '^\\d{11}$'), password('Senha')],
    features: [],
  }),
  institution(4, 'ofimss_mx_employment', {
    display_name: 'OF IMSS',
    type: 'employment',
    country_codes: ['MX'],
    color: '#2d5f2e',
    resources: ['EMPLOYMENT_RECORDS'],
    form_fields: [user('CURP', '^[A-Z0-9]{18}$')],
    features: ['employment_metrics'],
  }),
  institution(5, 'ofissste_mx_employment', {
    display_name: 'OF ISSSTE',
    type: 'employment',
    country_codes: ['MX'],
    color: '#6b2d5f',
    resources: ['EMPLOYMENT_RECORDS'],
    form_fields: [user('CURP', '^[A-Z0-9]{18}$')],
    features: [],
  }),
  institution(6, 'ofsat_mx_fiscal', {
    display_name: 'OF SAT',
    type: 'fiscal',
    country_codes: ['MX'],
    color: '#5f2d2d',
    resources: FISCAL_MX_RESOURCES,
    form_fields: [user('RFC', '^[A-ZÑ&]{3,4}\\d{6}[A-Z0-9]{3}$'), password('CIEC')],
    features: [],
  }),
  institution(7, 'ofsii_cl_fiscal', {
    display_name: 'OF SII',
    type: 'fiscal',
    country_codes: ['CL'],
    color: '#2d2d5f',
    resources: FISCAL_CL,
    form_fields: [user('RUT'), password('Clave tributaria')],
    features: [],
  }),
  institution(8, 'ofsandbox_mx_employment', {
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
