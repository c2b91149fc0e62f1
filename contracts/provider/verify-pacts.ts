/**
 * `pact verify`: runs the Pact Verifier against any base URL. Provider states are set up through the
 * provider's API and control API only (`provider-states.ts`); requests carry the provider's own Basic
 * credentials; pacts come from files, directories, URLs or a Pact Broker.
 */
import { resolve } from 'node:path';
import { Verifier, type VerifierOptions } from '@pact-foundation/pact';
import { DEFAULT_KEYS } from '../../simulator/src/config/simulator-config.js';
import { ACCEPTED_MFA_TOKEN } from '../../simulator/src/links/institutions/scenario-triggers.js';
import {
  createProviderApi,
  detectControlApi,
  type ProviderApi,
  type ProviderKey,
  providerAuthorization,
} from './provider-api.js';
import type { LinkCredentials } from './provider-states.js';
import { createStateHooks, type StateHooks, StateLog } from './state-handlers.js';
import { buildOutcomes, type VerificationReport, type VerifierResults } from './verification-report.js';

/** The committed reference pacts. */
export const REFERENCE_PACTS = resolve(import.meta.dirname, '../pacts');
export const DEFAULT_PROVIDER_NAME = 'open-finance-api';
/** The simulator's first production key (README). */
export const DEFAULT_KEY: ProviderKey = DEFAULT_KEYS[0]!;
/** A user of the simulator's catalogue: `ofbank_br_retail` asks for a CPF and a password. */
export const DEFAULT_CREDENTIALS: LinkCredentials = {
  institution: 'ofbank_br_retail',
  username: '76109277673',
  password: 'correct-horse',
};

/** Where pacts come from when not from files: the Verifier's broker options, passed through. */
export interface BrokerOptions {
  url: string;
  token?: string;
  username?: string;
  password?: string;
  consumerVersionSelectors?: VerifierOptions['consumerVersionSelectors'];
  consumerVersionTags?: string[];
  enablePending?: boolean;
  includeWipPactsSince?: string;
}

export interface VerifyOptions {
  baseUrl: string;
  /** Pact files, directories or URLs; default: the reference pacts (none when a broker is given). */
  pacts?: string[];
  broker?: BrokerOptions;
  /** The provider's name in the pacts and the broker (default `open-finance-api`). */
  providerName?: string;
  providerVersion?: string;
  providerVersionBranch?: string;
  providerVersionTags?: string[];
  /** Publish the results to the broker (needs `providerVersion`). */
  publish?: boolean;
  buildUrl?: string;
  key?: ProviderKey;
  credentials?: LinkCredentials;
  mfaToken?: string;
  logLevel?: 'trace' | 'debug' | 'info' | 'warn' | 'error';
}

/** Thrown when the Verifier could not run at all (no pacts, bad options, broker unreachable). */
export class VerificationError extends Error {}

/** pact-core validates every key it is given, `undefined` ones included: leave those out. */
const defined = <T extends object>(values: T): Partial<T> =>
  Object.fromEntries(Object.entries(values).filter(([, value]) => value !== undefined)) as Partial<T>;

/** Pact's recommended selection when none is given: the consumers' main branch and what is deployed. */
export const DEFAULT_SELECTORS = [{ mainBranch: true }, { deployedOrReleased: true }];

function brokerOptions(options: VerifyOptions) {
  const broker = options.broker;
  if (!broker) return {};
  const chosen = broker.consumerVersionSelectors !== undefined || broker.consumerVersionTags !== undefined;
  return defined({
    pactBrokerUrl: broker.url,
    pactBrokerToken: broker.token,
    pactBrokerUsername: broker.username,
    pactBrokerPassword: broker.password,
    consumerVersionSelectors: chosen ? broker.consumerVersionSelectors : DEFAULT_SELECTORS,
    consumerVersionTags: broker.consumerVersionTags,
    enablePending: broker.enablePending,
    includeWipPactsSince: broker.includeWipPactsSince,
  });
}

function publishOptions(options: VerifyOptions) {
  return defined({
    providerVersion: options.providerVersion,
    providerVersionBranch: options.providerVersionBranch,
    providerVersionTags: options.providerVersionTags,
    publishVerificationResult: options.publish || undefined,
    buildUrl: options.buildUrl,
  });
}

/** The verifier's JSON results: the resolved value, or the message of the rejection on failure. */
function resultsOf(outcome: PromiseSettledResult<string>): VerifierResults {
  const text = outcome.status === 'fulfilled' ? outcome.value : (outcome.reason as Error)?.message;
  try {
    return JSON.parse(String(text)) as VerifierResults;
  } catch {
    throw new VerificationError(`the Pact Verifier could not run: ${String(text)}`);
  }
}

/** API-ROOT: `GET /api/` answers 200 to valid credentials, so a refused key stops the run at once. */
async function checkCredentials(api: ProviderApi, key: ProviderKey): Promise<void> {
  const answer = await api.send('GET', '/api/').catch((error: Error) => {
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    const detail = cause ? ` (${cause.code ?? cause.message})` : '';
    throw new VerificationError(`cannot reach ${api.baseUrl}: ${error.message}${detail}`);
  });
  if (answer.status === 401) {
    throw new VerificationError(
      `${api.baseUrl} refuses the key ${key.secretId} (GET /api/ answered 401); pass --keys`,
    );
  }
}

/** The Pact Verifier with the state hooks, the provider's credentials and the pact sources. */
function verifierFor(options: VerifyOptions, baseUrl: string, key: ProviderKey, hooks: StateHooks): Verifier {
  const authorization = providerAuthorization(key);
  const pacts = options.pacts ?? (options.broker ? [] : [REFERENCE_PACTS]);
  return new Verifier({
    provider: options.providerName ?? DEFAULT_PROVIDER_NAME,
    providerBaseUrl: baseUrl,
    ...(pacts.length > 0 && { pactUrls: pacts }),
    ...brokerOptions(options),
    ...publishOptions(options),
    stateHandlers: hooks.stateHandlers,
    beforeEach: hooks.beforeEach,
    // AUTH-BASIC: the pact holds the consumer's example credentials; the provider gets its own.
    requestFilter: (
      request: { path?: string; body?: unknown; headers: Record<string, unknown> },
      _response: unknown,
      next: () => void,
    ) => {
      if (request.path === '/_pactSetup') hooks.observeStateCall(request.body);
      else request.headers.authorization = authorization;
      next();
    },
    logLevel: options.logLevel ?? 'warn',
  });
}

/** Verifies the pacts against `baseUrl` and reports interaction by interaction; never throws on mismatches. */
export async function verifyPacts(options: VerifyOptions): Promise<VerificationReport> {
  const started = performance.now();
  const key = options.key ?? DEFAULT_KEY;
  const api = createProviderApi(options.baseUrl, key);
  await checkCredentials(api, key);
  const controlApi = await detectControlApi(api);
  const context = {
    api,
    credentials: options.credentials ?? DEFAULT_CREDENTIALS,
    mfaToken: options.mfaToken ?? ACCEPTED_MFA_TOKEN,
    controlApi: controlApi.available,
  };
  const log = new StateLog();
  const verifier = verifierFor(options, api.baseUrl, key, createStateHooks(context, controlApi, log));
  const [settled] = await Promise.allSettled([verifier.verifyProvider()]);
  const { outcomes, unattributed } = buildOutcomes(resultsOf(settled!), log.interactions);
  if (outcomes.length === 0) {
    throw new VerificationError(
      `no interaction was verified: ${unattributed.join('; ') || 'no pacts found'}`,
    );
  }
  const ok = unattributed.length === 0 && outcomes.every((outcome) => outcome.status === 'passed');
  const seconds = (performance.now() - started) / 1000;
  return { baseUrl: api.baseUrl, controlApi, outcomes, unattributed, seconds, ok };
}
