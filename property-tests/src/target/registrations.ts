/**
 * The link registrations of a run, and where each came from. The config's `fixtures.*` are used as
 * given. One the config does not name is the simulator's default when the target lists its institution
 * (or lists none to choose from); otherwise the target's own institution of the same type and country,
 * from its GET /api/institutions/; and when it lists none of them, the kind is absent: the rules that
 * need it say so (inconclusive), naming `fixtures.<kind>`. Messages name each registration's source.
 */
import type { JsonObject } from '../../../openapi/document/json.js';
import type { FixtureKind, Registration, TargetConfig } from './target-config.js';

/** Type and country of the institution each kind registers at. */
const WANTED: Record<FixtureKind, { type: string; country: string }> = {
  link: { type: 'bank', country: 'BR' },
  fiscalMx: { type: 'fiscal', country: 'MX' },
  fiscalCl: { type: 'fiscal', country: 'CL' },
  employmentBr: { type: 'employment', country: 'BR' },
  employmentMx: { type: 'employment', country: 'MX' },
  employmentMetrics: { type: 'employment', country: 'MX' },
  employmentNoMetrics: { type: 'employment', country: 'MX' },
};

/** What a run registers links with: the registrations (the config's shape) and their sources. */
export interface Registrations {
  fixtures: TargetConfig['fixtures'];
  /** Kind (or `mfa`) -> where its registration came from, in words. */
  sources: Readonly<Record<string, string>>;
  /** Kinds the config does not name and the target lists no institution for. */
  absent: ReadonlySet<FixtureKind>;
  /** Kinds (and `mfa`) the config names. */
  given: ReadonlySet<string>;
}

const countriesOf = (institution: JsonObject) =>
  [institution.country_codes, institution.country_code].flat().filter((c) => typeof c === 'string');

function pick(institutions: readonly JsonObject[], kind: FixtureKind): string | undefined {
  const { type, country } = WANTED[kind];
  const found = institutions.find((i) => i.type === type && countriesOf(i).includes(country));
  return typeof found?.name === 'string' ? found.name : undefined;
}

/**
 * The registrations for a target listing `institutions` (undefined: its list could not be read).
 * `fixtures.mfa` follows the bank's institution when the config does not name it.
 */
export function resolveRegistrations(
  config: Pick<TargetConfig, 'fixtures' | 'fixturesGiven'>,
  institutions: readonly JsonObject[] | undefined,
): Registrations {
  const given = new Set(config.fixturesGiven);
  const listed = new Set(institutions?.map((i) => i.name).filter((n) => typeof n === 'string'));
  const fixtures = { ...config.fixtures };
  const sources: Record<string, string> = {};
  const absent = new Set<FixtureKind>();
  for (const kind of Object.keys(WANTED) as FixtureKind[]) {
    const fixture = config.fixtures[kind];
    if (given.has(kind)) sources[kind] = `fixtures.${kind} of the config`;
    else if (!institutions?.length || listed.has(fixture.institution))
      sources[kind] = `the simulator's default; no fixtures.${kind} in the config`;
    else {
      const { type, country } = WANTED[kind];
      const name = pick(institutions, kind);
      if (name === undefined) absent.add(kind);
      else fixtures[kind] = { ...fixture, institution: name } as Registration;
      sources[kind] =
        name === undefined
          ? `GET /api/institutions/ lists no ${type} institution in ${country}, and the config has no fixtures.${kind}`
          : `the target's ${type} institution in ${country} from GET /api/institutions/; no fixtures.${kind} in the config`;
    }
  }
  if (given.has('mfa')) sources.mfa = 'fixtures.mfa of the config';
  else {
    const registration = { ...config.fixtures.mfa.registration, institution: fixtures.link.institution };
    fixtures.mfa = { ...config.fixtures.mfa, registration };
    sources.mfa = `the simulator's MFA trigger (a username starting with "mfa") at ${registration.institution}; no fixtures.mfa in the config`;
  }
  return { fixtures, sources, absent, given };
}

/** How to give a registration that works: the hint of a refused or absent one. */
export const registrationHint = (kind: string) =>
  kind === 'mfa'
    ? 'add fixtures.mfa to the --config file: a registration your server answers 428, and the token that resumes it (property-tests/config.schema.json)'
    : `add fixtures.${kind} to the --config file: a registration your server accepts (property-tests/config.schema.json)`;
