/**
 * The dashboard's server side, in process: static files without credentials, the keys on loopback only
 * (admin.yaml `getDashboardKeys`), and the control API operations the dashboard added (clock jobs,
 * event re-send, per-item removal of faults and scenarios), each response checked against its document.
 */
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  type CheckedSimulator,
  contractCheckedSimulator,
} from '../../test-support/contract-checked-simulator.js';
import type { SimRequest } from '../core/http-types.js';
import { DASHBOARD_ASSETS, SHELL_QUOTE_ASSET } from './serve-dashboard.js';

let sim: CheckedSimulator;
beforeAll(async () => {
  sim = await contractCheckedSimulator('dashboard-seed');
}, 60_000);
beforeEach(async () => {
  expect((await sim.call('POST', '/_ofkit/reset/')).status).toBe(204);
});

/** A request straight to the core, as the adapter would build it. */
function raw(path: string, extra: Partial<SimRequest> = {}): SimRequest {
  return {
    method: 'GET',
    path,
    query: new URLSearchParams(),
    headers: { host: '127.0.0.1:4010' },
    body: '',
    origin: 'http://127.0.0.1:4010',
    ...extra,
  };
}

describe('dashboard files', () => {
  it('serves every asset and the vendored libraries without credentials, with a content type and a CSP', async () => {
    const names = [
      ...DASHBOARD_ASSETS,
      'vendor/preact.js',
      'vendor/hooks.js',
      'vendor/htm.js',
      SHELL_QUOTE_ASSET,
    ];
    for (const name of names) {
      const response = await sim.simulator.handle(raw(`/_ofkit/ui/${name}`));
      expect(response.status, name).toBe(200);
      expect(response.headers['content-type'], name).toMatch(/^(text\/html|text\/javascript|text\/css)/);
      expect(response.headers['content-security-policy']).toContain("default-src 'self'");
      expect(response.serialize?.().length, name).toBeGreaterThan(0);
    }
    const index = await sim.simulator.handle(raw('/_ofkit/ui/'));
    expect(index.serialize?.().toString('utf8')).toContain('<script type="module" src="app.js">');
  });

  it('serves both documents, so forms are built from them', async () => {
    const admin = JSON.parse(
      (await sim.simulator.handle(raw('/_ofkit/ui/admin.json'))).serialize!().toString(),
    );
    expect(admin.components.schemas.FaultRequest).toBeDefined();
    const api = JSON.parse(
      (await sim.simulator.handle(raw('/_ofkit/ui/openapi.json'))).serialize!().toString(),
    );
    expect(api.paths['/api/links/']).toBeDefined();
  });

  it('redirects /_ofkit/ui to /_ofkit/ui/ (the relative URLs of the page need the slash)', async () => {
    const redirect = await sim.simulator.handle(raw('/_ofkit/ui'));
    expect(redirect.status).toBe(308);
    expect(redirect.headers.location).toBe('/_ofkit/ui/');
  });

  it('answers an unknown file 404 and another method 405, in the error format', async () => {
    const missing = await sim.simulator.handle(raw('/_ofkit/ui/nope.js'));
    expect(missing.status).toBe(404);
    expect((missing.body as { code: string }[])[0]?.code).toBe('not_found');
    const posted = await sim.simulator.handle(raw('/_ofkit/ui/index.html', { method: 'POST' }));
    expect(posted.status).toBe(405);
  });
});

describe('getDashboardKeys', () => {
  it('is 404 when the adapter did not mark the request as loopback', async () => {
    const answer = await sim.call('GET', '/_ofkit/ui/keys', { as: null });
    expect(answer.status).toBe(404);
  });

  it('lists no key the simulator was given (only published defaults are), on loopback with a loopback Host', async () => {
    const keys = await sim.simulator.handle(raw('/_ofkit/ui/keys', { loopback: true }));
    expect(keys.status).toBe(200);
    expect(keys.headers['cache-control']).toBe('no-store');
    // The test keys are not the published ones: their tenants type them into the page.
    expect(keys.body).toEqual({ environment: 'production', keys: [] });
    // DNS rebinding: a site's name resolved to 127.0.0.1 is not a loopback Host.
    const rebound = raw('/_ofkit/ui/keys', { loopback: true, headers: { host: 'evil.example:4010' } });
    expect((await sim.simulator.handle(rebound)).status).toBe(404);
  });
});

describe('clock jobs (?include=jobs)', () => {
  it('lists the next jobs with their kind, and the jobs a move ran', async () => {
    const link = await sim.call('POST', '/api/links/', {
      body: { institution: 'ofbank_br_retail', username: '76109277673', password: 'secret' },
    });
    await sim.call('DELETE', `/api/links/${link.body.id}/`, {
      headers: { 'x-service-request-mode': 'async' },
    });
    const before = await sim.call('GET', '/_ofkit/clock/', { query: { include: 'jobs' } });
    expect(before.body.jobs).toContainEqual({ at: '2026-11-02T12:00:01.000Z', kind: 'async link deletion' });
    const moved = await sim.call('POST', '/_ofkit/clock/advance/', {
      query: { include: 'jobs' },
      body: { seconds: 2 },
    });
    expect(moved.body.ran).toContainEqual({ at: '2026-11-02T12:00:01.000Z', kind: 'async link deletion' });
    expect(moved.body.jobs_run).toBe(moved.body.ran.length);
    // Without the parameter the Clock is as before.
    expect(Object.keys((await sim.call('GET', '/_ofkit/clock/')).body)).toEqual(['now', 'frozen']);
  });
});

describe('resendEvent, removeFault, removeScenario', () => {
  it('re-sends a logged event (a new attempt) and answers 404 for an unknown one', async () => {
    await sim.call('PUT', '/_ofkit/webhooks/', { body: { url: null } });
    await sim.call('POST', '/api/links/', {
      body: {
        institution: 'ofbank_br_retail',
        username: '76109277673',
        password: 'secret',
        access_mode: 'recurrent',
      },
    });
    await sim.simulator.webhooks.idle();
    const [event] = (await sim.call('GET', '/_ofkit/events/')).body;
    const resent = await sim.call('POST', `/_ofkit/events/${event.id}/resend/`);
    expect(resent.status).toBe(202);
    await sim.simulator.webhooks.idle();
    const after = (await sim.call('GET', '/_ofkit/events/')).body.find(
      (e: { id: string }) => e.id === event.id,
    );
    expect(after.attempts).toHaveLength(event.attempts.length + 1);
    expect(after.attempts.at(-1).error).toBe('no receiver configured');
    expect((await sim.call('POST', '/_ofkit/events/nope/resend/')).status).toBe(404);
  });

  it('removes one fault and one scenario by id, and answers 404 for an unknown id', async () => {
    const kept = await sim.call('POST', '/_ofkit/faults/', {
      body: { operation_id: 'listAccounts', status: 500 },
    });
    const gone = await sim.call('POST', '/_ofkit/faults/', {
      body: { operation_id: 'listBills', status: 408 },
    });
    expect((await sim.call('DELETE', `/_ofkit/faults/${gone.body.id}/`)).status).toBe(204);
    expect((await sim.call('GET', '/_ofkit/faults/')).body).toEqual([kept.body]);
    expect((await sim.call('DELETE', `/_ofkit/faults/${gone.body.id}/`)).status).toBe(404);
    const scenario = await sim.call('POST', '/_ofkit/scenarios/', {
      body: { scenario: 'institution_requires_token', institution: 'ofbank_br_retail' },
    });
    expect((await sim.call('DELETE', `/_ofkit/scenarios/${scenario.body.id}/`)).status).toBe(204);
    expect((await sim.call('GET', '/_ofkit/scenarios/')).body).toEqual([]);
    expect((await sim.call('DELETE', `/_ofkit/scenarios/${scenario.body.id}/`)).status).toBe(404);
  });
});
