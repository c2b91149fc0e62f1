/** An exchange as a HAR 1.2 entry, and back. */
import { decodeBody } from '../../../openapi/http/content-coding.js';
import { bodyByteLength, bodyPiecesOf, keepBodyPieces } from '../exchange/body-pieces.js';
import { type Exchange, type HeaderList, headerOf } from '../exchange/exchange.js';
import type { HarEntry, HarNameValue } from './har-types.js';

const toPairs = (headers: HeaderList): HarNameValue[] => headers.map(([name, value]) => ({ name, value }));
const fromPairs = (pairs: readonly HarNameValue[] | undefined): HeaderList =>
  (pairs ?? []).map(({ name, value }) => [name.toLowerCase(), String(value)] as const);

const pairOf = (pair: string): HarNameValue => ({
  name: pair.slice(0, pair.indexOf('=')),
  value: pair.slice(pair.indexOf('=') + 1),
});

/** The cookies a request sends: `a=1; b=2`. */
function requestCookies(header: string | undefined): HarNameValue[] {
  if (header === undefined) return [];
  return header
    .split(';')
    .map((pair) => pair.trim())
    .filter((pair) => pair.includes('='))
    .map(pairOf);
}

/** The cookies an answer sets: the first pair of each `set-cookie` (the rest are its attributes). */
function responseCookies(headers: HeaderList): HarNameValue[] {
  return headers
    .filter(([name]) => name.toLowerCase() === 'set-cookie')
    .map(([, value]) => value.split(';')[0]!.trim())
    .filter((pair) => pair.includes('='))
    .map(pairOf);
}

function queryOf(url: string): HarNameValue[] {
  return [...new URL(url).searchParams].map(([name, value]) => ({ name, value }));
}

/** A body's text as an entry holds it (`postData`, `content`), with the pieces it was written in. */
function withText<T extends object>(holder: T, message: object, text: string): T & { text: string } {
  const held = Object.assign(holder, { text });
  const pieces = bodyPiecesOf(message);
  if (pieces !== undefined) keepBodyPieces(held, pieces);
  return held;
}

/** The HAR entry of a (redacted) exchange. */
export function toHarEntry(exchange: Exchange): HarEntry {
  const { request, response } = exchange;
  const requestType = headerOf(request.headers, 'content-type');
  const responseType = headerOf(response.headers, 'content-type') ?? '';
  const responseBytes = bodyByteLength(response, response.body);
  const ofkit = {
    ...(exchange.upstreamFailure && { upstream_failure: exchange.upstreamFailure }),
    ...(request.bodyOmitted && { request_body_omitted: true }),
    ...(response.bodyOmitted && { response_body_omitted: true }),
    ...(request.bodyDigest && { request_body_digest: request.bodyDigest }),
    ...(response.bodyDigest && { response_body_digest: response.bodyDigest }),
  };
  return {
    startedDateTime: exchange.startedAt,
    time: exchange.durationMs,
    request: {
      method: request.method,
      url: request.url,
      httpVersion: 'HTTP/1.1',
      cookies: requestCookies(headerOf(request.headers, 'cookie')),
      headers: toPairs(request.headers),
      queryString: queryOf(request.url),
      ...(request.body !== undefined && {
        postData: withText({ mimeType: requestType ?? 'application/octet-stream' }, request, request.body),
      }),
      headersSize: -1,
      bodySize: request.bodyDigest?.length ?? bodyByteLength(request, request.body),
    },
    response: {
      status: response.status,
      statusText: response.statusText,
      httpVersion: 'HTTP/1.1',
      cookies: responseCookies(response.headers),
      headers: toPairs(response.headers),
      content:
        response.body === undefined
          ? { size: responseBytes, mimeType: responseType }
          : withText({ size: responseBytes, mimeType: responseType }, response, response.body),
      redirectURL: headerOf(response.headers, 'location') ?? '',
      headersSize: -1,
      bodySize: responseBytes,
    },
    cache: {},
    timings: { send: 0, wait: exchange.durationMs, receive: 0 },
    ...(Object.keys(ofkit).length > 0 && { _ofkit: ofkit }),
  };
}

/**
 * A body of a HAR entry as text (base64-encoded bodies decoded); omitted when the tool left it out. HAR
 * keeps a body decoded from its content coding, but some tools keep the coded bytes in base64: those
 * are undone when they undo under the codings the headers name, and read as they are otherwise.
 */
function bodyText(
  text: string | undefined,
  encoding: string | undefined,
  headers: HeaderList,
): string | undefined {
  if (text === undefined) return undefined;
  if (encoding !== 'base64') return text;
  const bytes = Buffer.from(text, 'base64');
  const decoded = decodeBody([bytes], headers);
  return 'text' in decoded ? decoded.text : bytes.toString('utf8');
}

/** The exchange of a HAR entry written by any tool (ofkit, a browser, a proxy). */
export function fromHarEntry(entry: HarEntry): Exchange {
  const { request, response } = entry;
  const requestBody = request.postData?.text;
  const responseHeaders = fromPairs(response.headers);
  const responseBody = bodyText(response.content?.text, response.content?.encoding, responseHeaders);
  const ofkit = entry._ofkit ?? {};
  const sentBody = request.bodySize > 0 || request.postData !== undefined;
  return {
    startedAt: entry.startedDateTime,
    durationMs: Number(entry.time) || 0,
    request: {
      method: request.method.toUpperCase(),
      url: request.url,
      headers: fromPairs(request.headers),
      ...(requestBody !== undefined && { body: requestBody }),
      ...((ofkit.request_body_omitted || (sentBody && requestBody === undefined)) && { bodyOmitted: true }),
      ...(ofkit.request_body_digest && { bodyDigest: ofkit.request_body_digest }),
    },
    response: {
      status: response.status,
      statusText: response.statusText ?? '',
      headers: responseHeaders,
      ...(responseBody !== undefined && { body: responseBody }),
      ...((ofkit.response_body_omitted || (response.content?.size > 0 && responseBody === undefined)) && {
        bodyOmitted: true,
      }),
      ...(ofkit.response_body_digest && { bodyDigest: ofkit.response_body_digest }),
    },
    ...(ofkit.upstream_failure && { upstreamFailure: ofkit.upstream_failure }),
  };
}
