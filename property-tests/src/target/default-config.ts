/**
 * Defaults that fit the ofkit simulator (`npx ofkit simulate`): its documented keys, institutions and
 * scenario triggers, copied as values (the suite imports nothing from the simulator).
 */
import type { TargetConfig } from './target-types.js';

export const DEFAULT_CONFIG: Omit<TargetConfig, 'baseUrl'> = {
  // Detected: GET /api/ names the environment.
  environment: null,
  keys: {
    primary: { id: 'ofkit-key-a', secret: 'ofkit-secret-a' },
    second: { id: 'ofkit-key-b', secret: 'ofkit-secret-b' },
    // AUTH-ENV-KEYS: the simulator's sandbox key, refused by its production environment.
    otherEnvironment: { id: 'ofkit-sandbox-key', secret: 'ofkit-sandbox-secret' },
  },
  fixtures: {
    link: { institution: 'ofbank_br_retail', username: '76109277673', password: 'secret' },
    // LINK-MFA-428: a username starting with `mfa` asks for a token; `123456` is accepted.
    mfa: {
      registration: { institution: 'ofbank_br_retail', username: 'mfa-76109277673', password: 'secret' },
      token: '123456',
    },
    fiscalMx: { institution: 'ofsat_mx_fiscal', username: 'GODE561231GR8', password: 'ciec-secret' },
    fiscalCl: { institution: 'ofsii_cl_fiscal', username: '12.345.678-5', password: 'clave-secret' },
    employmentBr: { institution: 'ofinss_br_employment', username: '76109277673', password: 'secret' },
    employmentMx: { institution: 'ofissste_mx_employment', username: 'GODE561231HDFRRN09' },
    employmentMetrics: { institution: 'ofimss_mx_employment', username: 'GODE561231HDFRRN09' },
    // EMPLOYMENT-METRICS-PREREQ: ISSSTE does not offer employment metrics (only IMSS does).
    employmentNoMetrics: { institution: 'ofissste_mx_employment', username: 'GODE561231HDFRRN09' },
  },
  operations: { include: [], exclude: [], includeFrom: null },
  fixturesGiven: [],
  controlApi: 'detect',
  resetBeforeRun: true,
  // Control API clock moves run every job that falls due (a daily refresh per recurrent link and day).
  requestTimeoutMs: 30_000,
  // PAY-*: the simulator's payment institutions Banco Aurora (payer) and Cooperativa Horizonte.
  payments: {
    payerInstitution: '375eff08-33be-4d41-8d24-13ab2c7e0632',
    beneficiaryInstitution: '86a1e016-7c1e-47b9-9f22-6f939c3770ba',
    cpfs: [],
    cnpjs: [],
  },
  // The suite's webhook receiver: loopback, any free port, announced as it listens.
  receiver: { host: '127.0.0.1', port: 0, url: null },
};

/** The keys against `ofkit simulate --environment sandbox`: its sandbox key; a production key is the other's. */
export const SANDBOX_DEFAULT_KEYS: TargetConfig['keys'] = {
  primary: { id: 'ofkit-sandbox-key', secret: 'ofkit-sandbox-secret' },
  second: null,
  otherEnvironment: { id: 'ofkit-key-a', secret: 'ofkit-secret-a' },
};
