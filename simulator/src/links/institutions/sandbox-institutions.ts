/**
 * The provider's documented sandbox institutions, served by the sandbox environment only (production
 * keeps ours), so that a test written against the provider's sandbox runs unchanged against
 * `ofkit simulate --environment sandbox`. Names, display names, types and the MFA ones follow the
 * provider's public sandbox guide ("test in sandbox": demo institutions and test credentials).
 * Only the names whose type and country this API version serves are kept: banking is Brazilian here
 * (the `_mx_`/`_co_` banks would have no resource to offer), the gig-economy ones have no resource in
 * this version at all.
 *
 * Credentials, as the guide documents them: `user_valid` / `pass_valid` at any institution and
 * `bnk100` / `full` (the full data set) both succeed; as the guide says, any other pair succeeds too
 * and gets the same data. The MFA institutions (Gotham, Heimdall) answer LINK-MFA-428 to every login.
 * The guide's failing credentials were not found; ours stand in for them (scenario-triggers.ts:
 * password `wrong-password` is refused, token `123456` is accepted).
 */
import type { InstitutionEntry } from './institution-entry.js';
import { BANKING_BR_RESOURCES, FISCAL_MX_RESOURCES } from './institution-resources.js';

export const SANDBOX_CREDENTIALS = {
  valid: { username: 'user_valid', password: 'pass_valid' },
  fullData: { username: 'bnk100', password: 'full' },
} as const;

/** The sandbox institutions' ids follow ours at a distance, so that ours may grow. */
const SANDBOX_FIRST_ID = 101;

const LOGIN = [
  { name: 'username', type: 'text', label: 'Username', optional: false, validation: null },
  { name: 'password', type: 'password', label: 'Password', optional: false, validation: null },
] as InstitutionEntry['form_fields'];

type Kind = 'bank' | 'fiscal' | 'employment';
const SHAPES: Record<Kind, Pick<InstitutionEntry, 'type' | 'country_codes' | 'resources'>> = {
  bank: { type: 'bank', country_codes: ['BR'], resources: BANKING_BR_RESOURCES },
  fiscal: { type: 'fiscal', country_codes: ['MX'], resources: FISCAL_MX_RESOURCES },
  employment: { type: 'employment', country_codes: ['MX'], resources: ['EMPLOYMENT_RECORDS'] },
};

function sandbox(n: number, name: string, display_name: string, kind: Kind, mfa = false): InstitutionEntry {
  const shape = SHAPES[kind];
  return {
    id: SANDBOX_FIRST_ID + n - 1,
    name,
    display_name,
    type: shape.type,
    country_codes: [...shape.country_codes],
    website: `https://www.${name.split('_')[0]}.example/`,
    primary_color: '#056dae',
    resources: [...shape.resources],
    form_fields: kind === 'employment' ? LOGIN.slice(0, 1) : LOGIN,
    features: mfa ? ['sandbox', 'token_required'] : ['sandbox'],
  };
}

export const SANDBOX_INSTITUTIONS: readonly InstitutionEntry[] = [
  sandbox(1, 'erebor_br_retail', 'Erebor Bank', 'bank'),
  sandbox(2, 'gringotts_br_retail', 'Gringotts Bank', 'bank'),
  sandbox(3, 'gotham_br_business', 'Gotham Business Bank', 'bank', true),
  sandbox(4, 'heimdall_br_retail', 'Heimdall Bank', 'bank', true),
  sandbox(5, 'ironbank_br_retail', 'Iron Bank', 'bank'),
  sandbox(6, 'ironbank_br_business', 'Iron Bank Business', 'bank'),
  // The newer guide names Open Finance Brazil's mock bank and these Mexican ones as its examples.
  sandbox(7, 'ofmockbank_br_retail', 'OF Mock Bank', 'bank'),
  sandbox(8, 'tatooine_mx_fiscal', 'Tatooine Fiscal', 'fiscal'),
  sandbox(9, 'tatooine_mx_retail', 'Tatooine Fiscal', 'fiscal'),
  sandbox(10, 'planet_mx_retail', 'Planet Express', 'employment'),
];
