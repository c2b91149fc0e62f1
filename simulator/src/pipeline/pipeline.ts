/**
 * The simulator's core, `handle(request) -> response`, reading like the architecture's diagram:
 * route -> authenticate -> (due jobs, armed fault) -> validate -> handle -> shape (`fields`/`omit`) ->
 * serialize. The stages arrive composed by the assembly (which may wrap them); each returns a Result and
 * only the renderers render.
 */
import type { ApiDocument } from '../../../openapi/document/api-document.js';
import type { ApiOperation } from '../../../openapi/document/operation-index.js';
import { type ApiErrors, apiError } from '../core/api-error.js';
import { useFirst } from '../core/armed-switches.js';
import type { HandlerRegistry } from '../core/handler.js';
import type { SimRequest, SimResponse } from '../core/http-types.js';
import { isObserverRead } from '../core/observer-requests.js';
import { err, ok, type Result } from '../core/result.js';
import { storeFailureErrors } from '../core/store-errors.js';
import type { TenantRuntime } from '../core/tenant.js';
import type { Ids } from '../ids/seeded-ids.js';
import type { Authenticator } from './authenticate.js';
import { projectFields } from './project-fields.js';
import type { Router } from './route.js';
import type { ErrorRenderer } from './serialize.js';
import type { Validator, ValidatorFactory } from './validate.js';

/** The stages as the assembly composed them. */
export interface Stages {
  makeRouter: (operations: readonly ApiOperation[]) => Router;
  authenticate: Authenticator;
  validatorFor: ValidatorFactory;
  handlers: HandlerRegistry;
  /**
   * A handler's 2xx answer as it goes out: the identity (RESP-REQUIRED-NULLABLE, RESP-DEPRECATED: null
   * and deprecated members go out as the record has them), unless the assembly says otherwise.
   */
  renderSuccess: (response: SimResponse) => SimResponse;
  renderErrors: ErrorRenderer;
}

/** Answers an operation no handler serves (a user's newer document, through Prism); undefined when it cannot. */
export type Fallback = (
  request: SimRequest,
  requestId: string,
  operation: ApiOperation,
) => Promise<SimResponse | undefined>;

export interface PipelineOptions {
  /** The bundled API document and the control API's (openapi/generated/*.json). */
  documents: ApiDocument[];
  stages: Stages;
  tenantFor: (tenantId: string) => TenantRuntime;
  fallback?: Fallback;
  /** Request ids, independent of any tenant. */
  requestIds: Ids;
  maxBodyBytes: number;
  /** Operations with their own body limit (importSnapshot: README "Limits"). */
  maxBodyBytesFor?: Readonly<Record<string, number>>;
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
  /** operationIds no handler serves (the fallback's, when there is one), for the start-up listing. */
  unservedOperations: string[];
}

/** ERR-500-408: a fault injected through the control API answers instead of the handler. */
async function takeFault(tenant: TenantRuntime, operationId: string): Promise<ApiErrors | undefined> {
  const fault = await useFirst(tenant, 'faults', (f) => f.operation_id === operationId);
  if (!fault) return undefined;
  // CLIENT-TOO-MANY-SESSIONS: an injected 400 is the Too Many Sessions error (choice, admin.yaml).
  const code = { 500: 'internal_server_error', 408: 'request_timeout', 400: 'too_many_sessions' } as const;
  return apiError(code[fault.status], {
    message: `Injected ${fault.status} ${code[fault.status]} for ${operationId} through the control API.`,
    rule: fault.status === 400 ? 'CLIENT-TOO-MANY-SESSIONS' : 'ERR-500-408',
  });
}

/**
 * Compiling every operation's schemas was most of a start (about 170 operations): each operation's
 * validator is compiled on its first request instead (pipeline.test.ts compiles them all).
 */
function lazyValidator(operation: ApiOperation, document: ApiDocument, factory: ValidatorFactory): Validator {
  let validator: Validator | undefined;
  return (request, pathParams) => {
    validator ??= factory(operation, () => document.ajv);
    return validator(request, pathParams);
  };
}

function bodyTooLarge(request: SimRequest, limit: number): ApiErrors | undefined {
  if (!request.bodyTooLarge && Buffer.byteLength(request.body) <= limit) return undefined;
  return apiError('payload_too_large', { message: `The body exceeds ${request.bodyLimit ?? limit} bytes.` });
}

export function createPipeline(options: PipelineOptions): Pipeline {
  const { stages } = options;
  const operations: ApiOperation[] = [];
  const validators = new Map<string, Validator>();
  for (const document of options.documents) {
    for (const operation of document.operations) {
      operations.push(operation);
      validators.set(operation.operationId, lazyValidator(operation, document, stages.validatorFor));
    }
  }
  const route = stages.makeRouter(operations);

  async function answer(
    request: SimRequest,
    requestId: string,
    meta: ExchangeMeta,
  ): Promise<Result<SimResponse, ApiErrors>> {
    const authenticated = stages.authenticate(request);
    if (authenticated.ok) meta.tenantId = authenticated.value.id;
    const routed = route(request.method, request.path);
    meta.operationId = routed.ok ? routed.value.operation.operationId : null;
    if (!routed.ok) return routed;
    if (!authenticated.ok) return authenticated;
    const { operation, pathParams } = routed.value;
    const tooLarge = bodyTooLarge(
      request,
      options.maxBodyBytesFor?.[operation.operationId] ?? options.maxBodyBytes,
    );
    if (tooLarge) return err(tooLarge);
    const tenant = options.tenantFor(authenticated.value.id);
    await tenant.clock.runDue();
    // An observer's read leaves the fault for the client it was armed for.
    const fault = isObserverRead(request) ? undefined : await takeFault(tenant, operation.operationId);
    if (fault) return err(fault);
    const input = validators.get(operation.operationId)!(request, pathParams);
    if (!input.ok) return input;
    const handler = stages.handlers.get(operation.operationId);
    if (handler) {
      const answered = await handler({ request, input: input.value, operation, tenant, requestId });
      return answered.ok ? ok(projectFields(answered.value, input.value.query)) : answered;
    }
    const fallback = await options.fallback?.(request, requestId, operation);
    if (fallback) return ok(fallback);
    const message = `No handler serves ${operation.operationId}; the Prism fallback answers it when asked for.`;
    return err(apiError('internal_server_error', { message }));
  }

  return {
    unservedOperations: operations.map((o) => o.operationId).filter((id) => !stages.handlers.has(id)),
    async handle(request, meta = {}) {
      const requestId = options.requestIds.hex(32);
      try {
        const result = await answer(request, requestId, meta);
        if (!result.ok) meta.rule = result.error[0].rule ?? null;
        return result.ok ? stages.renderSuccess(result.value) : stages.renderErrors(result.error, requestId);
      } catch (cause) {
        // The store failed (Redis unreachable or silent): say which, and that the effect may be unknown.
        const storeFailed = storeFailureErrors(cause);
        if (storeFailed) return stages.renderErrors(storeFailed, requestId);
        // A programmer mistake: answer in the API's format and keep serving.
        const message = `Internal server error: ${(cause as Error).message}`;
        return stages.renderErrors(apiError('internal_server_error', { message }), requestId);
      }
    },
  };
}
