/** Builds a simulator from its configuration: the documents, the stages, the tenants and the handlers. */
import { createApiDocument } from '../../openapi/document/api-document.js';
import { BUNDLED_DOCUMENTS, readBundledDocument } from '../../openapi/document/bundled-documents.js';
import type { JsonObject } from '../../openapi/document/json.js';
import { parseBrokenRules } from './broken-rules/breakable-rules.js';
import { systemTime } from './clock/system-time.js';
import { SNAPSHOT_MAX_BYTES } from './control/snapshot-limits.js';
import { linkedCollections } from './core/collections.js';
import type { RaisedEvent } from './core/events.js';
import type { SimRequest, SimResponse } from './core/http-types.js';
import { JobKinds } from './core/job-kinds.js';
import type { ApiKey, Environment } from './core/keys.js';
import type { TenantRuntime } from './core/tenant.js';
import { createTenantRegistry } from './core/tenant-registry.js';
import { createDashboard } from './dashboard/serve-dashboard.js';
import type { PrismFallback } from './fallback/prism-fallback.js';
import { createHandlerRegistry } from './handler-registry.js';
import { createIds, createRandom } from './ids/seeded-ids.js';
import { type AutomaticProbes, createJudgeObserver } from './judge/judge-observer.js';
import { createAuthenticator } from './pipeline/authenticate.js';
import { createPipeline } from './pipeline/pipeline.js';
import { MemoryStore } from './store/memory-store.js';
import type { Store } from './store/store.js';
import { createWebhookHub, type WebhookHub, type WebhookHubOptions } from './webhooks/webhook-emitter.js';
import type { WebhookDefaults } from './webhooks/webhook-state.js';

/** The store's scope of the simulator's own counters (not a tenant: the clock ticker skips `_` names). */
const SIMULATOR_SCOPE = '_ofkit';

export interface SimulatorOptions {
  seed: string;
  environment: Environment;
  keys: readonly ApiKey[];
  store?: Store;
  /**
   * This process's number among replicas sharing `store` (from 1; default 1): each draws ids from its own
   * stream so that two replicas never mint the same id.
   */
  replica?: number;
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
  /** Probes of the webhook receiver the judge sends on its own (`--webhook-duplicates`, `--webhook-forged`). */
  judgeProbes?: AutomaticProbes;
  /** Told of every webhook delivery attempt (the CLI prints them). */
  onWebhookAttempt?: WebhookHubOptions['onAttempt'];
  /** Told of every event a handler raises, before the webhook emitter (tests read events in process). */
  onEvent?: (tenantId: string, event: RaisedEvent) => void;
}

export interface Simulator {
  handle(request: SimRequest): Promise<SimResponse>;
  tenant(id: string): TenantRuntime;
  /** The tenants that have made a request so far to this process. */
  tenants(): TenantRuntime[];
  /** Every tenant with state in the store, this process's and other replicas' (the clock ticker's). */
  knownTenants(): Promise<TenantRuntime[]>;
  /** The webhook emitter: `idle()` awaits deliveries in flight, `close()` ends its connections. */
  webhooks: Pick<WebhookHub, 'idle' | 'close'>;
  fallbackOperations: string[];
  document: JsonObject;
  /** The kinds of jobs on tenants' clocks (an embedder or a test may define its own). */
  jobs: JobKinds;
}

/**
 * Prism's libraries (about a second to import) load on the first request an operation without a
 * stateful handler gets, or at start when there is one (none today): a start loads nothing it does not use.
 */
function lazyPrismFallback(): PrismFallback & { load(): Promise<PrismFallback> } {
  let loading: Promise<PrismFallback> | undefined;
  const load = () => {
    loading ??= import('./fallback/prism-fallback.js').then(({ createPrismFallback }) =>
      createPrismFallback(BUNDLED_DOCUMENTS.api),
    );
    return loading;
  };
  return { load, answer: async (request, requestId) => (await load()).answer(request, requestId) };
}

export async function createSimulator(options: SimulatorOptions): Promise<Simulator> {
  const brokenRules = parseBrokenRules(options.brokenRules ?? []);
  const api = readBundledDocument('api');
  const admin = readBundledDocument('admin');
  const store = options.store ?? new MemoryStore();
  const realTime = options.realTime ?? systemTime;
  // Replicas on one store number themselves in start order (the memory store's only process is 1).
  const replica = options.replica ?? (await store.nextSequence(SIMULATOR_SCOPE, 'replicas'));
  // The runners of the jobs on tenants' clocks, defined by the parts that schedule them.
  const jobs = new JobKinds();
  // The client judge's log: every API request and webhook delivery of each tenant (judge/).
  const judge = createJudgeObserver({
    realTime,
    tenantFor: (id) => tenantFor(id),
    probes: options.judgeProbes,
  });
  const webhooks = createWebhookHub({
    realTime,
    defaults: options.webhook,
    timeoutMs: options.webhookTimeoutMs,
    onAttempt: (report) => {
      judge.onAttempt(report);
      options.onWebhookAttempt?.(report);
    },
    jobs,
  });
  const tenantFor = createTenantRegistry({
    seed: options.seed,
    store,
    environment: options.environment,
    realTime,
    brokenRules,
    runJob: (tenant, job) => jobs.run(tenant, job),
    replica,
    emitterFor: (tenant) => {
      const emit = webhooks.emitterFor(tenant);
      const onEvent = options.onEvent;
      if (!onEvent) return emit;
      return (event) => {
        onEvent(tenant.id, event);
        emit(event);
      };
    },
  });
  const fallback = lazyPrismFallback();
  const pipeline = createPipeline({
    // The document's schemas are checked by the tests and linters, not on every start.
    documents: [api, admin].map((raw) => createApiDocument(raw, { checkSchemas: false })),
    authenticate: createAuthenticator(options.keys, options.environment, brokenRules),
    tenantFor,
    handlers: createHandlerRegistry({ document: api, dataCollections: linkedCollections(api), jobs }),
    fallback: (request, requestId) => fallback.answer(request, requestId),
    requestIds: createIds(createRandom(`${options.seed}/requests`)),
    maxBodyBytes: options.maxBodyBytes ?? 1_048_576,
    maxBodyBytesFor: { importSnapshot: SNAPSHOT_MAX_BYTES },
    brokenRules,
  });
  // getDashboardKeys is in the admin document but answered by the dashboard before the pipeline: counting
  // it loaded Prism's libraries (about 2 s of imports) at every start for an operation it never serves.
  const fallbackOperations = pipeline.fallbackOperations.filter((id) => id !== 'getDashboardKeys');
  if (fallbackOperations.length > 0) await fallback.load();
  // The dashboard's files and keys (`/_ofkit/ui/`) are answered before the pipeline: no credentials.
  const dashboard = createDashboard({
    keys: options.keys,
    environment: options.environment,
    api,
    admin,
    requestId: (
      (ids) => () =>
        ids.hex(32)
    )(createIds(createRandom(`${options.seed}/dashboard`))),
  });
  const handle = judge.wrap(pipeline.handle);
  return {
    handle: async (request) => dashboard(request) ?? handle(request),
    tenant: tenantFor,
    tenants: tenantFor.all,
    knownTenants: tenantFor.known,
    webhooks: { idle: webhooks.idle, close: webhooks.close },
    fallbackOperations,
    document: api,
    jobs,
  };
}
