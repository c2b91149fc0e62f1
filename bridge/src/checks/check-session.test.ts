/**
 * The checks on synthetic exchanges: what differs from the document gets its kind and, where a rule
 * governs it, its rule (an error answer's shape ERR-BODY, a required member RESP-REQUIRED-NULLABLE, a
 * deprecated one RESP-DEPRECATED, a version segment VERSION-NO-PATH, a method ERR-405, a page
 * PAGE-NAV / PAGE-DEFAULT); a request the document refuses is the client's, its acceptance the server's.
 */
import { describe, expect, it } from 'vitest';
import { loadBridgeDocument } from '../document/bridge-document.js';
import type { Exchange } from '../exchange/exchange.js';
import { createCheckSession } from './check-session.js';
import type { Finding } from './finding.js';

const BASE = 'http://api.test';
const AUTH = `Basic ${Buffer.from('k:s').toString('base64')}`;
const LINK = '3f2a9c1e-2222-4222-8222-222222222222';

function check(
  method: string,
  path: string,
  status: number,
  response?: unknown,
  request?: unknown,
): Finding[] {
  const exchange: Exchange = {
    startedAt: '2026-11-02T12:00:00.000Z',
    durationMs: 1,
    request: {
      method,
      url: `${BASE}${path}`,
      headers: [
        ['authorization', AUTH],
        ['content-type', 'application/json'],
      ],
      ...(request !== undefined && { body: JSON.stringify(request) }),
    },
    response: {
      status,
      statusText: '',
      headers: [['content-type', 'application/json']],
      ...(response !== undefined && { body: JSON.stringify(response) }),
    },
  };
  return createCheckSession(loadBridgeDocument()).observe(exchange);
}

const brief = (findings: Finding[]) =>
  findings.map((f) => [f.kind, f.rule, f.member].filter(Boolean).join(' '));
const ROOT = { service: 'x', version: '1.223.0', environment: 'sandbox' };
const page = (count: number, results: unknown[], next: string | null = null) => ({
  count,
  next,
  previous: null,
  results,
});

describe('the document checks', () => {
  it('find nothing in an answer that keeps the document', () => {
    expect(check('GET', '/api/', 200, ROOT)).toEqual([]);
  });

  it('name an undocumented member, a value outside its enum, an error answer that is no error array', () => {
    expect(brief(check('GET', '/api/', 200, { ...ROOT, region: 'br' }))).toEqual([
      'undocumented-member region',
    ]);
    expect(brief(check('GET', '/api/', 200, { ...ROOT, environment: 'staging' }))).toEqual([
      'enum environment',
    ]);
    expect(brief(check('GET', '/api/', 401, { detail: 'no' }))).toContain('schema ERR-BODY');
    expect(brief(check('GET', '/api/', 500, undefined))).toEqual(['schema ERR-500-408']);
  });

  it('name an undocumented status, VERSION-NO-PATH and ERR-405', () => {
    expect(brief(check('GET', '/api/', 203, ROOT))).toEqual(['undocumented-status']);
    expect(brief(check('POST', '/api/links/', 200, {}, { institution: 'x', username: 'u' }))[0]).toBe(
      'undocumented-status LINK-REGISTER',
    );
    expect(brief(check('GET', '/v1/api/', 200, ROOT))).toEqual(['undocumented-operation VERSION-NO-PATH']);
    expect(
      brief(check('PATCH', '/api/br/balances/', 404, [{ request_id: 'r', message: 'm', code: 'not_found' }])),
    ).toEqual(['rule ERR-405']);
    // HEAD answered like GET, and a CORS preflight, are no ERR-405 (as in the conformance suite).
    expect(check('HEAD', '/api/', 200)).toEqual([]);
    expect(check('OPTIONS', '/api/', 204)).toEqual([]);
  });

  it('tell the client side from the server side of a request the document refuses', () => {
    const required = [{ request_id: 'r', message: 'm', code: 'invalid', field: 'link' }];
    expect(brief(check('GET', '/api/transactions/', 400, required))).toEqual([
      'request link',
      'rule ERR-REQUIRED link',
    ]);
    expect(brief(check('GET', '/api/transactions/', 200, page(0, [])))).toEqual([
      'request link',
      'accepted-invalid LIST-LINK-REQUIRED link',
    ]);
  });

  it('PAGE-NAV and PAGE-DEFAULT on a page', () => {
    const next = `${BASE}/api/links/?page=2`;
    expect(brief(check('GET', '/api/links/?page_size=1&status=valid', 200, page(3, [], next)))).toEqual([
      'rule PAGE-NAV',
      'rule PAGE-DEFAULT',
    ]);
    expect(brief(check('GET', `/api/owners/?link=${LINK}`, 200, page(0, [])))).toEqual([]);
  });
});

describe("the client judge fed from the client's side", () => {
  const retryVerdict = (status: number) => {
    const session = createCheckSession(loadBridgeDocument());
    session.observe({
      startedAt: '2026-11-02T12:00:00.000Z',
      durationMs: 1,
      request: { method: 'GET', url: `${BASE}/api/institutions/`, headers: [['authorization', AUTH]] },
      response: { status, statusText: '', headers: [['content-type', 'application/json']], body: '[]' },
    });
    return session.judge()[0]!.verdicts.find((verdict) => verdict.rule === 'CLIENT-RETRY-5XX')!.verdict;
  };

  it('CLIENT-RETRY-5XX: a 50x left unretried is a violation; a status past 599 is no 50x', () => {
    expect(retryVerdict(503)).toBe('violated');
    expect(retryVerdict(999)).toBe('not_exercised');
  });
});
