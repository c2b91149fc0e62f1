/**
 * The proxy's one change to an answer: absolute URLs to the implementation, in JSON strings that start
 * with its base URL (also `\/`-escaped) and in a Location, point at the proxy; nothing else moves.
 */
import { describe, expect, it } from 'vitest';
import { jsonUrlRewriter, rewriteBody, rewriteUrl } from './rewrite-urls.js';

const FROM = 'http://127.0.0.1:8000';
const TO = 'http://localhost:4020';
const rewriteBytes = jsonUrlRewriter(FROM, TO);
const rewrite = (text: string) => Buffer.concat(rewriteBytes([Buffer.from(text)])).toString();

/** `text` cut into chunks at the given byte offsets. */
function cut(text: string, offsets: readonly number[]): Buffer[] {
  const bytes = Buffer.from(text);
  const ends = [...offsets, bytes.length];
  return ends.map((end, index) => bytes.subarray(index === 0 ? 0 : ends[index - 1], end));
}

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

describe('jsonUrlRewriter over the chunks a body came in', () => {
  const escaped = FROM.replaceAll('/', '\\/');
  // The host alone, another scheme and a URL that only ends like the base URL stay as they are.
  const text = `{"h":"127.0.0.1:8000","s":"https://127.0.0.1:8000/x","p":"xhttp://127.0.0.1:8000","next":"${FROM}/api/a/?page=2","e":"${escaped}\\/x","q":"\\"${FROM}/y","z":"${FROM}1","end":"${FROM}"}`;
  const whole = rewrite(text);

  it('rewrites the three URLs that start with the base URL, in either form, and nothing else', () => {
    const escapedTo = TO.replaceAll('/', '\\/');
    expect(whole).toBe(
      `{"h":"127.0.0.1:8000","s":"https://127.0.0.1:8000/x","p":"xhttp://127.0.0.1:8000","next":"${TO}/api/a/?page=2","e":"${escapedTo}\\/x","q":"\\"${FROM}/y","z":"${FROM}1","end":"${TO}"}`,
    );
  });

  it('gives the same bytes wherever the chunks are cut, one cut or two (a URL, its quote, its next byte split)', () => {
    const length = Buffer.byteLength(text);
    for (let first = 1; first < length; first++) {
      expect(Buffer.concat(rewriteBytes(cut(text, [first]))).toString()).toBe(whole);
      for (let second = first + 1; second < Math.min(length, first + 40); second++)
        expect(Buffer.concat(rewriteBytes(cut(text, [first, second]))).toString()).toBe(whole);
    }
  });

  it('sends views of the chunks and the replacements, and the chunks themselves when nothing changes', () => {
    const chunks = cut(`{"a":"${FROM}1","b":"x"}`, [7]);
    expect(rewriteBytes(chunks)).toBe(chunks);
    const pieces = rewriteBytes(cut(text, [30, 60]));
    expect(pieces.length).toBeGreaterThan(3);
    expect(Buffer.concat(pieces).toString()).toBe(whole);
  });
});

describe('jsonUrlRewriter with a base path', () => {
  it('rewrites both forms of a base URL with a path, and not the host with another path', () => {
    const rewriteWithPath = jsonUrlRewriter(`${FROM}/ofapi`, `${TO}/ofapi`);
    const text = `{"a":"${FROM}/other/x","b":"${FROM}/ofapi/x","c":"${FROM.replaceAll('/', '\\/')}\\/ofapi\\/x"}`;
    expect(Buffer.concat(rewriteWithPath([Buffer.from(text)])).toString()).toBe(
      `{"a":"${FROM}/other/x","b":"${TO}/ofapi/x","c":"${TO.replaceAll('/', '\\/')}\\/ofapi\\/x"}`,
    );
  });
});

describe('jsonUrlRewriter with a base URL that has no host to search for', () => {
  it('still finds both forms (searching from the opening quote)', () => {
    const rewriteHostless = jsonUrlRewriter('file:///srv/api', 'http://localhost:4020');
    const text = '{"a":"file:///srv/api/x","b":"file:\\/\\/\\/srv\\/api\\/y","c":"file:///srv/apix"}';
    expect(Buffer.concat(rewriteHostless([Buffer.from(text)])).toString()).toBe(
      '{"a":"http://localhost:4020/x","b":"http:\\/\\/localhost:4020\\/y","c":"file:///srv/apix"}',
    );
  });
});

describe('rewriteBody', () => {
  const json = [Buffer.from(JSON.stringify({ next: `${FROM}/api/x/?page=2` }))];

  it('rewrites an uncompressed JSON body (any +json type)', () => {
    for (const type of ['application/json; charset=utf-8', 'application/problem+json']) {
      expect(JSON.parse(Buffer.concat(rewriteBody(json, type, '', rewriteBytes)).toString())).toEqual({
        next: `${TO}/api/x/?page=2`,
      });
    }
  });

  it('passes other types and encoded bodies through as the same bytes', () => {
    expect(rewriteBody(json, 'text/plain', '', rewriteBytes)).toBe(json);
    expect(rewriteBody(json, 'application/json', 'gzip', rewriteBytes)).toBe(json);
  });
});
