/**
 * The fuzz test's requests for one operation of the document, by the issue's categories: malformed
 * JSON and depth, wrong types per schema field, huge strings and bodies, bad query values, bad auth,
 * unknown methods. Every choice comes from the seeded `random`.
 */
import { isObject, type JsonObject } from '../../openapi/document/json.js';
import type { ApiOperation } from '../../openapi/document/operation-index.js';
import type { Random } from '../../simulator/src/ids/seeded-ids.js';
import { deepJson, resolve, validValue, wrongValue } from './schema-values.js';

export interface FuzzRequest {
  category: string;
  method: string;
  /** Path and query, as sent on the request line. */
  target: string;
  headers: Record<string, string>;
  body?: string;
}

export interface FuzzContext {
  document: JsonObject;
  random: Random;
  /** `Authorization` of the fuzzed tenant. */
  auth: string;
  /** Ids that exist in the fuzzed tenant (a link), so that some requests reach the handlers. */
  knownIds: string[];
}

const basic = (text: string) => `Basic ${Buffer.from(text).toString('base64')}`;
const BAD_AUTH = [
  undefined,
  'Basic',
  'Basic !!!not-base64!!!',
  basic('tenant-a'),
  basic('tenant-a:wrong'),
  basic('tenant-b:wrong'),
  basic(':'),
  'Bearer abc',
  `Basic ${'A'.repeat(4000)}`,
  basic('tenant-a:secret-a\u0000'),
];
const BAD_IDS = ['%ZZ', '..', 'x'.repeat(600), '%E2%82%AC%F0%9F%92%A9', "1'%20OR%201=1", '%00', '-1', 'null'];
const BAD_QUERY = ['', '-1', '1e400', 'abc', 'true', '%ZZ', 'x'.repeat(8000), '2026-13-45', '[]', '%00'];
/** Methods Node's parser accepts that no operation has (ERR-405); FOO and PRI go over the raw socket. */
const ODD_METHODS = ['PROPFIND', 'PURGE', 'LINK', 'SEARCH', 'PATCH', 'OPTIONS', 'HEAD', 'PUT'];

function pathFor(operation: ApiOperation, random: Random, ids: string[], bad = false): string {
  return operation.path.replace(/\{[^}]+\}/g, () =>
    bad
      ? random.pick(BAD_IDS)
      : random.next() < 0.7
        ? random.pick(ids)
        : '2a1c7d4e-5b6f-4a80-9c1d-2e3f4a5b6c7d',
  );
}

function queryFor(operation: ApiOperation, context: FuzzContext, bad: boolean): string {
  const params = new URLSearchParams();
  for (const parameter of operation.parameters.filter((p) => p.in === 'query')) {
    if (bad) {
      if (context.random.next() < 0.6) params.append(parameter.name, context.random.pick(BAD_QUERY));
      if (context.random.next() < 0.2) params.append(parameter.name, context.random.pick(BAD_QUERY));
    } else if (parameter.required || context.random.next() < 0.3) {
      params.append(parameter.name, String(validValue(context.document, parameter.schema, context.random)));
    }
  }
  if (bad && context.random.next() < 0.3) params.append('unknown_param', 'x');
  const text = params.toString().replace(/%25ZZ/g, '%ZZ').replace(/%2500/g, '%00');
  return text === '' ? '' : `?${text}`;
}

/** The body's property schemas (top level), for the wrong-type and huge-string mutations. */
function bodyProperties(context: FuzzContext, operation: ApiOperation): [string, unknown][] {
  const schema = resolve(context.document, operation.body?.schema);
  return isObject(schema.properties) ? Object.entries(schema.properties) : [];
}

function bodies(context: FuzzContext, operation: ApiOperation): [string, string][] {
  const { document, random } = context;
  const valid = () => validValue(document, operation.body?.schema, random) as JsonObject;
  const out: [string, string][] = [['valid', JSON.stringify(valid())]];
  const properties = bodyProperties(context, operation);
  for (const [name, schema] of properties.slice(0, 4)) {
    out.push([
      'wrong type',
      JSON.stringify({ ...valid(), [name]: wrongValue(document, schema as JsonObject, random) }),
    ]);
  }
  if (properties.length > 0) {
    const [name] = random.pick(properties);
    out.push(['huge string', JSON.stringify({ ...valid(), [name]: 'x'.repeat(200_000) })]);
    const rest = JSON.stringify(valid()).slice(1, -1);
    out.push(['deep field', `{"${name}":${deepJson(2000, 'object')}${rest ? `,${rest}` : ''}}`]);
  }
  out.push(['unknown field', JSON.stringify({ ...valid(), zz_unknown: 1 })]);
  out.push([
    'malformed JSON',
    random.pick(['{', '{"a":', '[1,2', '{"a":1}}', 'nul', "{'a':1}", '\u0000', '{"a":1,}']),
  ]);
  out.push(['deep JSON', deepJson(10_000, random.next() < 0.5 ? 'array' : 'object')]);
  out.push(['wrong JSON type', random.pick(['[]', '"text"', '42', 'null', 'true'])]);
  return out;
}

/** About a dozen requests for `operation`. */
export function requestsFor(context: FuzzContext, operation: ApiOperation): FuzzRequest[] {
  const { random, auth, knownIds } = context;
  const json = { authorization: auth, 'content-type': 'application/json' };
  const path = () => pathFor(operation, random, knownIds);
  const out: FuzzRequest[] = [];
  const add = (category: string, request: Omit<FuzzRequest, 'category'>) =>
    out.push({ category, ...request });
  for (let round = 0; round < 2; round++) {
    const method = operation.method;
    add('valid', { method, target: path() + queryFor(operation, context, false), headers: json });
    add('bad query', { method, target: path() + queryFor(operation, context, true), headers: json });
    if (operation.path.includes('{')) {
      add('bad path id', { method, target: pathFor(operation, random, knownIds, true), headers: json });
    }
  }
  const badAuth = random.pick(BAD_AUTH);
  const authHeaders: Record<string, string> = badAuth === undefined ? {} : { authorization: badAuth };
  add('bad auth', { method: operation.method, target: path(), headers: authHeaders });
  add('unknown method', { method: random.pick(ODD_METHODS), target: path(), headers: json });
  if (operation.body) {
    for (const [category, body] of bodies(context, operation)) {
      add(category, { method: operation.method, target: path(), headers: json, body });
    }
    add('wrong content type', {
      method: operation.method,
      target: path(),
      headers: { authorization: auth, 'content-type': 'text/plain' },
      body: 'a=1',
    });
    if (random.next() < 0.1) {
      add('huge body', {
        method: operation.method,
        target: path(),
        headers: json,
        body: `"${'x'.repeat(2_000_000)}"`,
      });
    }
  } else if (operation.method !== 'GET' && random.next() < 0.5) {
    add('unexpected body', {
      method: operation.method,
      target: path(),
      headers: json,
      body: deepJson(10_000, 'array'),
    });
  }
  return out;
}
