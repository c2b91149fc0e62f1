/**
 * Our bundled document against the provider's facts (provider-facts.json), operation by operation: one
 * line per difference, `METHOD /path/ <status|request|query> <member>: <difference>`, with its kind
 * (member-differences.ts). `npm run compare:provider` prints them; the strictness check holds the
 * `stricter` and `ours-only` ones to provider-differences.yaml.
 */

import { jsonMediaOf, listOperations, resolveRef } from '../document/document-walk.js';
import { isObject, type JsonObject, type JsonValue } from '../document/json.js';
import { type DifferenceKind, memberDifferences } from './member-differences.js';
import type { MemberRecord, OperationFacts, ProviderFacts } from './provider-facts.js';
import { type Deref, flattenSchema } from './schema-members.js';

export interface Difference {
  kind: DifferenceKind;
  line: string;
}

function documentDeref(document: JsonObject): Deref {
  return (input) => {
    let current: JsonValue | undefined = input;
    let ref: string | undefined;
    for (let hops = 0; isObject(current) && typeof current.$ref === 'string' && hops < 50; hops++) {
      ref = current.$ref;
      current = resolveRef(document, { $ref: ref });
    }
    return { schema: isObject(current) ? current : {}, ...(ref !== undefined && { ref }) };
  };
}

/** The members of one response, request body or parameter schema of ours. */
function oursFlat(deref: Deref, schema: JsonValue | undefined): MemberRecord {
  return Object.fromEntries(flattenSchema(schema, { deref }));
}

function compareResponses(
  document: JsonObject,
  deref: Deref,
  operation: JsonObject,
  facts: OperationFacts,
): { where: string; kind: DifferenceKind; text: string }[] {
  const out: { where: string; kind: DifferenceKind; text: string }[] = [];
  const responses = isObject(operation.responses) ? operation.responses : {};
  for (const [status, theirs] of Object.entries(facts.responses)) {
    if (!(status in responses)) {
      out.push({ where: status, kind: 'stricter', text: "only the provider's status" });
      continue;
    }
    const media = jsonMediaOf(document, responses[status]);
    if (media === undefined) continue;
    for (const difference of memberDifferences(oursFlat(deref, media.schema), theirs))
      out.push({ where: status, ...difference });
  }
  for (const status of Object.keys(responses))
    if (!(status in facts.responses) && status !== 'default')
      out.push({ where: status, kind: 'ours-only', text: 'only our status' });
  return out;
}

function compareQuery(deref: Deref, parameters: JsonObject[], facts: OperationFacts) {
  const ours: MemberRecord = {};
  for (const parameter of parameters) {
    if (parameter.in !== 'query' || typeof parameter.name !== 'string') continue;
    const member = oursFlat(deref, parameter.schema)[''] ?? { nullable: true, required: false };
    ours[parameter.name] = { ...member, required: parameter.required === true };
  }
  // A query parameter is a member of the query, named as such.
  return memberDifferences(ours, facts.query).map((d) => ({ where: 'query', ...d }));
}

/** Every difference between our document and the provider's facts, on the operations both have. */
export function compareWithProvider(document: JsonObject, facts: ProviderFacts): Difference[] {
  const deref = documentDeref(document);
  const operations = new Map(
    listOperations(document).map((entry) => [`${entry.method} ${entry.path}`, entry]),
  );
  const out: Difference[] = [];
  for (const [key, operationFacts] of Object.entries(facts.operations)) {
    const entry = operations.get(key);
    if (entry === undefined) {
      out.push({ kind: 'stricter', line: `${key} (operation): only the provider's` });
      continue;
    }
    const found = [...compareResponses(document, deref, entry.operation, operationFacts)];
    if (operationFacts.request !== undefined) {
      const body = jsonMediaOf(document, entry.operation.requestBody)?.schema;
      for (const d of memberDifferences(oursFlat(deref, body ?? {}), operationFacts.request))
        found.push({ where: 'request', ...d });
    }
    found.push(...compareQuery(deref, entry.parameters, operationFacts));
    for (const { where, kind, text } of found) out.push({ kind, line: `${key} ${where} ${text}` });
  }
  return out;
}
