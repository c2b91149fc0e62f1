/**
 * Test support: every credential and personal value a client sent or received, to look for in a
 * recording: the Basic key id, secret and header value; body and query values under a credential's
 * name (a fixed list written here, apart from the redactor's); and every value at a member the
 * document marks `x-personal` (through the document's schemas). Constants and enumerated values say
 * what, never who, and are kept on purpose; values under 5 characters could match anywhere and are
 * left out. `foundIn` looks for a value as a whole token (`123456` inside `000123456` is another value).
 */
import { isObject, type JsonObject } from '../../openapi/document/json.js';
import type { BridgeDocument } from '../src/document/bridge-document.js';
import { walkWithSchema } from '../src/document/schema-walk.js';
import type { SeenExchange } from './traffic-client.js';

// The MFA `session` is not among them: it stays readable, the judge follows a resume by it.
const CREDENTIALS = new Set([
  'password',
  'password2',
  'passwd',
  'pin',
  'otp',
  'token',
  'username',
  'access',
  'refresh',
  'secret',
  'bearer_token',
]);
const MIN_LENGTH = 5;

const isConstant = (schemas: readonly JsonObject[]) =>
  schemas.some((s) => 'const' in s || Array.isArray(s.enum));

function credentialsIn(value: unknown, into: Set<string>): void {
  if (Array.isArray(value)) for (const item of value) credentialsIn(item, into);
  else if (isObject(value as JsonObject))
    for (const [name, member] of Object.entries(value as JsonObject)) {
      if (CREDENTIALS.has(name) && typeof member === 'string') into.add(member);
      else credentialsIn(member, into);
    }
}

/** Every scalar at or inside a personal member, unless its own schema makes it a constant. */
function personalIn(document: BridgeDocument, schema: unknown, value: unknown, into: Set<string>): void {
  if (schema === undefined) return;
  const personal: string[] = [];
  walkWithSchema(document, schema as JsonObject, value, (current, schemas, path) => {
    const at = path.join('/');
    if (schemas.some((s) => s['x-personal'] === true)) personal.push(at);
    const inside = personal.some((prefix) => prefix === '' || at === prefix || at.startsWith(`${prefix}/`));
    if (inside && (typeof current === 'string' || typeof current === 'number') && !isConstant(schemas))
      into.add(String(current));
    return undefined;
  });
}

const parse = (text: string | undefined) => {
  try {
    return text === undefined || text === '' ? undefined : JSON.parse(text);
  } catch {
    return undefined;
  }
};

/** The sensitive values of `exchanges`, each at least 5 characters long. */
export function sensitiveValues(document: BridgeDocument, exchanges: readonly SeenExchange[]): Set<string> {
  const found = new Set<string>();
  for (const exchange of exchanges) {
    const basic = /^Basic (\S+)$/.exec(exchange.headers.authorization ?? '')?.[1];
    if (basic) {
      found.add(basic);
      for (const part of Buffer.from(basic, 'base64').toString('utf8').split(':')) found.add(part);
    }
    const request = parse(exchange.body);
    const answer = parse(exchange.answer);
    credentialsIn(request, found);
    credentialsIn(answer, found);
    const url = new URL(exchange.url);
    const route = document.route(exchange.method, url.pathname);
    if (!route.ok) continue;
    personalIn(document, route.operation.body?.schema, request, found);
    personalIn(document, document.responseOf(route.operation, exchange.status)?.schema, answer, found);
  }
  return new Set([...found].filter((value) => value.length >= MIN_LENGTH));
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The values of `values` that `text` holds as whole tokens (not inside a longer run of letters or digits). */
export function foundIn(text: string, values: Iterable<string>): string[] {
  const word = '[A-Za-z0-9\\u0080-\\uffff]';
  return [...values].filter((value) =>
    new RegExp(`(?<!${word})${escapeRegExp(value)}(?!${word})`, 'u').test(text),
  );
}
