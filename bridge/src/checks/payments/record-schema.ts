/** The schema of one record of an answer: a page's `results` items, a list's items, or the answer's own. */
import { isObject, type JsonValue } from '../../../../openapi/document/json.js';
import type { BridgeDocument } from '../../document/bridge-document.js';
import type { ExchangeView } from '../exchange-view.js';

export function recordSchemaOfAnswer(document: BridgeDocument, view: ExchangeView): JsonValue | undefined {
  const schema = view.operation && document.responseOf(view.operation, view.status)?.schema;
  const resolved = document.resolve(schema);
  if (!isObject(resolved)) return undefined;
  const results = isObject(resolved.properties) ? document.resolve(resolved.properties.results) : undefined;
  if (isObject(results) && results.items !== undefined) return results.items;
  if (resolved.type === 'array' && resolved.items !== undefined) return resolved.items;
  return schema;
}
