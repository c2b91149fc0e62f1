/**
 * The simulator's core, `handle(request) -> response`, reading like DESIGN.md's diagram:
 * route -> authenticate -> validate -> handle -> serialize. Every stage returns a Result; only
 * serialize renders errors.
 */

import { createDocumentAjv, type JsonObject } from '../../../openapi/validation/document-ajv.js';
import type { BrokenRules } from '../broken-rules/breakable-rules.js';
import { breakResponse } from '../broken-rules/response-breaks.js';
import type { SimRequest, SimResponse } from '../core/http-types.js';
import { err, ok, type Result } from '../core/result.js';
import { type ApiErrors, apiError } from '../errors/api-error.js';
import type { HandlerRegistry } from '../handlers/handler.js';
import type { Ids } from '../ids/seeded-ids.js';
import type { TenantRuntime } from '../tenants/tenant-runtime.js';
import type { Authenticator, Tenant } from './authenticate.js';
import { indexOperations, type OperationSpec } from './operation-index.js';
import { createRouter } from './route.js';
import { renderErrors } from './serialize.js';
import { createValidator, type Validator } from './validate.js';

export interface PipelineOptions {
  /** The bundled API document and the control API's (openapi/generated/*.json). */
  documents: JsonObject[];
  authenticate: Authenticator;
  tenantFor: (tenantId: string) => TenantRuntime;
  handlers: HandlerRegistry;
  /** Answers operations without a stateful handler (Prism's mocker). */
  fallback: (request: SimRequest, requestId: string) => Promise<SimResponse>;
  /** Request ids, independent of any tenant. */
  requestIds: Ids;
  maxBodyBytes: number;
  /** Rules broken on purpose; the stages' own (AUTH-*, ERR-*, PAGE-MAX, ...) read them here. */
  brokenRules?: BrokenRules;
}

export interface Pipeline {
  handle(request: SimRequest): Promise<SimResponse>;
  /** operationIds answered by the fallback, for the start-up listing (STYLE.md). */
  fallbackOperations: string[];
}

/** ERR-500-408: a fault injected through the control API answers instead of the handler. */
function takeFault(tenant: TenantRuntime, operationId: string): ApiErrors | SimResponse | undefined {
  const fault = tenant.faults.find((f) => f.operation_id === operationId && f.remaining > 0);
  if (!fault) return undefined;
  fault.remaining -= 1;
  tenant.faults = tenant.faults.filter((f) => f.remaining > 0);
  // brokenRules ERR-500-408: the framework's own error page answers instead of the error array.
  if (tenant.brokenRules.has('ERR-500-408')) {
    const page = Buffer.from(fault.status === 500 ? 'Internal Server Error' : 'Request Timeout');
    return { status: fault.status, headers: { 'content-type': 'text/plain' }, serialize: () => page };
  }
  return apiError(fault.status === 500 ? 'internal_server_error' : 'request_timeout', {
    message: `Injected ${fault.status} for ${operationId} through the control API.`,
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

/** brokenRules API-ROOT: GET /api/ kept open as a health check (an anonymous tenant answers it). */
function openRoot(broken: BrokenRules, request: SimRequest): Result<Tenant, ApiErrors> | undefined {
  if (!broken.has('API-ROOT') || request.method !== 'GET' || request.path !== '/api/') return undefined;
  return ok({ id: 'anonymous', environment: 'production' });
}

export function createPipeline(options: PipelineOptions): Pipeline {
  const broken = options.brokenRules ?? new Set();
  const operations: OperationSpec[] = [];
  const validators = new Map<string, Validator>();
  for (const document of options.documents) {
    const ajv = createDocumentAjv(document);
    for (const operation of indexOperations(document).values()) {
      operations.push(operation);
      validators.set(operation.operationId, createValidator(operation, ajv, broken));
    }
  }
  const route = createRouter(operations, broken);

  async function answer(request: SimRequest, requestId: string): Promise<Result<SimResponse, ApiErrors>> {
    const routed = route(request.method, request.path);
    if (!routed.ok) return routed;
    const checked = options.authenticate(request.headers.authorization);
    const authenticated = checked.ok ? checked : (openRoot(broken, request) ?? checked);
    if (!authenticated.ok) return authenticated;
    if (request.bodyTooLarge || Buffer.byteLength(request.body) > options.maxBodyBytes) {
      return err(
        apiError('payload_too_large', { message: `The body exceeds ${options.maxBodyBytes} bytes.` }),
      );
    }
    const { operation, pathParams } = routed.value;
    const tenant = options.tenantFor(authenticated.value.id);
    await tenant.clock.runDue();
    const fault = takeFault(tenant, operation.operationId);
    if (fault) return 'status' in fault ? ok(fault) : err(fault);
    const input = validators.get(operation.operationId)!(brokenOnPurpose(tenant, request), pathParams);
    if (!input.ok) return input;
    const handler = options.handlers.get(operation.operationId);
    if (!handler) return { ok: true, value: await options.fallback(request, requestId) };
    return handler({ request, input: input.value, operation, tenant, requestId });
  }

  return {
    fallbackOperations: operations.map((o) => o.operationId).filter((id) => !options.handlers.has(id)),
    async handle(request) {
      const requestId = options.requestIds.hex(32);
      try {
        const result = await answer(request, requestId);
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
