/**
 * Payment events as the PAY-* rules observe them: the control API's event log, read by the webhook's
 * `webhook_type` and `webhook_code` (the `const`s of its schema in the document's `webhooks`), each
 * payload validated against that schema (WEBHOOK-SHAPE).
 */

import type { ApiDocument } from '../../../../openapi/document/api-document.js';
import { describeErrors } from '../../../../openapi/document/document-ajv.js';
import { isObject, type JsonObject } from '../../../../openapi/document/json.js';
import { fail, type RunContext } from '../rule.js';
import { eventPayloads } from './payment-api.js';

/** The payload schema of webhook `name` (e.g. `payment_authorization_status`). */
function webhookSchema(document: ApiDocument, name: string): JsonObject {
  const webhooks = isObject(document.raw.webhooks) ? document.raw.webhooks : {};
  const entry = webhooks[name];
  const post = isObject(entry) && isObject(entry.post) ? entry.post : {};
  const body = isObject(post.requestBody) ? post.requestBody : {};
  const content = isObject(body.content) ? body.content : {};
  const media = content['application/json'];
  const schema = document.resolve(isObject(media) ? media.schema : undefined);
  if (!isObject(schema)) throw new Error(`The document has no webhook ${name}`);
  return schema;
}

/** The `const` of a payload member in the webhook's schema. */
function constOf(document: ApiDocument, schema: JsonObject, name: string): string {
  const properties = isObject(schema.properties) ? schema.properties : {};
  const property = document.resolve(properties[name]);
  const value = isObject(property) ? property.const : undefined;
  if (typeof value !== 'string') throw new Error(`The webhook schema has no const ${name}`);
  return value;
}

/** Events of webhook `name` whose `data` has every member of `match`; each must validate. */
export async function findEvents(
  run: RunContext,
  name: string,
  match: Record<string, string>,
): Promise<JsonObject[]> {
  const schema = webhookSchema(run.document, name);
  const type = constOf(run.document, schema, 'webhook_type');
  const code = constOf(run.document, schema, 'webhook_code');
  const payloads = await eventPayloads(run.http, type, code);
  const found = payloads.filter((payload) => {
    const data = isObject(payload.data) ? payload.data : {};
    return Object.entries(match).every(([key, value]) => data[key] === value);
  });
  const validate = run.document.ajv.compile(schema);
  for (const payload of found) {
    if (!validate(payload)) {
      fail(`the ${name} event breaks its webhook schema: ${describeErrors(validate).slice(0, 3).join('; ')}`);
    }
  }
  return found;
}

/** At least one event of webhook `name` matching `match` was sent. */
export async function expectEvent(
  run: RunContext,
  name: string,
  match: Record<string, string>,
  what: string,
): Promise<void> {
  const found = await findEvents(run, name, match);
  if (found.length === 0) fail(`${what}: no ${name} event with ${JSON.stringify(match)} in the event log`);
}
