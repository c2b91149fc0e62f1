/**
 * WEBHOOK-SHAPE: the document's `webhooks` section has a schema per event; an event is found by the
 * `const`s of its `webhook_type` and `webhook_code` members, and a payload is judged against it.
 */

import type { ApiDocument } from '../../../../openapi/document/api-document.js';
import { describeErrors } from '../../../../openapi/document/document-ajv.js';
import { isObject, type JsonObject, type JsonValue } from '../../../../openapi/document/json.js';

export interface WebhookSchema {
  /** The name under `webhooks` (e.g. `accounts_historical_update`). */
  name: string;
  schema: JsonObject;
}

const byDocument = new WeakMap<ApiDocument, Map<string, WebhookSchema>>();

/** `<webhook_type> <webhook_code>`, the key events are told apart by. */
export const eventKey = (type: unknown, code: unknown) => `${String(type)} ${String(code)}`;

/** The payload schema of a `webhooks` entry (its POST's JSON request body). */
function bodySchema(document: ApiDocument, entry: JsonValue | undefined): JsonObject | undefined {
  const post = isObject(entry) && isObject(entry.post) ? entry.post : {};
  const body = document.resolve(post.requestBody);
  const content = isObject(body) && isObject(body.content) ? body.content : {};
  const media = content['application/json'];
  const schema = document.resolve(isObject(media) ? media.schema : undefined);
  return isObject(schema) ? schema : undefined;
}

function constOf(document: ApiDocument, schema: JsonObject, member: string): JsonValue | undefined {
  const properties = isObject(schema.properties) ? schema.properties : {};
  const property = document.resolve(properties[member]);
  return isObject(property) ? property.const : undefined;
}

/** Every event schema of the document by `<type> <code>` (entries without both `const`s are left out). */
export function webhookSchemas(document: ApiDocument): Map<string, WebhookSchema> {
  const known = byDocument.get(document);
  if (known) return known;
  const found = new Map<string, WebhookSchema>();
  const webhooks = isObject(document.raw.webhooks) ? document.raw.webhooks : {};
  for (const [name, entry] of Object.entries(webhooks)) {
    const schema = bodySchema(document, entry);
    if (!schema) continue;
    const type = constOf(document, schema, 'webhook_type');
    const code = constOf(document, schema, 'webhook_code');
    if (typeof type === 'string' && typeof code === 'string')
      found.set(eventKey(type, code), { name, schema });
  }
  byDocument.set(document, found);
  return found;
}

/** What is wrong with a payload against the schema of its type and code (nothing when valid). */
export function payloadProblems(document: ApiDocument, payload: JsonObject): string[] {
  const key = eventKey(payload.webhook_type, payload.webhook_code);
  const found = webhookSchemas(document).get(key);
  if (!found) return [`the document's webhooks have no schema for ${key}`];
  const validate = document.ajv.compile(found.schema);
  if (validate(payload)) return [];
  return describeErrors(validate)
    .slice(0, 4)
    .map((problem) => `${found.name}: ${problem}`);
}
