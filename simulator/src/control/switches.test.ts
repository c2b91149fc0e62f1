import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  type CheckedSimulator,
  contractCheckedSimulator,
} from '../../test-support/contract-checked-simulator.js';
import type { Fault } from '../core/armed-switches.js';

let sim: CheckedSimulator;
beforeAll(async () => {
  sim = await contractCheckedSimulator();
});
beforeEach(async () => {
  expect((await sim.call('POST', '/_ofkit/reset/')).status).toBe(204);
});

const register = (body: Record<string, unknown> = {}) =>
  sim.call('POST', '/api/links/', {
    body: { institution: 'ofbank_br_retail', username: '76109277673', password: 'secret', ...body },
  });
const inject = (body: Record<string, unknown>) => sim.call('POST', '/_ofkit/faults/', { body });
const addScenario = (body: Record<string, unknown>) => sim.call('POST', '/_ofkit/scenarios/', { body });

describe('ERR-500-408', () => {
  it('answers the next N requests of the operation with the injected 500, then normally', async () => {
    const link = (await register()).body;
    const fault = await inject({ operation_id: 'getLink', status: 500, count: 2 });
    expect(fault.status).toBe(201);
    expect(fault.body).toMatchObject({ operation_id: 'getLink', status: 500, remaining: 2 });
    expect((await sim.call('GET', '/_ofkit/faults/')).body).toEqual([fault.body]);
    const remaining = async () =>
      (await sim.call('GET', '/_ofkit/faults/')).body.map((f: Fault) => f.remaining);
    for (const left of [[1], []]) {
      const failed = await sim.call('GET', `/api/links/${link.id}/`);
      expect(failed.status).toBe(500);
      expect(failed.body).toEqual([expect.objectContaining({ code: 'internal_server_error' })]);
      expect(await remaining()).toEqual(left);
    }
    expect((await sim.call('GET', `/api/links/${link.id}/`)).status).toBe(200);
  });

  it("the dashboard's reads (x-ofkit-client: dashboard) do not spend a fault: the client's next request gets it", async () => {
    await inject({ operation_id: 'listLinks', status: 500 });
    const observed = { headers: { 'x-ofkit-client': 'dashboard' } };
    for (let poll = 0; poll < 3; poll += 1)
      expect((await sim.call('GET', '/api/links/', observed)).status).toBe(200);
    expect((await sim.call('GET', '/_ofkit/faults/')).body).toMatchObject([{ remaining: 1 }]);
    expect((await sim.call('GET', '/api/links/')).status).toBe(500);
    expect((await sim.call('GET', '/_ofkit/faults/')).body).toEqual([]);
  });

  it('injects a 408 (count defaults to 1) and leaves the other operations alone', async () => {
    expect((await inject({ operation_id: 'listLinks', status: 408 })).body.remaining).toBe(1);
    expect((await sim.call('GET', '/api/institutions/')).status).toBe(200);
    const timedOut = await sim.call('GET', '/api/links/');
    expect(timedOut.status).toBe(408);
    expect(timedOut.body[0]).toMatchObject({ code: 'request_timeout' });
    expect(timedOut.body[0].message).toContain('listLinks');
    expect((await sim.call('GET', '/api/links/')).status).toBe(200);
  });

  it('DELETE clears the faults', async () => {
    await inject({ operation_id: 'listLinks', status: 500, count: 5 });
    expect((await sim.call('DELETE', '/_ofkit/faults/')).status).toBe(204);
    expect((await sim.call('GET', '/_ofkit/faults/')).body).toEqual([]);
    expect((await sim.call('GET', '/api/links/')).status).toBe(200);
  });

  it('refuses an unknown operation, another status and a zero count, naming the field', async () => {
    const unknown = await inject({ operation_id: 'listLinkz', status: 500 });
    expect(unknown.status).toBe(400);
    expect(unknown.body[0]).toMatchObject({ code: 'invalid', field: 'operation_id' });
    const control = await inject({ operation_id: 'getClock', status: 500 });
    expect(control.body[0]).toMatchObject({ code: 'invalid', field: 'operation_id' });
    const status = await inject({ operation_id: 'listLinks', status: 503 });
    expect(status.body[0]).toMatchObject({ code: 'invalid', field: 'status' });
    const count = await inject({ operation_id: 'listLinks', status: 500, count: 0 });
    expect(count.body[0]).toMatchObject({ code: 'invalid', field: 'count' });
    expect((await sim.call('GET', '/_ofkit/faults/')).body).toEqual([]);
  });
});

describe('scenarios', () => {
  it('institution_requires_token makes registrations at that institution answer 428, not elsewhere', async () => {
    const added = await addScenario({
      scenario: 'institution_requires_token',
      institution: 'ofbank_br_retail',
    });
    expect(added.status).toBe(201);
    expect(added.body).toMatchObject({ institution: 'ofbank_br_retail', link: null, remaining: null });
    const paused = await register();
    expect(paused.status).toBe(428);
    expect(paused.body[0]).toMatchObject({ code: 'token_required' });
    expect((await register()).status).toBe(428);
    const elsewhere = await register({ institution: 'ofinss_br_employment' });
    expect(elsewhere.status).toBe(201);
    expect((await sim.call('GET', '/_ofkit/scenarios/')).body).toEqual([added.body]);
  });

  it('count uses the switch up', async () => {
    const added = await addScenario({
      scenario: 'institution_requires_token',
      institution: 'ofbank_br_retail',
      count: 2,
    });
    expect(added.body.remaining).toBe(2);
    expect((await register()).status).toBe(428);
    expect((await sim.call('GET', '/_ofkit/scenarios/')).body[0].remaining).toBe(1);
    expect((await register()).status).toBe(428);
    expect((await sim.call('GET', '/_ofkit/scenarios/')).body).toEqual([]);
    expect((await register()).status).toBe(201);
  });

  it('DELETE switches every scenario off', async () => {
    await addScenario({ scenario: 'institution_requires_token', institution: 'ofbank_br_retail' });
    await addScenario({ scenario: 'institution_refuses_credentials' });
    expect((await sim.call('DELETE', '/_ofkit/scenarios/')).status).toBe(204);
    expect((await sim.call('GET', '/_ofkit/scenarios/')).body).toEqual([]);
    expect((await register()).status).toBe(201);
  });

  it('institution_refuses_credentials gives 400 invalid_credentials', async () => {
    await addScenario({
      scenario: 'institution_refuses_credentials',
      institution: 'ofbank_br_retail',
      count: 1,
    });
    const refused = await register();
    expect(refused.status).toBe(400);
    expect(refused.body[0]).toMatchObject({ code: 'invalid_credentials', field: 'password' });
    expect((await register()).status).toBe(201);
  });

  it('a link scenario names a link of the tenant', async () => {
    const link = (await register()).body;
    const added = await addScenario({ scenario: 'next_refresh_token_required', link: link.id });
    expect(added.status).toBe(201);
    expect(added.body).toMatchObject({ institution: null, link: link.id, remaining: null });
  });

  it('refuses switches that could never apply, naming the field', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ scenario: 'institution_requires_token', institution: 'nobank_xx' }, 'institution'],
      [{ scenario: 'institution_requires_token', link: '30cb4806-6e00-48a4-91c9-ca55968576c8' }, 'link'],
      [
        { scenario: 'next_refresh_invalid_credentials', link: '30cb4806-6e00-48a4-91c9-ca55968576c8' },
        'link',
      ],
      [{ scenario: 'next_refresh_invalid_credentials', institution: 'ofbank_br_retail' }, 'institution'],
      [{ scenario: 'everything_breaks' }, 'scenario'],
      [{ institution: 'ofbank_br_retail' }, 'scenario'],
    ];
    for (const [body, field] of cases) {
      const refused = await addScenario(body);
      expect(refused.status, JSON.stringify(body)).toBe(400);
      expect(refused.body[0]).toMatchObject({ field });
    }
    expect((await sim.call('GET', '/_ofkit/scenarios/')).body).toEqual([]);
  });
});
