/**
 * Reads pact files (V2, V3 or V4 JSON) into one shape: each HTTP interaction's request and response with
 * the example values Pact holds next to its matching rules. Matchers are not evaluated: the examples
 * are what the consumer sends and what it was shown, so they are what the document must accept.
 */
import { readdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { isObject, type JsonObject, type JsonValue } from '../../openapi/document/json.js';

export interface PactMessage {
  /** Header names in lower case; every value of a repeated header. */
  headers: Record<string, string[]>;
  /** The JSON body, when there is one (`undefined`: no body). */
  body: JsonValue | undefined;
  /** The body's content type, from the body (V4) or the Content-Type header. */
  contentType: string | undefined;
}

export interface PactRequest extends PactMessage {
  method: string;
  path: string;
  query: Record<string, string[]>;
}

export interface PactResponse extends PactMessage {
  status: number;
}

export interface PactInteraction {
  file: string;
  consumer: string;
  provider: string;
  description: string;
  states: string[];
  request: PactRequest;
  response: PactResponse;
}

export interface LoadedPacts {
  interactions: PactInteraction[];
  /** Interactions that are not HTTP (messages), listed so a report can say they were not checked. */
  skipped: { file: string; description: string; reason: string }[];
}

/** Every `.json` file of the given files and directories (directories are not walked recursively). */
export async function pactFilesOf(paths: readonly string[]): Promise<string[]> {
  const files: string[] = [];
  for (const path of paths) {
    if ((await stat(path)).isDirectory()) {
      const names = (await readdir(path)).filter((name) => name.endsWith('.json')).sort();
      files.push(...names.map((name) => join(path, name)));
    } else {
      files.push(path);
    }
  }
  return files;
}

function stringsOf(value: JsonValue | undefined): string[] {
  if (Array.isArray(value)) return value.map(String);
  return value === undefined || value === null ? [] : [String(value)];
}

function headersOf(value: JsonValue | undefined): Record<string, string[]> {
  const headers: Record<string, string[]> = {};
  if (!isObject(value)) return headers;
  // V2/V3 headers hold one comma-joined string; V4 holds the values as an array.
  for (const [name, raw] of Object.entries(value)) headers[name.toLowerCase()] = stringsOf(raw);
  return headers;
}

function queryOf(value: JsonValue | undefined): Record<string, string[]> {
  if (typeof value === 'string') {
    // V2 query string.
    const query: Record<string, string[]> = {};
    for (const [name, item] of new URLSearchParams(value)) query[name] = [...(query[name] ?? []), item];
    return query;
  }
  const query: Record<string, string[]> = {};
  if (isObject(value)) for (const [name, raw] of Object.entries(value)) query[name] = stringsOf(raw);
  return query;
}

/** The body and its content type: V4 wraps the body in `{content, contentType, encoded}`. */
function bodyOf(message: JsonObject, v4: boolean, headers: Record<string, string[]>): PactMessage {
  const headerType = headers['content-type']?.[0];
  if (!('body' in message)) return { headers, body: undefined, contentType: headerType };
  const raw = message.body;
  if (v4 && isObject(raw) && 'content' in raw) {
    const contentType = typeof raw.contentType === 'string' ? raw.contentType : headerType;
    let content = raw.content;
    if (typeof content === 'string' && raw.encoded === false && (contentType ?? '').includes('json')) {
      content = JSON.parse(content) as JsonValue;
    }
    return { headers, body: content, contentType };
  }
  return { headers, body: raw, contentType: headerType ?? 'application/json' };
}

function interactionOf(file: string, pact: JsonObject, raw: JsonObject, v4: boolean): PactInteraction {
  const request = isObject(raw.request) ? raw.request : {};
  const response = isObject(raw.response) ? raw.response : {};
  const states = Array.isArray(raw.providerStates)
    ? raw.providerStates.map((state) => (isObject(state) ? String(state.name) : String(state)))
    : typeof raw.providerState === 'string'
      ? [raw.providerState]
      : [];
  const requestHeaders = headersOf(request.headers);
  const responseHeaders = headersOf(response.headers);
  return {
    file,
    consumer: isObject(pact.consumer) ? String(pact.consumer.name) : 'consumer',
    provider: isObject(pact.provider) ? String(pact.provider.name) : 'provider',
    description: String(raw.description ?? '(no description)'),
    states,
    request: {
      method: String(request.method ?? 'GET').toUpperCase(),
      path: String(request.path ?? '/'),
      query: queryOf(request.query),
      ...bodyOf(request, v4, requestHeaders),
    },
    response: { status: Number(response.status ?? 200), ...bodyOf(response, v4, responseHeaders) },
  };
}

/** Loads the HTTP interactions of the given pact files and directories. */
export async function loadPacts(paths: readonly string[]): Promise<LoadedPacts> {
  const loaded: LoadedPacts = { interactions: [], skipped: [] };
  for (const file of await pactFilesOf(paths)) {
    const pact = JSON.parse(await readFile(file, 'utf8')) as JsonObject;
    const metadata = isObject(pact.metadata) ? pact.metadata : {};
    const specification = isObject(metadata.pactSpecification) ? metadata.pactSpecification : {};
    const v4 = String(specification.version ?? '').startsWith('4');
    const interactions = Array.isArray(pact.interactions) ? pact.interactions.filter(isObject) : [];
    for (const raw of interactions) {
      const type = typeof raw.type === 'string' ? raw.type : 'Synchronous/HTTP';
      if (type !== 'Synchronous/HTTP' || !isObject(raw.request)) {
        const description = String(raw.description ?? '(no description)');
        loaded.skipped.push({ file, description, reason: `${type} interactions are not HTTP` });
        continue;
      }
      loaded.interactions.push(interactionOf(file, pact, raw, v4));
    }
  }
  return loaded;
}
