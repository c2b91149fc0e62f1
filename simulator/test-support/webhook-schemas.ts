/**
 * WEBHOOK-SHAPE in the tests: a payload validates against the schema of its event in the document's
 * `webhooks` section, found by its `webhook_type` and `webhook_code` constants.
 */
import { createDocumentAjv, describeErrors } from '../../openapi/document/document-ajv.js';
import { isObject, type JsonObject } from '../../openapi/document/json.js';

const SCHEMA_REF = '#/components/schemas/';

function constOf(schema: JsonObject, property: string): unknown {
  const properties = isObject(schema.properties) ? schema.properties : {};
  const member = properties[property];
  return isObject(member) ? member.const : undefined;
}

/** Returns a checker: the problems of a payload (empty when it is valid), the event's schema named. */
export function webhookPayloadChecker(document: JsonObject): (payload: unknown) => string[] {
  const ajv = createDocumentAjv(document);
  const schemas = (document.components as JsonObject).schemas as JsonObject;
  const byEvent = new Map<string, JsonObject>();
  for (const pathItem of Object.values(document.webhooks as JsonObject)) {
    const post = (pathItem as JsonObject).post as JsonObject;
    const content = ((post.requestBody as JsonObject).content as JsonObject)[
      'application/json'
    ] as JsonObject;
    const ref = (content.schema as JsonObject).$ref as string;
    const schema = schemas[ref.slice(SCHEMA_REF.length)] as JsonObject;
    byEvent.set(`${constOf(schema, 'webhook_type')} ${constOf(schema, 'webhook_code')}`, { $ref: ref });
  }
  return (payload) => {
    const { webhook_type, webhook_code } = (payload ?? {}) as Record<string, unknown>;
    const schema = byEvent.get(`${webhook_type} ${webhook_code}`);
    if (!schema) return [`no webhook schema for ${webhook_type} ${webhook_code}`];
    const validate = ajv.compile(schema);
    return validate(payload)
      ? []
      : describeErrors(validate).map((e) => `${webhook_type} ${webhook_code}: ${e}`);
  };
}
