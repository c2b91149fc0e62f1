/**
 * The simulator's core, `handle(request) -> response`, reading like DESIGN.md's diagram:
 * route -> authenticate -> validate -> handle -> serialize, where `fields`/`omit` shape the handler's
 * records before serializing. Every stage returns a Result; only serialize renders errors.
 */
import type { ApiDocument } from '../../../openapi/document/api-document.js';
import type { ApiOperation } from '../../../openapi/document/operation-index.js';
import type { BrokenRules } from '../broken-rules/breakable-rules.js';
import { breakResponse } from '../broken-rules/response-breaks.js';
import { type ApiErrors, apiError } from '../core/api-error.js';
import { useFirst } from '../core/armed-switches.js';
import type { HandlerRegistry } from '../core/handler.js';
import type { SimRequest, SimResponse } from '../core/http-types.js';
import type { Tenant } from '../core/keys.js';
import { err, ok, type Result } from '../core/result.js';
import type { TenantRuntime } from '../core/tenant.js';
import type { Ids } from '../ids/seeded-ids.js';
import type { Authenticator } from './authenticate.js';
import { projectFields } from './project-fields.js';
import { createRouter } from './route.js';
import { renderErrors } from './serialize.js';
import { createValidator, type Validator } from './validate.js';

export interface PipelineOptions {
  /** The bundled API document and the control API's (openapi/generated/*.json). */
  documents: ApiDocument[];
  authenticate: Authenticator;
  tenantFor: (tenantId: string) => TenantRuntime;
  handlers: HandlerRegistry;
  /** Answers operations without a stateful handler (Prism's mocker). */
  fallback: (request: SimRequest, requestId: string) => Promise<SimResponse>;
  /** Request ids, independent of any tenant. */
  requestIds: Ids;
  maxBodyBytes: number;
  /** Operations with their own body limit (importSnapshot: README "Limits"). */
  maxBodyBytesFor?: Readonly<Record<string, number>>;
  /** Rules broken on purpose; the stages' own (AUTH-*, ERR-*, PAGE-MAX, ...) read them here. */
  brokenRules?: BrokenRules;
}

/** What the pipeline learnt of one exchange, for the request log (the client judge). */
export interface ExchangeMeta {
  tenantId?: string;
  /** null when no route matched. */
  operationId?: string | null;
  /** The rule ID carried by the first error value, when the error came from a known rule. */
  rule?: string | null;
}

export interface Pipeline {
  /** `meta`, when given, is filled with the tenant, the operation and the rule of an error. */
  handle(request: SimRequest, meta?: ExchangeMeta): Promise<SimResponse>;
  /** operationIds answered by the fallback, for the start-up listing (STYLE.md). */
  fallbackOperations: string[];
}

/** ERR-500-408: a fault injected through the control API answers instead of the handler. */
async function takeFault(
  tenant: TenantRuntime,
  operationId: string,
): Promise<ApiErrors | SimResponse | undefined> {
  const fault = await useFirst(tenant, 'faults', (f) => f.operation_id === operationId);
  if (!fault) return undefined;
  // CLIENT-TOO-MANY-SESSIONS: an injected 400 is the Too Many Sessions error (choice, admin.yaml).
  const code = { 500: 'internal_server_error', 408: 'request_timeout', 400: 'too_many_sessions' } as const;
  // brokenRules ERR-500-408: the framework's own error page answers instead of the error array.
  if (tenant.brokenRules.has('ERR-500-408') && fault.status !== 400) {
    const page = Buffer.from(fault.status === 500 ? 'Internal Server Error' : 'Request Timeout');
    return { status: fault.status, headers: { 'content-type': 'text/plain' }, serialize: () => page };
  }
  return apiError(code[fault.status], {
    message: `Injected ${fault.status} ${code[fault.status]} for ${operationId} through the control API.`,
    rule: fault.status === 400 ? 'CLIENT-TOO-MANY-SESSIONS' : 'ERR-500-408',
  });
}

/**
 * brokenRules: PAY-AUTH-V2-REQUIRED is the validation stage's (the document declares the header required),
 * so a simulator broken on purpose supplies the header before validation sees the request.
 */
function brokenOnPurpose(tenant: TenantRuntime, request: SimRequest): SimRequest {
  if (!tenant.brokenRules.has('PAY-AUTH-V2-REQUIRED')) return request;
  if (!request.path.startsWith('/payments/br/payment-authorizations/')) return request;
  const headers = { 'x-service-api-resource-version': 'Payments-BR.V2', ...request.headers };
  return { ...request, headers };
}

/**
 * Compiling every operation's schemas was most of a start (about 170 operations): each operation's
 * validator is compiled on its first request instead (pipeline.test.ts compiles them all).
 */
function lazyValidator(operation: ApiOperation, document: ApiDocument, broken: BrokenRules): Validator {
  let validator: Validator | undefined;
  return (request, pathParams) => {
    validator ??= createValidator(operation, document.ajv, broken);
    return validator(request, pathParams);
  };
}

/** brokenRules API-ROOT: GET /api/ kept open as a health check (an anonymous tenant answers it). */
function openRoot(broken: BrokenRules, request: SimRequest): Result<Tenant, ApiErrors> | undefined {
  if (!broken.has('API-ROOT') || request.method !== 'GET' || request.path !== '/api/') return undefined;
  return ok({ id: 'anonymous', environment: 'production' });
}

export function createPipeline(options: PipelineOptions): Pipeline {
  const broken = options.brokenRules ?? new Set();
  const operations: ApiOperation[] = [];
  const validators = new Map<string, Validator>();
  for (const document of options.documents) {
    for (const operation of document.operations) {
      operations.push(operation);
      validators.set(operation.operationId, lazyValidator(operation, document, broken));
    }
  }
  const route = createRouter(operations, broken);

  async function answer(
    request: SimRequest,
    requestId: string,
    meta: ExchangeMeta,
  ): Promise<Result<SimResponse, ApiErrors>> {
    const checked = options.authenticate(request.headers.authorization);
    const authenticated = checked.ok ? checked : (openRoot(broken, request) ?? checked);
    if (authenticated.ok) meta.tenantId = authenticated.value.id;
    const routed = route(request.method, request.path);
    meta.operationId = routed.ok ? routed.value.operation.operationId : null;
    if (!routed.ok) return routed;
    if (!authenticated.ok) return authenticated;
    const { operation, pathParams } = routed.value;
    const limit = options.maxBodyBytesFor?.[operation.operationId] ?? options.maxBodyBytes;
    if (request.bodyTooLarge || Buffer.byteLength(request.body) > limit) {
      const message = `The body exceeds ${request.bodyLimit ?? limit} bytes.`;
      return err(apiError('payload_too_large', { message }));
    }
    const tenant = options.tenantFor(authenticated.value.id);
    await tenant.clock.runDue();
    const fault = await takeFault(tenant, operation.operationId);
    if (fault) return 'status' in fault ? ok(fault) : err(fault);
    const input = validators.get(operation.operationId)!(brokenOnPurpose(tenant, request), pathParams);
    if (!input.ok) return input;
    const handler = options.handlers.get(operation.operationId);
    if (!handler) return { ok: true, value: await options.fallback(request, requestId) };
    const answered = await handler({ request, input: input.value, operation, tenant, requestId });
    return answered.ok ? ok(projectFields(answered.value, input.value.query)) : answered;
  }

  return {
    fallbackOperations: operations.map((o) => o.operationId).filter((id) => !options.handlers.has(id)),
    async handle(request, meta = {}) {
      const requestId = options.requestIds.hex(32);
      try {
        const result = await answer(request, requestId, meta);
        if (!result.ok) meta.rule = result.error[0].rule ?? null;
        return result.ok
          ? breakResponse(result.value, broken)
          : renderErrors(result.error, requestId, broken);
      } catch (cause) {
        // A programmer mistake: answer in the API's format and keep serving.
        const message = `Internal server error: ${(cause as Error).message}`;
        return renderErrors(apiError('internal_server_error', { message }), requestId);
      }
    },
  };
}
