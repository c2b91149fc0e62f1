/**
 * Where a request breaks its operation's parameters and body in the document: the same reading as the
 * simulator's validation stage (query and header values coerced to their schema's type, declared
 * parameters only, Ajv 2020-12), so a request the document accepts is one the simulator accepts.
 */
import type { ErrorObject, ValidateFunction } from 'ajv/dist/2020.js';
import { isObject, type JsonObject, type JsonValue } from '../../../../openapi/document/json.js';
import type { BridgeDocument, BridgeOperation, BridgeParameter } from '../../document/bridge-document.js';
import { headerOf, isJsonMedia, mediaTypeOf } from '../../exchange/exchange.js';
import type { ExchangeView } from '../exchange-view.js';

export interface RequestProblem {
  where: 'query' | 'header' | 'body';
  /** The Ajv keyword (`required`, `type`, `pattern`...), or `media` for a body that is not JSON. */
  keyword: string;
  /** The parameter or member concerned (`link`, `page_size`, `account.id`); '' for the whole body. */
  field: string;
  message: string;
}

interface Compiled {
  query: ValidateFunction;
  headers: ValidateFunction;
  body?: ValidateFunction;
}

const INTEGER = /^-?\d+$/;
const NUMBER = /^-?\d+(\.\d+)?$/;

function coerce(document: BridgeDocument, value: string, schema: JsonValue): unknown {
  const resolved = document.resolve(schema);
  const type = isObject(resolved) ? resolved.type : undefined;
  if (type === 'integer' && INTEGER.test(value)) return Number(value);
  if (type === 'number' && NUMBER.test(value)) return Number(value);
  if (type === 'boolean' && (value === 'true' || value === 'false')) return value === 'true';
  return value;
}

function objectSchema(parameters: readonly BridgeParameter[], lowerCase: boolean): JsonObject {
  const name = (p: BridgeParameter) => (lowerCase ? p.name.toLowerCase() : p.name);
  return {
    type: 'object',
    properties: Object.fromEntries(parameters.map((p) => [name(p), p.schema])),
    required: parameters.filter((p) => p.required).map(name),
  };
}

const cache = new WeakMap<BridgeOperation, Compiled>();

function compiled(document: BridgeDocument, operation: BridgeOperation): Compiled {
  let found = cache.get(operation);
  if (!found) {
    const of = (place: BridgeParameter['in']) => operation.parameters.filter((p) => p.in === place);
    found = {
      query: document.ajv.compile(objectSchema(of('query'), false)),
      headers: document.ajv.compile(objectSchema(of('header'), true)),
      ...(operation.body && { body: document.ajv.compile(operation.body.schema) }),
    };
    cache.set(operation, found);
  }
  return found;
}

function problemsOf(
  validate: ValidateFunction,
  value: unknown,
  where: RequestProblem['where'],
): RequestProblem[] {
  if (validate(value)) return [];
  const errors = validate.errors ?? [];
  // oneOf/anyOf/if summarise their branches' errors; the branch errors say more.
  const useful = errors.filter(
    (e) => !['oneOf', 'anyOf', 'if', 'not'].includes(e.keyword) || errors.length === 1,
  );
  return useful.map((error: ErrorObject) => {
    const base = error.instancePath.split('/').filter(Boolean).join('.');
    const missing = error.keyword === 'required' ? String(error.params.missingProperty) : '';
    const field = [base, missing].filter(Boolean).join('.');
    return {
      where,
      keyword: error.keyword,
      field,
      message: `${where} ${field || '(whole)'} ${error.message ?? 'is invalid'}`,
    };
  });
}

/** Every way the request breaks the document (empty for an undocumented operation: nothing to compare). */
export function requestProblems(document: BridgeDocument, view: ExchangeView): RequestProblem[] {
  const { operation } = view;
  if (!operation) return [];
  const checks = compiled(document, operation);
  const query: Record<string, unknown> = {};
  const headers: Record<string, string> = {};
  for (const p of operation.parameters) {
    if (p.in === 'query' && view.query.has(p.name))
      query[p.name] = coerce(document, view.query.get(p.name)!, p.schema);
    if (p.in === 'header') {
      const value = headerOf(view.exchange.request.headers, p.name);
      if (value !== undefined) headers[p.name.toLowerCase()] = value;
    }
  }
  const problems = [
    ...problemsOf(checks.query, query, 'query'),
    ...problemsOf(checks.headers, headers, 'header'),
  ];
  // A parameter the document does not declare is ignored by the API: the client may think it filters.
  for (const name of new Set(view.query.keys())) {
    if (!operation.parameters.some((p) => p.in === 'query' && p.name === name))
      problems.push({
        where: 'query',
        keyword: 'undocumented',
        field: name,
        message: `query ${name} is not a parameter of ${operation.operationId} (ignored)`,
      });
  }
  const { body, bodyOmitted, bodyDigest } = view.exchange.request;
  // A body left out as unreadable (a digest) was sent, and is not JSON.
  if ((bodyOmitted && bodyDigest === undefined) || !checks.body) return problems;
  if (bodyDigest === undefined && (body === undefined || body.trim() === '')) {
    if (operation.body?.required)
      problems.push({ where: 'body', keyword: 'required', field: '', message: 'body is required' });
  } else if (!isJsonMedia(mediaTypeOf(view.exchange.request.headers)) || view.requestJson === undefined) {
    problems.push({ where: 'body', keyword: 'media', field: '', message: 'body is not JSON' });
  } else {
    problems.push(...problemsOf(checks.body, view.requestJson, 'body'));
  }
  return problems;
}
