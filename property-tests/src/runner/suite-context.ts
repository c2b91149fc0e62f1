/**
 * What every rule of a run sees (SuiteContext), built once before the rules run: the target's
 * capabilities, the tenant claimed (tenancy.ts: reset only when that loses nothing, or when told to),
 * the run's scope of operations, and the registrations (registrations.ts: the config's, else the
 * defaults or the target's own institutions).
 */
import type { ApiDocument } from '../../../openapi/document/api-document.js';
import { isObject, type JsonObject } from '../../../openapi/document/json.js';
import { createSchemaArbitraries } from '../arbitraries/schema-arbitrary.js';
import type { HttpClient, HttpSession } from '../http/http-client.js';
import type { SuiteContext } from '../rules/rule.js';
import { detectCapabilities, withTenancy } from '../target/capabilities.js';
import { unavailableOperations } from '../target/environment.js';
import { createFixtures } from '../target/fixtures.js';
import { type Registrations, resolveRegistrations } from '../target/registrations.js';
import type { TargetConfig } from '../target/target-config.js';
import { claimTenant, type ResetPolicy, type Tenancy } from '../target/tenancy.js';
import { scopedOperations } from './scope.js';

export interface BuiltContext {
  suite: SuiteContext;
  tenancy: Tenancy | null;
  registrations: Registrations;
}

/** The target's institutions (every page), or undefined when its list cannot be read. */
async function institutionsOf(http: HttpSession): Promise<JsonObject[] | undefined> {
  const records: JsonObject[] = [];
  for (let page = 1; page <= 20; page += 1) {
    const query = { page: String(page), page_size: '1000' };
    const answer = await http.request({ method: 'GET', url: '/api/institutions/', query });
    const body = answer.json;
    if (answer.status !== 200 || !isObject(body) || !Array.isArray(body.results)) return undefined;
    records.push(...body.results.filter(isObject));
    if (body.next === null || body.results.length === 0) break;
  }
  return records;
}

/** `--reset` wins; the config's `resetBeforeRun: false` never resets; else only a tenant holding nothing. */
const policyOf = (config: TargetConfig, reset: boolean): ResetPolicy =>
  reset ? 'always' : config.resetBeforeRun ? 'if-empty' : 'never';

export async function buildContext(
  config: TargetConfig,
  document: ApiDocument,
  client: HttpClient,
  options: { strict: boolean; reset: boolean },
): Promise<BuiltContext> {
  const detected = await detectCapabilities(client, config);
  const http = client.session();
  const tenancy = detected.controlApi ? await claimTenant(http, policyOf(config, options.reset)) : null;
  const capabilities = tenancy ? withTenancy(detected, tenancy) : detected;
  const operations = scopedOperations(
    document.operations,
    config.operations.include,
    config.operations.exclude,
  );
  // A target that does not answer here is met by the rules, which say so (a stopped run).
  const institutions = await institutionsOf(http).catch(() => undefined);
  const registrations = resolveRegistrations(config, institutions);
  const runConfig: TargetConfig = Object.freeze({ ...config, fixtures: registrations.fixtures });
  const suite: SuiteContext = {
    config: runConfig,
    capabilities,
    document,
    schemas: createSchemaArbitraries({ resolve: document.resolve, ajv: document.ajv }),
    operations,
    environment: capabilities.environment,
    unavailable: unavailableOperations(document, capabilities.environment),
    fixtures: createFixtures(runConfig, http, registrations),
    http,
    strict: options.strict,
  };
  return { suite, tenancy, registrations };
}
