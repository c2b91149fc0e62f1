/** The shape of a stateful handler: stage 4 of the pipeline, keyed by operationId in the registry. */

import type { ApiOperation } from '../../../openapi/document/operation-index.js';
import type { ApiErrors } from './api-error.js';
import type { SimRequest, SimResponse } from './http-types.js';
import type { Result } from './result.js';
import type { TenantRuntime } from './tenant.js';

/** A request's parameters and body as the validation stage let them through, typed by their schemas. */
export interface ValidInput {
  path: Record<string, string>;
  query: Record<string, unknown>;
  headers: Record<string, string>;
  body: unknown;
}

export interface HandlerContext {
  request: SimRequest;
  input: ValidInput;
  operation: ApiOperation;
  tenant: TenantRuntime;
  /** This request's id, for bodies that carry one (202s) and for events. */
  requestId: string;
}

export type Handler = (context: HandlerContext) => Promise<Result<SimResponse, ApiErrors>>;

export type HandlerRegistry = ReadonlyMap<string, Handler>;

/** A JSON response. */
export const json = (status: number, body: unknown): SimResponse => ({
  status,
  headers: { 'content-type': 'application/json' },
  body,
});

export const noContent = (): SimResponse => ({ status: 204, headers: {} });
