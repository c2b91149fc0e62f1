/**
 * The API document as the bridge reads it: the one reading every part shares (`openapi/document/`), plus
 * the router that names the operation of a request and the documented response of a status.
 */
import { type ApiDocument, createApiDocument } from '../../../openapi/document/api-document.js';
import { readBundledDocument } from '../../../openapi/document/bundled-documents.js';
import type { JsonObject } from '../../../openapi/document/json.js';
import type { ApiOperation, ApiParameter, ApiResponse } from '../../../openapi/document/operation-index.js';
import { createRouter, type Route } from './route-operation.js';

export type BridgeOperation = ApiOperation;
export type BridgeParameter = ApiParameter;

export interface BridgeDocument extends ApiDocument {
  /** The documented operation of a request path (no query), or why none matches. */
  route(method: string, path: string): Route<BridgeOperation>;
  /** The documented response of `status` (exact, then `4XX`, then `default`). */
  responseOf(operation: BridgeOperation, status: number): ApiResponse | undefined;
}

/** Builds the bridge's view of a parsed bundled document. */
export function createBridgeDocument(raw: JsonObject): BridgeDocument {
  const document = createApiDocument(raw, { checkSchemas: false });
  const route = createRouter(document.operations);
  return Object.assign(document, {
    route,
    responseOf: (operation: BridgeOperation, status: number) => {
      const { responses } = operation;
      return (
        responses.get(String(status)) ?? responses.get(`${String(status)[0]}XX`) ?? responses.get('default')
      );
    },
  });
}

let loaded: BridgeDocument | undefined;

/** The project's document (openapi/generated/openapi.json), read and compiled once per process. */
export function loadBridgeDocument(): BridgeDocument {
  loaded ??= createBridgeDocument(readBundledDocument('api'));
  return loaded;
}
