/** Handlers of every data resource of the spec's conventions table (issue 3; being built). */
import type { JsonObject } from '../../../../openapi/validation/document-ajv.js';
import type { Handler } from '../handler.js';

export function dataResourceHandlers(_document: JsonObject): [string, Handler][] {
  return [];
}
