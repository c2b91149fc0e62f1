import { sharedBundledDocument } from '../../openapi/document/bundled-documents.js';
import { withClosedResponses } from '../../openapi/document/closed-responses.js';
import { createDocumentAjv, describeErrors } from '../../openapi/document/document-ajv.js';
import type { JsonObject } from '../../openapi/document/json.js';
import { indexOperations } from '../../openapi/document/operation-index.js';
import { projectedSchema, SHAPED_STATUSES, shapingOf } from '../../openapi/document/projected-schema.js';
import type { RaisedEvent } from '../src/core/events.js';
import type { SimResponse } from '../src/core/http-types.js';
import type { ApiKey, Environment } from '../src/core/keys.js';
import { withSentValues } from '../src/core/sent-values.js';
import { DASHBOARD_PREFIX } from '../src/dashboard/serve-dashboard.js';
import { createRouter } from '../src/pipeline/route.js';
import { createSimulator, type Simulator, type SimulatorOptions } from '../src/simulator.js';
import { isStormAnswer } from '../src/situations/storm-switch.js';
import type { Store } from '../src/store/store.js';

export const TEST_KEYS: ApiKey[] = [
  { secretId: 'tenant-a', secretPassword: 'secret-a', environment: 'production' },
  { secretId: 'tenant-b', secretPassword: 'secret-b', environment: 'production' },
  { secretId: 'sandbox-key', secretPassword: 'sandbox-secret', environment: 'sandbox' },
];
/** The fixed "real" time of every test: Monday 2026-11-02 12:00:00 UTC. */
export const FIXED_NOW = Date.parse('2026-11-02T12:00:00.000Z');
/** Statuses any request can get before an operation is known; their body is the error array. */
const PRE_OPERATION_STATUSES = new Set([401, 404, 405, 413, 415]);
const CONTROL_PREFIX = '/_ofkit/';

export interface CallOptions {
  body?: unknown;
  rawBody?: string;
  headers?: Record<string, string>;
  query?: Record<string, string | number>;
  /** `secretId:secretPassword`, or null for no Authorization header. Default: tenant-a. */
  as?: string | null;
}

export interface CallResult {
  status: number;
  // biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary response members; the harness validated them
  body: any;
  headers: Record<string, string>;
}

export interface CheckedSimulatorOptions {
  /** The machine's time as the simulator sees it; default FIXED_NOW forever. */
  realTime?: () => number;
  /** The simulator's environment; calls default to the first test key of it. Default production. */
  environment?: Environment;
  /** Where the simulator keeps its state; default a fresh MemoryStore. */
  store?: Store;
  /** A situation armed at start and after each reset (SimulatorOptions.standing). */
  standing?: SimulatorOptions['standing'];
}

export interface CheckedSimulator {
  simulator: Simulator;
  call(method: string, path: string, options?: CallOptions): Promise<CallResult>;
  /** The events handlers raised for a tenant so far, in order (collected through `onEvent`). */
  events(tenant: string): RaisedEvent[];
}

/** What checks responses against one document: its operations' router, its Ajv, its error list. */
export interface DocumentChecker {
  /** The document as checked: its responses closed. */
  document: JsonObject;
  ajv: ReturnType<typeof createDocumentAjv>;
  route: ReturnType<typeof createRouter>;
  errorList: JsonObject;
}

/** Builds the checker of one document (also for tests that call a simulator over HTTP). */
export function documentChecker(document: JsonObject): DocumentChecker {
  // The document's responses are open; the simulator still sends exactly the members it names.
  const closed = withClosedResponses(document);
  return {
    document: closed,
    ajv: createDocumentAjv(closed),
    route: createRouter(indexOperations(document).values()),
    errorList: { $ref: '#/components/schemas/ErrorList' },
  };
}

/**
 * A success answer shaped by `fields` / `omit` holds the kept members of each record only: it is checked
 * against the projected schema (openapi/document/projected-schema.ts), the rest against the document's.
 */
function shapedSchema(
  checker: DocumentChecker,
  schema: unknown,
  status: number,
  declared: boolean,
  query: URLSearchParams | undefined,
): unknown {
  const shaping = query && declared && SHAPED_STATUSES.has(status) ? shapingOf(query) : undefined;
  return shaping === undefined ? schema : projectedSchema(checker.document, schema as JsonObject, shaping);
}

/** Throws when `response` (to a request with `query`, when given) is not what the document declares. */
export function checkAgainstDocument(
  checker: DocumentChecker,
  method: string,
  path: string,
  response: SimResponse,
  query?: URLSearchParams,
): void {
  const { ajv, route, errorList } = checker;
  const routed = route(method, path);
  const where = `${method} ${path} -> ${response.status}`;
  let schema: unknown;
  if (routed.ok && routed.value.operation.responses.has(String(response.status))) {
    const { operation } = routed.value;
    const declared = operation.parameters.some(
      (p) => p.in === 'query' && ['fields', 'omit'].includes(p.name),
    );
    schema = shapedSchema(
      checker,
      operation.responses.get(String(response.status))?.schema,
      response.status,
      declared,
      query,
    );
  } else if (PRE_OPERATION_STATUSES.has(response.status) || !routed.ok) {
    schema = errorList;
  } else {
    throw new Error(
      `Contract violation: ${where} is not a status the document declares for ${routed.value.operation.operationId}`,
    );
  }
  if (schema === undefined) {
    if (response.body !== undefined)
      throw new Error(`Contract violation: ${where} has a body but the document declares none`);
    return;
  }
  const validate = ajv.compile(schema as JsonObject);
  if (!validate(response.body)) {
    throw new Error(
      `Contract violation: ${where}: ${describeErrors(validate).join('; ')}\n${JSON.stringify(response.body).slice(0, 800)}`,
    );
  }
}

/** Throws when `response` breaks the document of `path` (the API's, or admin.yaml's under `/_ofkit/`). */
export type ContractCheck = (
  method: string,
  path: string,
  response: SimResponse,
  query?: URLSearchParams,
) => void;

/**
 * The check `call()` applies, for tests that reach the simulator another way (over HTTP): the API's
 * answers against the document with what the simulator sends on top (core/sent-values.ts), so each is
 * valid for the document and exactly what the simulator means to send.
 */
export function createContractCheck(api: JsonObject): ContractCheck {
  let check = checksOf.get(api);
  if (check === undefined) {
    check = buildContractCheck(api);
    checksOf.set(api, check);
  }
  return check;
}

/** Each document's check, built once (every simulator of a test process shares the bundled document). */
const checksOf = new WeakMap<JsonObject, ContractCheck>();

function buildContractCheck(api: JsonObject): ContractCheck {
  const checkers = {
    api: documentChecker(withSentValues(api)),
    admin: documentChecker(sharedBundledDocument('admin')),
  };
  return (method, path, response, query) => {
    // A storm answer is what a newer version could send (situations/): this version's document is no judge of it.
    if (isStormAnswer(response.headers)) return;
    checkAgainstDocument(
      path.startsWith(CONTROL_PREFIX) ? checkers.admin : checkers.api,
      method,
      path,
      response,
      query,
    );
  };
}

/**
 * The `onExchange` of a simulator served over HTTP to a real client (the judge's clients, the official
 * SDK, the dashboard): every response checked against its document. With `violations`, a violation is
 * recorded there and the response goes out unchanged; without, it throws (the client sees a 500).
 */
export function contractCheckedExchange(violations?: string[]): SimulatorOptions['onExchange'] {
  const check = createContractCheck(sharedBundledDocument('api'));
  return (request, response) => {
    // The dashboard's static files are not the API's (its keys are, under admin.yaml).
    if (request.path.startsWith(DASHBOARD_PREFIX) && request.path !== `${DASHBOARD_PREFIX}keys`) return;
    try {
      check(request.method, request.path, response, request.query);
    } catch (error) {
      if (violations === undefined) throw error;
      violations.push((error as Error).message);
    }
  };
}

/** `createContractCheck` for a simulator's own document (the dashboard's browser tests). */
export function responseChecker(simulator: Simulator): ContractCheck {
  return createContractCheck(simulator.document);
}

export async function contractCheckedSimulator(
  seed = 'test-seed',
  { realTime = () => FIXED_NOW, environment = 'production', store, standing }: CheckedSimulatorOptions = {},
): Promise<CheckedSimulator> {
  const raised = new Map<string, RaisedEvent[]>();
  const onEvent = (tenant: string, event: RaisedEvent) => {
    const list = raised.get(tenant) ?? [];
    list.push(event);
    raised.set(tenant, list);
  };
  const simulator = await createSimulator({
    seed,
    environment,
    keys: TEST_KEYS,
    realTime,
    onEvent,
    ...(store && { store }),
    ...(standing && { standing }),
  });
  const defaultKey = TEST_KEYS.find((key) => key.environment === environment)!;
  const check = createContractCheck(simulator.document);
  return {
    simulator,
    events: (tenant) => raised.get(tenant) ?? [],
    async call(method, path, options = {}) {
      const as =
        options.as === undefined ? `${defaultKey.secretId}:${defaultKey.secretPassword}` : options.as;
      const headers: Record<string, string> = { ...(options.headers ?? {}) };
      if (as !== null) headers.authorization = `Basic ${Buffer.from(as).toString('base64')}`;
      const bodyText = options.rawBody ?? (options.body === undefined ? '' : JSON.stringify(options.body));
      if (bodyText && !headers['content-type']) headers['content-type'] = 'application/json';
      const query = new URLSearchParams(
        Object.entries(options.query ?? {}).map(([k, v]): [string, string] => [k, String(v)]),
      );
      const response = await simulator.handle({
        method,
        path,
        query,
        headers,
        body: bodyText,
        origin: 'http://127.0.0.1:4010',
      });
      check(method, path, response, query);
      // The adapter writes `serialize()` when a handler gives one: it must be exactly the body's JSON.
      if (response.serialize && response.serialize().toString('utf8') !== JSON.stringify(response.body)) {
        throw new Error(`${method} ${path}: serialize() differs from JSON.stringify(body)`);
      }
      return { status: response.status, body: response.body, headers: response.headers };
    },
  };
}
