/**
 * The forwarding layer of `ofkit proxy` rewrites the implementation's absolute URLs in JSON bodies only,
 * and only where the string continues the base URL (not a longer port or host).
 */
import { describe, expect, it } from 'vitest';
import { rewriteBody, rewriteUrls } from './rewriting-forwarder.js';

const FROM = 'http://127.0.0.1:8000';
const TO = 'http://localhost:4020';

describe('rewriteUrls', () => {
  it('rewrites next, previous and nested URLs; leaves other strings alone', () => {
    const page = {
      count: 3,
      next: `${FROM}/api/accounts/?page=2`,
      previous: FROM,
      results: [{ link: `${FROM}#x`, name: 'http://127.0.0.1:80001/x', other: 'http://example.test/' }],
    };
    expect(rewriteUrls(page, FROM, TO)).toEqual({
      count: 3,
      next: `${TO}/api/accounts/?page=2`,
      previous: TO,
      results: [{ link: `${TO}#x`, name: 'http://127.0.0.1:80001/x', other: 'http://example.test/' }],
    });
  });
});

describe('rewriteBody', () => {
  const json = Buffer.from(JSON.stringify({ next: `${FROM}/api/x/?page=2` }));

  it('rewrites an uncompressed JSON body (problem+json too)', () => {
    for (const type of ['application/json; charset=utf-8', 'application/problem+json']) {
      const out = rewriteBody(json, { 'content-type': type }, FROM, TO);
      expect(JSON.parse(out.toString())).toEqual({ next: `${TO}/api/x/?page=2` });
    }
  });

  it('passes other types, encoded bodies and broken JSON through byte for byte', () => {
    expect(rewriteBody(json, { 'content-type': 'text/plain' }, FROM, TO)).toBe(json);
    const gzip = { 'content-type': 'application/json', 'content-encoding': 'gzip' };
    expect(rewriteBody(json, gzip, FROM, TO)).toBe(json);
    const broken = Buffer.from(`{"next": "${FROM}/`);
    expect(rewriteBody(broken, { 'content-type': 'application/json' }, FROM, TO)).toBe(broken);
  });
});
