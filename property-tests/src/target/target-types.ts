/**
 * The shapes of the target's configuration, apart from the code that parses it: the HTTP client, the
 * defaults and the fixtures read these types, and the parser imports the defaults, so the types sit
 * below all of them.
 */

/** The environment a key belongs to: the sandbox offers dummy data and no payment initiation. */
export type Environment = 'production' | 'sandbox';

export interface ApiKeyConfig {
  id: string;
  secret: string;
}

/** A body of POST /api/links/ that registers a link on the target. */
export type Registration = { institution: string; username: string } & Record<string, string>;

export type FixtureKind =
  | 'link'
  | 'fiscalMx'
  | 'fiscalCl'
  | 'employmentBr'
  | 'employmentMx'
  | 'employmentMetrics'
  // EMPLOYMENT-METRICS-PREREQ: a Mexican employment institution that does not offer employment metrics.
  | 'employmentNoMetrics';

/**
 * Brazil payments (PAY-* rules): payment institution ids (`GET /payments/br/institutions/`) and the test
 * identities the target accepts. Empty identity lists: the rules generate valid CPFs and CNPJs.
 */
export interface PaymentsConfig {
  /** The payer's institution: payment authorizations, enrollments and INDIVIDUAL bank accounts. */
  payerInstitution: string;
  /** The institution of the organization's BUSINESS bank accounts (beneficiaries). */
  beneficiaryInstitution: string;
  /** CPFs (11 digits) the target accepts for customers; empty: generated with check digits. */
  cpfs: string[];
  /** CNPJs (14 digits) the target accepts for businesses; empty: generated with check digits. */
  cnpjs: string[];
}

export interface TargetConfig {
  baseUrl: string;
  /** The environment of the primary key; null: the one GET /api/ names (production if none). */
  environment: Environment | null;
  keys: { primary: ApiKeyConfig; second: ApiKeyConfig | null; otherEnvironment: ApiKeyConfig | null };
  fixtures: Record<FixtureKind, Registration> & { mfa: { registration: Registration; token: string } };
  /**
   * The run's scope (runner/scope.ts): operationIds or tags (globs) to check, all when empty, and those
   * to leave out; `includeFrom` names where `include` came from, for the report.
   */
  operations: {
    include: string[];
    exclude: string[];
    includeFrom: '--operations' | 'operations.include' | null;
  };
  /** The fixture kinds the config file names (`fixtures.*`): the others are defaults the target may lack. */
  fixturesGiven: readonly string[];
  controlApi: 'detect' | 'off';
  resetBeforeRun: boolean;
  requestTimeoutMs: number;
  /** PAY-* rules: institutions and test identities (PaymentsConfig). */
  payments: PaymentsConfig;
  /** The suite's webhook receiver (WEBHOOK-* rules). */
  receiver: ReceiverConfig;
}

/**
 * Where the suite's webhook receiver listens, and the URL it announces to the target (a remote target
 * cannot deliver to 127.0.0.1). `url: null`: `http://<host>:<port>` of the listening socket.
 */
export interface ReceiverConfig {
  host: string;
  port: number;
  url: string | null;
}
