/**
 * Records made through the API so that reads have something to read: a collection's POST (a retrieval
 * for a link, a payments create) sent with the document's own example body (the one body every
 * operation documents as sensible), then with generated ones, until the target accepts one.
 */
import fc from 'fast-check';
import { isObject, type JsonValue } from '../../../openapi/document/json.js';
import type { ApiOperation } from '../../../openapi/document/operation-index.js';
import { parameterText } from '../arbitraries/request-arbitrary.js';
import type { SuiteContext } from './rule.js';

const GENERATED_TRIES = 3;

/** Header parameters with a value from their schema: the required ones, or every one (`all`). */
export function requiredHeaders(
  suite: SuiteContext,
  operation: ApiOperation | undefined,
  all = false,
): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const parameter of operation?.parameters ?? []) {
    if (parameter.in !== 'header' || !(parameter.required || all)) continue;
    const [value] = fc.sample(suite.schemas.of(parameter.schema), { numRuns: 1, seed: 0 });
    if (value !== undefined) headers[parameter.name] = parameterText(value);
  }
  return headers;
}

/** The example with only its required members (optional ids in examples name records of other accounts). */
export function requiredOnly(suite: SuiteContext, operation: ApiOperation, example: JsonValue): JsonValue {
  const schema = suite.document.resolve(operation.body?.schema);
  const required = isObject(schema) && Array.isArray(schema.required) ? schema.required : undefined;
  if (!isObject(example) || !required) return example;
  return Object.fromEntries(Object.entries(example).filter(([name]) => required.includes(name)));
}

function candidates(suite: SuiteContext, operation: ApiOperation): JsonValue[] {
  const example = operation.body?.example;
  const fromExample = example === undefined ? [] : [requiredOnly(suite, operation, example), example];
  const generated = fc.sample(suite.schemas.of(operation.body!.schema), {
    numRuns: GENERATED_TRIES,
    seed: 1,
  });
  return [...fromExample, ...generated];
}

/** POSTs to the collection until one body is accepted (2xx); a collection without POST stays as it is. */
export async function seedCollection(
  suite: SuiteContext,
  template: string,
  url: string,
  link: string | undefined,
): Promise<void> {
  const create = suite.operations.find((op) => op.method === 'POST' && op.path === template && op.body);
  // Links come from the fixtures; nested collections need state the suite cannot make.
  if (!create || template === '/api/links/' || template.includes('{')) return;
  // The optional headers too (PAY-VERSION-HEADER: a V2 example body needs its header).
  const headerSets = [requiredHeaders(suite, create), requiredHeaders(suite, create, true)];
  for (const body of candidates(suite, create)) {
    const json = isObject(body) && link && 'link' in body ? { ...body, link } : body;
    for (const headers of headerSets) {
      const answer = await suite.http.request({ method: 'POST', url, json, headers });
      if (answer.status < 300) return;
    }
  }
}
