/**
 * Redacts an exchange before anything keeps it (the HAR file, a report's sample): the Authorization
 * header (the API key id and secret), other credential headers and cookies, credentials in bodies and
 * query strings (passwords, MFA tokens and sessions, widget tokens), and, unless personal data is kept,
 * the personal members the document marks `x-personal` and the query filters on them. Each value
 * becomes its deterministic pseudonym; a value redacted once is replaced wherever it shows up again in
 * the recording (a URL, an error message).
 */
import type { JsonObject, JsonValue } from '../../../openapi/document/json.js';
import { looksLikeForm } from '../../../openapi/security/masked-values.js';
import type { BridgeDocument, BridgeOperation } from '../document/bridge-document.js';
import { filterSpecOf } from '../document/filter-spec.js';
import { apiPathOf } from '../exchange/api-path.js';
import { bodyPiecesOf, keepBodyPieces } from '../exchange/body-pieces.js';
import {
  type Exchange,
  type ExchangeRequest,
  type ExchangeResponse,
  type HeaderList,
  isJsonMedia,
  keepParsedBody,
  mediaTypeOf,
} from '../exchange/exchange.js';
import { learnJsonBody, type RedactedBody, redactedJsonBody } from './json-body.js';
import { createPersonalFilterLookup } from './personal-members.js';
import { createPseudonymizer } from './pseudonyms.js';
import { type JsonRedaction, redactJson, type ValueKind } from './redact-json.js';
import { createReplacements } from './replacements.js';
import {
  COOKIE_HEADERS,
  isCredentialName,
  MIN_SEARCHED_PERSONAL,
  MIN_SEARCHED_SECRET,
} from './secret-places.js';

export interface RedactorOptions {
  document: BridgeDocument;
  /** The pseudonyms' HMAC key (random per recording; fixed in tests). */
  key: Buffer;
  /** `--keep-personal`: personal members stay as they are; credentials are still redacted. */
  keepPersonal: boolean;
  /** The implementation's base path (`/ofapi`), to find the operation of a URL. */
  basePath: string;
}

export interface Redactor {
  redact(exchange: Exchange): Exchange;
  /**
   * Learns what `redact` would (every credential and personal value of the exchange, with its
   * pseudonym) without writing the redacted copy: for text redacted from what a run's exchanges
   * carried, where the exchanges themselves are not kept.
   */
  learn(exchange: Exchange): void;
  /** A free text with every value redacted so far (in any exchange) replaced by its pseudonym. */
  text(value: string): string;
  /** A JSON value outside an exchange (a webhook's payload): credentials by name, then the free text. */
  json(value: unknown): unknown;
}

const LIST_LOOKUPS = new Set(['in', 'not_in', 'allin']);

/**
 * A URL part percent-decoded; as it is where its encoding is malformed (`?link=%zz`, which clients and
 * fuzzers send and servers answer): it is still redacted by name and searched for values.
 */
function decodedPart(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

export function createRedactor(options: RedactorOptions): Redactor {
  const { document } = options;
  const pseudonyms = createPseudonymizer(options.key);
  const secretValues = new Set<string>();
  const replacements = createReplacements((raw) =>
    secretValues.has(raw) ? MIN_SEARCHED_SECRET : MIN_SEARCHED_PERSONAL,
  );
  const personalFilter = createPersonalFilterLookup(document);
  const pseudonym = (value: string | number, kind: ValueKind, schemas: readonly JsonObject[] = []) => {
    if (typeof value === 'number') return pseudonyms.of(value, schemas, validator(schemas));
    const known = replacements.get(value);
    if (known !== undefined) return known;
    const chosen = String(pseudonyms.of(value, schemas, validator(schemas)));
    if (kind === 'secret') secretValues.add(value);
    replacements.add(value, chosen);
    return chosen;
  };
  const validator = (schemas: readonly JsonObject[]) => (candidate: unknown) =>
    schemas.every((schema) => document.ajv.compile(schema)(candidate));
  const json: JsonRedaction = { document, keepPersonal: options.keepPersonal, pseudonym };
  const bodyRedaction = { document, json, replacements };

  function authorization(value: string): string {
    const [scheme = '', token = ''] = value.split(/\s+(.*)/s);
    if (/^basic$/i.test(scheme) && token !== '') {
      const decoded = Buffer.from(token, 'base64').toString('utf8');
      const colon = decoded.indexOf(':');
      if (colon >= 0) {
        const id = String(pseudonym(decoded.slice(0, colon), 'secret'));
        const secret = String(pseudonym(decoded.slice(colon + 1), 'secret'));
        const encoded = Buffer.from(`${id}:${secret}`).toString('base64');
        replacements.add(token, encoded);
        secretValues.add(token);
        return `${scheme} ${encoded}`;
      }
    }
    return token === '' ? String(pseudonym(value, 'secret')) : `${scheme} ${pseudonym(token, 'secret')}`;
  }

  function cookies(value: string, name: string): string {
    const redactPair = (pair: string) => {
      const equals = pair.indexOf('=');
      return equals < 0
        ? pair
        : `${pair.slice(0, equals + 1)}${pseudonym(pair.slice(equals + 1).trim(), 'secret')}`;
    };
    if (name === 'set-cookie') {
      const [first = '', ...attributes] = value.split(';');
      return [redactPair(first), ...attributes].join(';');
    }
    return value.split(';').map(redactPair).join(';');
  }

  /** Credential headers by name (each registers its value). */
  function namedHeaders(list: HeaderList): HeaderList {
    return list.map(([name, value]): [string, string] => {
      const lower = name.toLowerCase();
      if (lower === 'authorization' || lower === 'proxy-authorization') return [name, authorization(value)];
      if (isCredentialName(lower)) return [name, String(pseudonym(value, 'secret'))];
      if (COOKIE_HEADERS.has(lower)) return [name, cookies(value, lower)];
      return [name, value];
    });
  }

  /** Credential headers by name first (they register their values), then every value's free text. */
  function headers(list: HeaderList): HeaderList {
    return namedHeaders(list).map(([name, value]) => [name, replacements.apply(value)]);
  }

  /** A form body's (or query's) pairs: each credential's value by name, then the free text. */
  function formPairs(text: string, redactValue: (name: string, value: string) => string): string {
    return text
      .split('&')
      .map((pair) => {
        const equals = pair.indexOf('=');
        if (equals < 0) return pair;
        const decode = (part: string) => decodedPart(part.replaceAll('+', ' '));
        const value = decode(pair.slice(equals + 1));
        const redacted = redactValue(decode(pair.slice(0, equals)), value);
        return redacted === value ? pair : `${pair.slice(0, equals + 1)}${encodeURIComponent(redacted)}`;
      })
      .join('&');
  }

  /** A form body's credentials by name (each registers its value). */
  const formCredentials = (text: string) =>
    formPairs(text, (name, value) => (isCredentialName(name) ? String(pseudonym(value, 'secret')) : value));

  /** Whether `body` reads a message's body as a form (else as JSON). */
  const isForm = (media: string, text: string) =>
    media === 'application/x-www-form-urlencoded' || (!isJsonMedia(media) && looksLikeForm(text));

  /**
   * A body redacted before it is kept: JSON beside its schema, a form by its names, each then searched
   * for every value redacted so far (an error message quoting what was sent, a name a record repeats
   * in a member the document does not mark, a document number inside a longer identifier). A body that
   * is neither cannot be read for credentials: its length and sha256 only are kept.
   */
  function body(message: ExchangeRequest | ExchangeResponse, schema: JsonValue | undefined): RedactedBody {
    const { body: text, headers: list } = message;
    // A body read in pieces is a JSON text with a list in it (exchange/json-split.ts): not blank.
    const split = bodyPiecesOf(message);
    if (text === undefined || (split === undefined && text.trim() === '')) return { text };
    if (isForm(mediaTypeOf(list), text)) return { text: replacements.apply(formCredentials(text)) };
    return redactedJsonBody(bodyRedaction, text, split, schema);
  }

  /** What `body` learns of a body, without writing it again. */
  function learnBody(message: ExchangeRequest | ExchangeResponse, schema: JsonValue | undefined): void {
    const { body: text, headers: list } = message;
    const split = bodyPiecesOf(message);
    if (text === undefined || (split === undefined && text.trim() === '')) return;
    if (isForm(mediaTypeOf(list), text)) formCredentials(text);
    else learnJsonBody(bodyRedaction, text, split, schema);
  }

  /** Each query value: a credential by name, a personal filter value, then the free text. */
  function queryValue(operation: BridgeOperation | undefined, name: string, value: string): string {
    if (isCredentialName(name)) return String(pseudonym(value, 'secret'));
    const filter = operation && !options.keepPersonal ? filterSpecOf(operation, name) : undefined;
    if (operation && filter && personalFilter(operation, filter.member)) {
      const parts = LIST_LOOKUPS.has(filter.lookup) || filter.lookup === 'range' ? value.split(',') : [value];
      return parts.map((part) => String(pseudonym(part, 'personal'))).join(',');
    }
    return replacements.apply(value);
  }

  function url(raw: string, operation: BridgeOperation | undefined): string {
    const parsed = new URL(raw);
    if (parsed.username !== '') parsed.username = String(pseudonym(decodedPart(parsed.username), 'secret'));
    if (parsed.password !== '') parsed.password = String(pseudonym(decodedPart(parsed.password), 'secret'));
    const query = parsed.search.slice(1);
    if (query !== '') parsed.search = formPairs(query, (name, value) => queryValue(operation, name, value));
    return replacements.apply(parsed.href);
  }

  /** An exchange's operation, and the schema of its response's body. */
  function operationOf({ request, response }: Exchange) {
    const path = apiPathOf(new URL(request.url), options.basePath);
    const route = document.route(request.method, path);
    const operation = route.ok ? route.operation : undefined;
    return {
      operation,
      responseSchema: operation && document.responseOf(operation, response.status)?.schema,
    };
  }

  return {
    text: (value) => replacements.apply(value),
    json: (value) => JSON.parse(replacements.applyJson(JSON.stringify(redactJson(json, value, undefined)))),
    // The same places, in the same order, as `redact` (a value's first place decides its pseudonym).
    learn(exchange) {
      const { request, response } = exchange;
      const { operation, responseSchema } = operationOf(exchange);
      namedHeaders(request.headers);
      learnBody(request, operation?.body?.schema);
      learnBody(response, responseSchema);
      url(request.url, operation);
      namedHeaders(response.headers);
    },
    redact(exchange) {
      const { request, response } = exchange;
      const { operation, responseSchema } = operationOf(exchange);
      // The credentials first: every later place is searched for them.
      const requestHeaders = headers(request.headers);
      const requestBody = body(request, operation?.body?.schema);
      const responseBody = body(response, responseSchema);
      const redactedRequest = {
        ...request,
        url: url(request.url, operation),
        headers: requestHeaders,
        body: requestBody.text,
        ...(requestBody.omitted && { bodyOmitted: true }),
        ...(requestBody.digest && { bodyDigest: requestBody.digest }),
      };
      const redactedResponse = {
        ...response,
        headers: headers(response.headers),
        body: responseBody.text,
        ...(responseBody.omitted && { bodyOmitted: true }),
        ...(responseBody.digest && { bodyDigest: responseBody.digest }),
      };
      if ('parsed' in requestBody) keepParsedBody(redactedRequest, requestBody.parsed);
      if ('parsed' in responseBody) keepParsedBody(redactedResponse, responseBody.parsed);
      if (requestBody.pieces) keepBodyPieces(redactedRequest, requestBody.pieces);
      if (responseBody.pieces) keepBodyPieces(redactedResponse, responseBody.pieces);
      return {
        ...exchange,
        request: redactedRequest,
        response: redactedResponse,
        ...(exchange.upstreamFailure && {
          upstreamFailure: {
            ...exchange.upstreamFailure,
            message: replacements.apply(exchange.upstreamFailure.message),
          },
        }),
      };
    },
  };
}
