/**
 * The proxy's one change to an answer: absolute URLs to the implementation, in JSON strings that start
 * with its base URL (also `\/`-escaped) and in a Location, point at the proxy; nothing else moves.
 */
import { describe, expect, it } from 'vitest';
import { jsonUrlRewriter, rewriteBody, rewriteUrl } from './rewrite-urls.js';

const FROM = 'http://127.0.0.1:8000';
const TO = 'http://localhost:4020';
const rewriteBytes = jsonUrlRewriter(FROM, TO);
const rewrite = (text: string) => rewriteBytes(Buffer.from(text)).toString();

describe('rewriteUrl', () => {
  it('rewrites the base URL itself and what continues it with /, ? or #, nothing longer', () => {
    expect(rewriteUrl(`${FROM}/api/x/?page=2`, FROM, TO)).toBe(`${TO}/api/x/?page=2`);
    expect(rewriteUrl(FROM, FROM, TO)).toBe(TO);
    expect(rewriteUrl(`${FROM}#a`, FROM, TO)).toBe(`${TO}#a`);
    expect(rewriteUrl(`${FROM}1/x`, FROM, TO)).toBe(`${FROM}1/x`);
    expect(rewriteUrl('http://example.test/', FROM, TO)).toBe('http://example.test/');
  });
});

describe('jsonUrlRewriter', () => {
  it('rewrites strings that start with the base URL, leaves the rest of the text byte for byte', () => {
    const text = `{ "next" : "${FROM}/api/a/?page=2", "previous":null, "note": "see ${FROM}/api/", "other": "${FROM}1/x", "bare": "${FROM}" }`;
    expect(rewrite(text)).toBe(
      `{ "next" : "${TO}/api/a/?page=2", "previous":null, "note": "see ${FROM}/api/", "other": "${FROM}1/x", "bare": "${TO}" }`,
    );
  });

  it('rewrites the escaped form JSON allows, and not a quote that is itself escaped', () => {
    const escaped = FROM.replaceAll('/', '\\/');
    expect(rewrite(`{"next":"${escaped}\\/api\\/"}`)).toBe(
      `{"next":"${TO.replaceAll('/', '\\/')}\\/api\\/"}`,
    );
    expect(rewrite(`{"quote":"say \\"${FROM}/x\\""}`)).toBe(`{"quote":"say \\"${FROM}/x\\""}`);
  });
});

describe('rewriteBody', () => {
  const json = Buffer.from(JSON.stringify({ next: `${FROM}/api/x/?page=2` }));

  it('rewrites an uncompressed JSON body (any +json type)', () => {
    for (const type of ['application/json; charset=utf-8', 'application/problem+json']) {
      expect(JSON.parse(rewriteBody(json, type, '', rewriteBytes).toString())).toEqual({
        next: `${TO}/api/x/?page=2`,
      });
    }
  });

  it('passes other types and encoded bodies through as the same bytes', () => {
    expect(rewriteBody(json, 'text/plain', '', rewriteBytes)).toBe(json);
    expect(rewriteBody(json, 'application/json', 'gzip', rewriteBytes)).toBe(json);
  });
});
