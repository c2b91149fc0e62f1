/** What the log keeps of a request's body (CLIENT-NO-SECRETS): credential members masked, every other member kept as sent. */
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { SimRequest } from '../core/http-types.js';
import { observeRequest } from './observe-request.js';

const AUTHORIZATION = `Basic ${Buffer.from('ofkit-key-a:ofkit-secret-a').toString('base64')}`;

function observe(body: string) {
  const request: SimRequest = {
    method: 'POST',
    path: '/api/links/',
    query: new URLSearchParams(),
    headers: { authorization: AUTHORIZATION },
    body,
    origin: 'http://127.0.0.1:4010',
  };
  return observeRequest(
    request,
    { status: 201, headers: {}, body: {} },
    { operationId: 'registerLink', rule: null },
    { atMs: 0, startedRealMs: 0, endedRealMs: 1 },
  );
}

describe('CLIENT-NO-SECRETS: a logged body', () => {
  it('masks credential members at every depth and keeps the others, in their order', () => {
    const body = JSON.stringify({
      institution: 'ofbank_br_retail',
      password: 'hunter2',
      nested: { token: '123456', list: [{ api_key: 'k', amount: 1.5 }], count: 2 },
      passport: 7,
    });
    const logged = observe(body);
    expect(logged.body).toBe(
      '{"institution":"ofbank_br_retail","password":"***","nested":{"token":"***","list":[{"api_key":"***","amount":1.5}],"count":2},"passport":7}',
    );
    expect(logged.sha256).toBe(createHash('sha256').update(body).digest('hex'));
  });

  it("keeps a body's own __proto__ member as a member, its credentials masked", () => {
    const logged = observe('{"__proto__":{"password":"hunter2","x":1},"y":2}');
    expect(logged.body).toBe('{"__proto__":{"password":"***","x":1},"y":2}');
  });

  it('masks the key id and secret wherever they show in the body', () => {
    const logged = observe('{"note":"ofkit-key-a:ofkit-secret-a"}');
    expect(logged.body).not.toContain('ofkit-secret-a');
    expect(logged.secrets).toEqual(['body']);
  });
});
