/**
 * The simulator's assembly: the documents, the handlers of every area, the rule policy and the stages
 * (with the breaks asked for composed around them), the tenants, the webhooks and the judge.
 */

import { ConfigError } from '../../openapi/config/config-error.js';
import { importWithPeers } from '../../openapi/config/optional-peers.js';
import { bundledApiDocument } from '../../openapi/document/api-document.js';
import type { JsonObject } from '../../openapi/document/json.js';
import { applyBreaks, type BrokenRulesOption, breaksAskedBy } from './broken-rules/breakable-rules.js';
import type { Edges } from './broken-rules/edges.js';
import { systemTime } from './clock/system-time.js';
import { SNAPSHOT_IMPORT_ROUTE, SNAPSHOT_MAX_BYTES } from './control/snapshot-limits.js';
import { takeImportLease } from './control/snapshot-lock.js';
import { apiError } from './core/api-error.js';
import { linkedCollections } from './core/collections.js';
import type { RaisedEvent, RaiseEvent } from './core/events.js';
import type { HandlerRegistry } from './core/handler.js';
import type { Admission, RequestHead, SimRequest, SimResponse } from './core/http-types.js';
import { JobKinds } from './core/job-kinds.js';
import type { ApiKey, Environment } from './core/keys.js';
import { defaultRulePolicy } from './core/rule-policy.js';
import { type StandingSituation, standOn } from './core/standing-situation.js';
import { storeFailureErrors } from './core/store-errors.js';
import type { TenantRuntime } from './core/tenant.js';
import { createTenantRegistry } from './core/tenant-registry.js';
import { createDashboard } from './dashboard/serve-dashboard.js';
import { type DocumentOverlay, loadDocumentOverlay } from './fallback/document-overlay.js';
import type { PrismFallback } from './fallback/prism-fallback.js';
import { createHandlerRegistry } from './handler-registry.js';
import { createIds, createRandom } from './ids/seeded-ids.js';
import { createJudgeLog, type JudgeLog } from './judge/judge-log.js';
import { type AutomaticProbes, createJudgeObserver } from './judge/judge-observer.js';
import { createAuthenticator } from './pipeline/authenticate.js';
import { createPipeline, type Fallback } from './pipeline/pipeline.js';
import { createRouter } from './pipeline/route.js';
import { renderErrors } from './pipeline/serialize.js';
import { createValidator } from './pipeline/validate.js';
import { stormAnswers } from './situations/storm-answers.js';
import { stormSwitch } from './situations/storm-switch.js';
import { MemoryStore } from './store/memory-store.js';
import type { Store } from './store/store.js';
import { postWebhook } from './webhooks/delivery.js';
import type { DestinationRules } from './webhooks/destinations.js';
import { createWebhookHub, type WebhookHub, type WebhookHubOptions } from './webhooks/webhook-emitter.js';
import type { WebhookDefaults } from './webhooks/webhook-state.js';

/** The store's scope of the simulator's own counters (not a tenant: the clock ticker skips `_` names). */
const SIMULATOR_SCOPE = '_ofkit';

/** The request body limit, 1 MiB, unless a simulator is given another (`maxBodyBytes`). */
export const DEFAULT_MAX_BODY_BYTES = 1_048_576;

export interface SimulatorOptions extends BrokenRulesOption {
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
  /** The largest request body read (413 past it); default `DEFAULT_MAX_BODY_BYTES`. */
  maxBodyBytes?: number;
  /**
   * @deprecated Ignored, with a warning: every operation of the bundled document has a handler, so
   * Prism had nothing to answer. A newer document's operations are Prism's through `document`.
   */
  prismFallback?: boolean;
  /**
   * A user's own OpenAPI document (a path; JSON or YAML, one file), e.g. a newer version of the
   * provider's: the operations the bundled document lacks are routed and validated by it and answered by
   * Prism from its examples; every other operation stays stateful (fallback/document-overlay.ts).
   */
  document?: string;
  /** The webhook receiver every tenant starts with (`--webhook-url`, `--webhook-bearer`). */
  webhook?: WebhookDefaults;
  /** Time-out of one webhook delivery attempt; default 10 s. */
  webhookTimeoutMs?: number;
  /**
   * Where webhooks (and the judge's probes) may go: anywhere by default; startSimulator restricts a
   * simulator listening beyond loopback (webhooks/destinations.ts, `--webhook-allow`).
   */
  webhookDestinations?: DestinationRules;
  /**
   * The client judge (default true): every API request and webhook delivery of each tenant logged in
   * the store and judged when read. false (`--no-judge`) takes it out entirely: nothing is logged, and
   * the control API's judge operations answer 409 `judge_off`.
   */
  judge?: boolean;
  /** Probes of the webhook receiver the judge sends on its own (`--webhook-duplicates`, `--webhook-forged`). */
  judgeProbes?: AutomaticProbes;
  /** The forward-compatibility storm on for every tenant that set nothing (`--storm`; default false). */
  storm?: boolean;
  /**
   * Every recurrent link registered gets the life script of this many days (`--recurrent-life DAYS`;
   * control/recurrent-life.ts), as `POST /_ofkit/recurrent-lives/` gives it to one link.
   */
  recurrentLife?: number;
  /**
   * Faults, scenario switches and a clock script armed on the tenant of every key at start and again
   * after each reset (`ofkit golive`'s situations): a client's tests that reset between their cases
   * meet them in every case.
   */
  standing?: StandingSituation;
  /**
   * Told when the store refuses a write of the judge's log (the entry is lost; the request is not
   * failed), once until a write succeeds again; default: a process warning.
   */
  onJudgeLogError?: (error: Error) => void;
  /** Told of every webhook delivery attempt (the CLI prints them). */
  onWebhookAttempt?: WebhookHubOptions['onAttempt'];
  /** Told of every event a handler raises, before the webhook emitter (tests read events in process). */
  onEvent?: (tenantId: string, event: RaisedEvent) => void;
  /**
   * Told of every request answered (the API, the control API, the dashboard) with its response, before
   * it goes out: a log, or a test's check of the answer against the document. What it throws is an
   * internal error of that request.
   */
  onExchange?: (request: SimRequest, response: SimResponse) => void;
}

export interface Simulator {
  handle(request: SimRequest): Promise<SimResponse>;
  /**
   * Whether a request's body may be read, from its head alone: only a caller the authentication stage
   * knows (an unknown caller's body is never buffered nor parsed), and one snapshot import at a time
   * per tenant, across replicas (`done` gives the import back once it is answered).
   */
  admit(head: RequestHead): Promise<Admission>;
  tenant(id: string): TenantRuntime;
  /** The tenants that have made a request so far to this process. */
  tenants(): TenantRuntime[];
  /** Every tenant with state in the store, this process's and other replicas' (the clock ticker's). */
  knownTenants(): Promise<TenantRuntime[]>;
  /**
   * Takes no more jobs, lets those running finish for `graceMs`, then hands the rest back to the store
   * (another replica runs them): a replica stopped gracefully holds no job.
   */
  stopJobs(graceMs: number): Promise<void>;
  /** The webhook emitter: `idle()` awaits deliveries in flight, `close()` ends its connections. */
  webhooks: Pick<WebhookHub, 'idle' | 'close'>;
  /** operationIds of the bundled document no handler serves (none: they would answer 500 naming it). */
  unservedOperations: string[];
  /** The operations of the `document` option's file the bundled document lacks (Prism answers them). */
  documentOperations: string[];
  document: JsonObject;
  /** The kinds of jobs on tenants' clocks (an embedder or a test may define its own). */
  jobs: JobKinds;
  /** The client judge's log of every tenant (in the store); null without the judge. */
  judge: JudgeLog | null;
}

/** Prism's reading of a user's document; what it cannot read is the user's to fix, on one line. */
async function prismOver(
  path: string,
  create: (path: string) => Promise<PrismFallback>,
): Promise<PrismFallback> {
  try {
    return await create(path);
  } catch (error) {
    const reason = (error as Error).message.split('\n')[0];
    throw new ConfigError(`--document ${path}: Prism cannot read it: ${reason}`);
  }
}

/** `prismFallback`, deprecated: said once per process, then ignored. */
function warnPrismFallback(options: SimulatorOptions): void {
  if (options.prismFallback === undefined) return;
  process.emitWarning(
    'prismFallback is ignored: every operation of the bundled document has a handler; a newer document goes in `document` (--document)',
    { type: 'DeprecationWarning', code: 'OFKIT_PRISM_FALLBACK' },
  );
}

/**
 * Prism's mocker (about a second of imports, loaded only for a user's document): the operations of
 * that document the bundled one lacks, from its examples.
 */
async function loadPrismFallback(overlay?: DocumentOverlay): Promise<Fallback | undefined> {
  if (!overlay) return undefined;
  const { createPrismFallback } = await importWithPeers(
    () => import('./fallback/prism-fallback.js'),
    ['@stoplight/prism-core', '@stoplight/prism-http'],
    '--document',
  );
  const theirs = await prismOver(overlay.path, createPrismFallback);
  return async (request, requestId, operation) =>
    overlay.document.operation(operation.operationId) ? theirs.answer(request, requestId) : undefined;
}

/** The stages, store, emitter and webhook POST of a simulator that breaks nothing. */
function specEdges(options: SimulatorOptions, store: Store, handlers: HandlerRegistry): Edges {
  return {
    stages: {
      makeRouter: createRouter,
      authenticate: createAuthenticator(options.keys, options.environment),
      validatorFor: createValidator,
      handlers,
      renderSuccess: (response) => response,
      renderErrors,
    },
    store,
    emitFor: (_tenant, emit) => emit,
    post: postWebhook,
  };
}

/** The document's schemas are checked by the tests and linters, not on every start. */
const NO_SCHEMA_CHECK = { checkSchemas: false } as const;

export async function createSimulator(options: SimulatorOptions): Promise<Simulator> {
  warnPrismFallback(options);
  const broken = breaksAskedBy(options);
  // Read once per process and shared, frozen, by every simulator of it (they only read it).
  const [api, admin] = [
    bundledApiDocument('api', NO_SCHEMA_CHECK),
    bundledApiDocument('admin', NO_SCHEMA_CHECK),
  ];
  const overlay = options.document ? loadDocumentOverlay(options.document, api.operations) : undefined;
  const store = options.store ?? new MemoryStore();
  const realTime = options.realTime ?? systemTime;
  // Replicas on one store number themselves in start order (the memory store's only process is 1).
  const replica = options.replica ?? (await store.nextSequence(SIMULATOR_SCOPE, 'replicas'));
  // The runners of the jobs on tenants' clocks, defined by the parts that schedule them.
  const jobs = new JobKinds();
  const judgeLog = judgeLogOf(options, store);
  const storm = stormSwitch(options.storm ?? false);
  const handlers = createHandlerRegistry({
    storm,
    ...(options.recurrentLife !== undefined && { recurrentLife: options.recurrentLife }),
    document: api,
    dataCollections: linkedCollections(api),
    jobs,
    judge: judgeLog,
  });
  const context = { keys: options.keys, environment: options.environment, operations: api.operations };
  const { policy, edges } = applyBreaks(
    broken,
    defaultRulePolicy(api),
    specEdges(options, store, handlers),
    context,
  );
  // The client judge: every API request and webhook delivery of each tenant, logged (judge/).
  const judge =
    judgeLog &&
    createJudgeObserver({
      log: judgeLog,
      keys: options.keys,
      realTime,
      tenantFor: (id) => tenantFor(id),
      probes: options.judgeProbes,
    });
  const webhooks = createWebhookHub({
    realTime,
    defaults: options.webhook,
    timeoutMs: options.webhookTimeoutMs,
    onAttempt: (report) => {
      judge?.onAttempt(report);
      options.onWebhookAttempt?.(report);
    },
    jobs,
    post: edges.post,
    ...(options.webhookDestinations && { destinations: options.webhookDestinations }),
    storm,
  });
  const tenantFor = createTenantRegistry({
    seed: options.seed,
    store: edges.store,
    environment: options.environment,
    realTime,
    policy,
    runJob: (tenant, job, keep) => jobs.run(tenant, job, keep),
    replica,
    emitterFor: (tenant) => {
      const emit = webhooks.emitterFor(tenant);
      const onEvent = options.onEvent;
      const heard: RaiseEvent = (event) => {
        onEvent?.(tenant.id, event);
        return emit(event);
      };
      return edges.emitFor(tenant, heard);
    },
  });
  const pipeline = createPipeline({
    documents: overlay ? [api, admin, overlay.document] : [api, admin],
    stages: edges.stages,
    tenantFor,
    fallback: await loadPrismFallback(overlay),
    requestIds: createIds(createRandom(`${options.seed}/requests`)),
    maxBodyBytes: options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES,
    maxBodyBytesFor: { importSnapshot: SNAPSHOT_MAX_BYTES },
  });
  // The dashboard's files and keys (`/_ofkit/ui/`) are answered before the pipeline: no credentials.
  const dashboardIds = createIds(createRandom(`${options.seed}/dashboard`));
  const dashboard = createDashboard({
    keys: options.keys,
    environment: options.environment,
    api: api.raw,
    admin: admin.raw,
    requestId: () => dashboardIds.hex(32),
  });
  // Inside the judge: it judges the answers as the client got them.
  const stormed = stormAnswers(pipeline.handle, storm, tenantFor);
  const handle = judge ? judge.wrap(stormed) : (request: SimRequest) => stormed(request, {});
  const admit = admission(edges.stages.authenticate, tenantFor, replica, realTime);
  const standing = options.standing;
  if (standing) for (const key of options.keys) await standOn(tenantFor(key.secretId), standing);
  return {
    handle: async (request) => {
      const response = dashboard(request) ?? (await handle(request));
      options.onExchange?.(request, response);
      return response;
    },
    admit: async (head) => {
      const admitted = await admit(head);
      if (!admitted.read && admitted.answer)
        options.onExchange?.(
          { ...head, query: new URLSearchParams(), body: '', origin: '' },
          admitted.answer,
        );
      return admitted;
    },
    tenant: tenantFor,
    tenants: tenantFor.all,
    knownTenants: tenantFor.known,
    stopJobs: tenantFor.stopJobs,
    webhooks: { idle: webhooks.idle, close: webhooks.close },
    // getDashboardKeys is in the admin document but answered by the dashboard before the pipeline.
    unservedOperations: pipeline.unservedOperations.filter(
      (id) => id !== 'getDashboardKeys' && !overlay?.document.operation(id),
    ),
    documentOperations: overlay?.document.operations.map((operation) => operation.operationId) ?? [],
    document: api.raw,
    jobs,
    judge: judgeLog,
  };
}

/**
 * The admission of a request's body: its caller's credentials first (the authentication stage as the
 * assembly composed it), then, for a snapshot import, the tenant's import lease.
 */
function admission(
  authenticate: Edges['stages']['authenticate'],
  tenantFor: (id: string) => TenantRuntime,
  replica: number,
  realTime: () => number,
): (head: RequestHead) => Promise<Admission> {
  let imports = 0;
  const ids = createIds(createRandom(`admission/${replica}`));
  return async (head) => {
    const caller = authenticate(head);
    if (!caller.ok) return { read: false };
    if (`${head.method} ${head.path}` !== SNAPSHOT_IMPORT_ROUTE) return { read: true };
    imports += 1;
    const owner = `replica ${replica}, import ${imports}`;
    try {
      const release = await takeImportLease(tenantFor(caller.value.id), owner, realTime);
      if (release) return { read: true, done: release };
      return { read: false, answer: renderErrors(apiError('import_in_progress'), ids.hex(32)) };
    } catch (cause) {
      // The store (Redis) cannot be reached: said as the pipeline says it, the body left unread.
      const failed = storeFailureErrors(cause);
      if (!failed) throw cause;
      return { read: false, answer: renderErrors(failed, ids.hex(32)) };
    }
  };
}

/** The judge's log in the (unbroken) store, or null without the judge; probes need the judge. */
function judgeLogOf(options: SimulatorOptions, store: Store): JudgeLog | null {
  if (options.judge === false) {
    const { duplicates, forged } = options.judgeProbes ?? {};
    if (duplicates || forged) throw new Error('judgeProbes need the judge: drop judge: false');
    return null;
  }
  const onError =
    options.onJudgeLogError ?? ((error: Error) => process.emitWarning(error.message, 'OfkitJudgeWarning'));
  return createJudgeLog({ store, onError });
}
