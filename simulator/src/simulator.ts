/** Builds a simulator from its configuration: the documents, the stages, the tenants and the handlers. */
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { JsonObject } from '../../openapi/validation/document-ajv.js';
import { parseBrokenRules } from './broken-rules/breakable-rules.js';
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
import { createWebhookHub, type WebhookHub, type WebhookHubOptions } from './webhooks/webhook-emitter.js';
import type { WebhookDefaults } from './webhooks/webhook-state.js';

const GENERATED = resolve(import.meta.dirname, '../../openapi/generated');

export interface SimulatorOptions {
  seed: string;
  environment: Environment;
  keys: readonly ApiKey[];
  store?: Store;
  /** The machine's time; tests pass a fixed one. */
  realTime?: () => number;
  maxBodyBytes?: number;
  /**
   * Rule IDs to break on purpose (proves the conformance suite and Pact verification catch it); an ID
   * the catalogue (broken-rules/breakable-rules.ts) does not know throws UnknownRuleError.
   */
  brokenRules?: readonly string[];
  /** The webhook receiver every tenant starts with (`--webhook-url`, `--webhook-bearer`). */
  webhook?: WebhookDefaults;
  /** Time-out of one webhook delivery attempt; default 10 s. */
  webhookTimeoutMs?: number;
  /** Told of every webhook delivery attempt (the CLI prints them). */
  onWebhookAttempt?: WebhookHubOptions['onAttempt'];
}

export interface Simulator {
  handle(request: SimRequest): Promise<SimResponse>;
  tenant(id: string): TenantRuntime;
  /** The tenants that have made a request so far (the clock ticker runs their due jobs). */
  tenants(): TenantRuntime[];
  /** The webhook emitter: `idle()` awaits deliveries in flight, `close()` ends its connections. */
  webhooks: Pick<WebhookHub, 'idle' | 'close'>;
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
  const brokenRules = parseBrokenRules(options.brokenRules ?? []);
  const api = readDocument('openapi.json');
  const admin = readDocument('admin.json');
  const store = options.store ?? new MemoryStore();
  const realTime = options.realTime ?? systemTime;
  const webhooks = createWebhookHub({
    realTime,
    defaults: options.webhook,
    timeoutMs: options.webhookTimeoutMs,
    onAttempt: options.onWebhookAttempt,
  });
  const tenantFor = createTenantRegistry({
    seed: options.seed,
    store,
    environment: options.environment,
    realTime,
    brokenRules,
    emitterFor: webhooks.emitterFor,
  });
  const fallback = await createPrismFallback(join(GENERATED, 'openapi.json'));
  const pipeline = createPipeline({
    documents: [api, admin],
    authenticate: createAuthenticator(options.keys, options.environment, brokenRules),
    tenantFor,
    handlers: createHandlerRegistry({ document: api, dataCollections: dataCollections(api) }),
    fallback: (request, requestId) => fallback.answer(request, requestId),
    requestIds: createIds(createRandom(`${options.seed}/requests`)),
    maxBodyBytes: options.maxBodyBytes ?? 1_048_576,
    brokenRules,
  });
  return {
    handle: pipeline.handle,
    tenant: tenantFor,
    tenants: tenantFor.all,
    webhooks: { idle: webhooks.idle, close: webhooks.close },
    fallbackOperations: pipeline.fallbackOperations,
    document: api,
  };
}
