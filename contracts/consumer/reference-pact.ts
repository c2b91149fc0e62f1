/**
 * The reference consumer's Pact: its names, where the pact file goes, and the typed client pointed at
 * the Pact mock server. Every consumer test builds its interactions from here.
 */
import { existsSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { MatchersV3, PactV4, SpecificationVersion, type V3MockServer } from '@pact-foundation/pact';
import { inject } from 'vitest';
import { createOfkitClient, type OfkitClient } from '../../openapi/client/index.js';
import { basicAuthorization } from '../../openapi/config/api-keys.js';

export const CONSUMER = 'ofkit-reference-client';
export const PROVIDER = 'open-finance-api';
/** Committed: the contracts a provider verifies and `pact check-spec` reads. */
export const PACTS_DIR = resolve(import.meta.dirname, '../pacts');
export const PACT_FILE = join(PACTS_DIR, `${CONSUMER}-${PROVIDER}.json`);

/** The pact file the consumer tests wrote in this run, or the committed one when they did not run. */
export function pactFileOfRun(): string {
  const written = join(inject('pactRunDir'), basename(PACT_FILE));
  return existsSync(written) ? written : PACT_FILE;
}

/**
 * Consumer-side keys. Any Basic credentials do: the pact matches the header's form only, and the
 * verifier swaps in the provider's own keys (AUTH-BASIC, CLIENT-NO-SECRETS).
 */
const CONSUMER_KEYS = { secretId: 'reference-client', secretPassword: 'reference-secret' };
const BASIC = basicAuthorization(CONSUMER_KEYS.secretId, CONSUMER_KEYS.secretPassword);

/** AUTH-BASIC: every request carries Basic credentials. */
export const AUTHORIZATION = { Authorization: MatchersV3.regex('^Basic [A-Za-z0-9+/]+=*$', BASIC) };
/** Request headers of a JSON body. */
export const JSON_REQUEST = { ...AUTHORIZATION, 'Content-Type': 'application/json' };

/**
 * A fresh PactV4 (spec v4); interactions of every test file are merged into the one pact file, written
 * into the run's folder (contracts/pact-run.ts moves it over the committed one when the run has passed).
 */
export function createReferencePact(): PactV4 {
  return new PactV4({
    consumer: CONSUMER,
    provider: PROVIDER,
    dir: inject('pactRunDir'),
    spec: SpecificationVersion.SPECIFICATION_VERSION_V4,
    logLevel: 'warn',
  });
}

/**
 * The Rust mock server can answer a request before it has recorded the match, so a busy machine reads
 * "expected but not received" for a request it answered (pact-foundation/pact-reference#535, from
 * pact 16.3.0). A short pause after each answer lets the bookkeeping finish. One connection per request
 * too: mock servers come and go on ports the OS reuses, and a kept-alive socket must not outlive one.
 */
const SETTLE_MS = 40;
async function fetchAndSettle(request: Request): Promise<Response> {
  request.headers.set('connection', 'close');
  const response = await globalThis.fetch(request);
  await sleep(SETTLE_MS);
  return response;
}

/** The typed client against the mock server; a 50x is never scripted here, so retries never wait. */
export function clientFor(mockServer: V3MockServer): OfkitClient {
  return createOfkitClient({
    baseUrl: mockServer.url,
    ...CONSUMER_KEYS,
    fetch: fetchAndSettle,
    sleep: async () => undefined,
  });
}
