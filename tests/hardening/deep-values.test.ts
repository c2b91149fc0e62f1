/**
 * The 500s a fuzzer found in the newest control surfaces. A value nested 10,000 deep, in a described
 * link's record or in an extra member of a link registration, was stored and then overflowed the
 * stack of every walk of it: the export (the state could no longer be exported) and the list that
 * held it. Such a body is refused with 400 before anything is stored, and every state the simulator
 * accepted exports. Repeated and bracketed query parameters read as documented (the first value of a
 * parameter counts; a name the operation does not declare is ignored), never a 500.
 */
import { describe, expect, it } from 'vitest';
import { MAX_BODY_DEPTH } from '../../simulator/src/pipeline/validate.js';
import {
  contractCheckedSimulator,
  createContractCheck,
} from '../../simulator/test-support/contract-checked-simulator.js';

const deep = (levels: number) => `${'{"a":'.repeat(levels)}1${'}'.repeat(levels)}`;

describe('a value nested deeper than any body of the API is refused, and the state still exports', () => {
  it('POST /_ofkit/links/ and POST /api/links/ with a member 10,000 deep: 400, nothing stored', async () => {
    const sim = await contractCheckedSimulator('deep-values');
    const described = `{"institution":"ofbank_br_retail","records":{"owners":[{"display_name":"x","extra":${deep(10_000)}}]}}`;
    const registered = `{"institution":"ofbank_br_retail","username":"76109277673","password":"p","extra":${deep(10_000)}}`;
    for (const [path, rawBody] of [
      ['/_ofkit/links/', described],
      ['/api/links/', registered],
    ] as const) {
      const answer = await sim.call('POST', path, { rawBody });
      expect(answer.status, path).toBe(400);
      expect(answer.body[0].message).toContain(`deeper than ${MAX_BODY_DEPTH} levels`);
    }
    expect((await sim.call('GET', '/api/links/')).body.count).toBe(0);
    const exported = await sim.call('GET', '/_ofkit/snapshot/');
    expect(exported.status).toBe(200);
    // Nesting within the bound is accepted (a string holding brackets is not nesting).
    const shallow = `{"institution":"ofbank_br_retail","username":"76109277673","password":"[[[{{{","extra":${deep(40)}}`;
    expect((await sim.call('POST', '/api/links/', { rawBody: shallow })).status).toBe(201);
    expect((await sim.call('GET', '/_ofkit/snapshot/')).status).toBe(200);
  });
});

describe('repeated and bracketed query parameters', () => {
  it('the first value of a repeated parameter counts; page[] and page[0] are not parameters (ignored)', async () => {
    const sim = await contractCheckedSimulator('repeated-params');
    const check = createContractCheck(sim.simulator.document);
    const link = await sim.call('POST', '/api/links/', {
      body: { institution: 'ofbank_br_retail', username: '76109277673', password: 'p' },
    });
    await sim.call('POST', '/api/owners/', { body: { link: link.body.id } });
    const owners = async (query: string) => {
      const request = {
        method: 'GET',
        path: '/api/owners/',
        query: new URLSearchParams(query),
        headers: { authorization: `Basic ${Buffer.from('tenant-a:secret-a').toString('base64')}` },
        body: '',
        origin: 'http://127.0.0.1:4010',
      };
      const answer = await sim.simulator.handle(request);
      check(request.method, request.path, answer, request.query);
      return answer as { status: number; body: { results: unknown[] } };
    };
    expect((await owners('page[]=1&page[0]=2')).status).toBe(200);
    const repeated = await owners('page_size=1&page_size=1000&page=1&page=2');
    expect(repeated.status).toBe(200);
    expect(repeated.body.results).toHaveLength(1);
  });
});
