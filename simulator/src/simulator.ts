/** Builds a simulator from its configuration: the documents, the stages, the tenants and the handlers. */
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { JsonObject } from '../../openapi/validation/document-ajv.js';
import { systemTime } from './clock/system-time.js';
import type { SimRequest, SimResponse } from './core/http-types.js';
import { createPrismFallback } from './fallback/prism-fallback.js';
import { createHandlerRegistry } from './handlers/registry.js';
import { createIds, createRandom } from './ids/seeded-ids.js';
import { type ApiKey, createAuthenticator, type Environment } from './pipeline/authenticate.js';
import { createPipeline } from './pipeline/pipeline.js';
import { MemoryStore } from './store/memory-store.js';
import type { Store } from './store/store.js';
import { createTenantRegistry, type TenantRuntime } from './tenants/tenant-runtime.js';

const GENERATED = resolve(import.meta.dirname, '../../openapi/generated');

export interface SimulatorOptions {
  seed: string;
  environment: Environment;
  keys: readonly ApiKey[];
  store?: Store;
  /** The machine's time; tests pass a fixed one. */
  realTime?: () => number;
  maxBodyBytes?: number;
  /** Rule IDs to break on purpose (proves the conformance suite and Pact verification catch it). */
  brokenRules?: readonly string[];
}

export interface Simulator {
  handle(request: SimRequest): Promise<SimResponse>;
  tenant(id: string): TenantRuntime;
  fallbackOperations: string[];
  document: JsonObject;
}

const readDocument = (name: string) => JSON.parse(readFileSync(join(GENERATED, name), 'utf8')) as JsonObject;

/** Collection paths of the data resources: every `/api/` list whose records carry a `link`. */
function dataCollections(document: JsonObject): string[] {
  const paths = Object.keys((document.paths ?? {}) as JsonObject);
  const excluded = new Set(['/api/', '/api/links/', '/api/institutions/', '/api/token/']);
  return paths.filter((path) => path.startsWith('/api/') && !path.includes('{') && !excluded.has(path));
}

export async function createSimulator(options: SimulatorOptions): Promise<Simulator> {
  const api = readDocument('openapi.json');
  const admin = readDocument('admin.json');
  const store = options.store ?? new MemoryStore();
  const tenantFor = createTenantRegistry({
    seed: options.seed,
    store,
    environment: options.environment,
    realTime: options.realTime ?? systemTime,
    brokenRules: new Set(options.brokenRules ?? []),
  });
  const fallback = await createPrismFallback(join(GENERATED, 'openapi.json'));
  const pipeline = createPipeline({
    documents: [api, admin],
    authenticate: createAuthenticator(options.keys, options.environment),
    tenantFor,
    handlers: createHandlerRegistry({ document: api, dataCollections: dataCollections(api) }),
    fallback: (request, requestId) => fallback.answer(request, requestId),
    requestIds: createIds(createRandom(`${options.seed}/requests`)),
    maxBodyBytes: options.maxBodyBytes ?? 1_048_576,
  });
  return {
    handle: pipeline.handle,
    tenant: tenantFor,
    fallbackOperations: pipeline.fallbackOperations,
    document: api,
  };
}
