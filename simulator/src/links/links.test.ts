import { beforeEach, describe, expect, it } from 'vitest';
import {
  type CheckedSimulator,
  contractCheckedSimulator,
} from '../../test-support/contract-checked-simulator.js';

let sim: CheckedSimulator;
beforeEach(async () => {
  sim = await contractCheckedSimulator();
});

const register = (body: Record<string, unknown> = {}, as?: string) =>
  sim.call('POST', '/api/links/', {
    body: { institution: 'ofbank_br_retail', username: '76109277673', password: 'secret', ...body },
    ...(as && { as }),
  });
const advance = (ms: number, tenant = 'tenant-a') => sim.simulator.tenant(tenant).clock.advance(ms);

describe('LINK-REGISTER', () => {
  it('registers a link (201) that the detail and the list then show', async () => {
    const created = await register({ access_mode: 'recurrent', external_id: 'c-1' });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      institution: 'ofbank_br_retail',
      access_mode: 'recurrent',
      status: 'valid',
      external_id: 'c-1',
    });
    expect((await sim.call('GET', `/api/links/${created.body.id}/`)).body).toEqual(created.body);
    expect((await sim.call('GET', '/api/links/')).body.results).toEqual([created.body]);
  });

  it("carries the provider's members: the same user id for the same user, the tenant's user, the refresh rate", async () => {
    const first = (await register({ access_mode: 'recurrent' })).body;
    const again = (await register()).body;
    const other = (await register({ username: '52998224725' })).body;
    expect(again.institution_user_id).toBe(first.institution_user_id);
    expect(other.institution_user_id).not.toBe(first.institution_user_id);
    // The provider's form: 44 characters of letters, digits, `-`, `_` and `=`.
    for (const link of [first, other]) expect(link.institution_user_id).toMatch(/^[A-Za-z0-9=_-]{44}$/);
    const elsewhere = await sim.call('POST', '/api/links/', {
      as: 'tenant-b:secret-b',
      body: { institution: 'ofbank_br_retail', username: '76109277673', password: 'secret' },
    });
    expect(elsewhere.body.institution_user_id).not.toBe(first.institution_user_id);
    expect(new Set([first.created_by, again.created_by, other.created_by]).size).toBe(1);
    expect([first.refresh_rate, again.refresh_rate]).toEqual(['24h', null]);
  });

  it('refuses an unknown institution and a missing credential with the field named', async () => {
    const unknown = await register({ institution: 'nobank_xx' });
    expect(unknown.status).toBe(400);
    expect(unknown.body[0]).toMatchObject({ field: 'institution' });
    const noPassword = await sim.call('POST', '/api/links/', {
      body: { institution: 'ofbank_br_retail', username: 'u' },
    });
    expect(noPassword.status).toBe(400);
    expect(noPassword.body[0]).toMatchObject({ code: 'required', field: 'password' });
  });

  it('the password wrong-password is refused by the institution', async () => {
    const refused = await register({ password: 'wrong-password' });
    expect(refused.status).toBe(400);
    expect(refused.body[0]).toMatchObject({ code: 'invalid_credentials', field: 'password' });
  });
});

describe('LINK-MFA-428', () => {
  it('the 428 creates the link (unconfirmed until resumed); PATCH {session, token, link} confirms it', async () => {
    const paused = await register({ username: 'mfa-user' });
    expect(paused.status).toBe(428);
    const item = paused.body[0];
    expect(item).toMatchObject({ code: 'token_required', expiry: 600 });
    expect(item.session).toMatch(/^[0-9a-f]{32}$/);
    expect(item.link).toMatch(/^[0-9a-f-]{36}$/);
    expect(item.token_generation_data).toMatchObject({ type: 'numeric', expects_user_input: true });
    const pending = await sim.call('GET', `/api/links/${item.link}/`);
    expect(pending.body).toMatchObject({ id: item.link, status: 'unconfirmed' });
    const read = await sim.call('POST', '/api/accounts/', { body: { link: item.link } });
    expect(read.status).toBe(400);
    expect(read.body[0]).toMatchObject({ code: 'unconfirmed_link', field: 'link' });
    const resume = (token: string) =>
      sim.call('PATCH', '/api/links/', { body: { session: item.session, token, link: item.link } });
    const wrong = await resume('000000');
    expect(wrong.status).toBe(400);
    expect(wrong.body[0]).toMatchObject({ code: 'invalid_token', field: 'token' });
    const resumed = await resume('123456');
    expect(resumed.status).toBe(200);
    expect(resumed.body).toMatchObject({ id: item.link, institution: 'ofbank_br_retail', status: 'valid' });
    const again = await resume('123456');
    expect(again.status).toBe(400);
    expect(again.body[0]).toMatchObject({ code: 'session_expired', field: 'session' });
    expect((await sim.call('GET', '/api/links/')).body.results).toHaveLength(1);
  });

  it('an institution that always asks for a token, an expired, unknown or other-link session', async () => {
    const paused = await sim.call('POST', '/api/links/', {
      body: { institution: 'tokenbank_br_business', username: '12345678000190', password: 'p' },
    });
    expect(paused.status).toBe(428);
    const { session, link } = paused.body[0];
    const other = await sim.call('PATCH', '/api/links/', {
      body: { session, token: '123456', link: '00000000-0000-4000-8000-000000000000' },
    });
    expect(other.body[0]).toMatchObject({ code: 'invalid', field: 'link' });
    await advance(600_000);
    const expired = await sim.call('PATCH', '/api/links/', { body: { session, token: '123456', link } });
    expect(expired.status).toBe(400);
    expect(expired.body[0]).toMatchObject({ code: 'session_expired', field: 'session' });
    const unknown = await sim.call('PATCH', '/api/links/', {
      body: { session: 'ffffffffffffffffffffffffffffffff', token: '123456', link },
    });
    expect(unknown.status).toBe(400);
    const noLink = await sim.call('PATCH', '/api/links/', { body: { session, token: '123456' } });
    expect(noLink.body[0]).toMatchObject({ code: 'required', field: 'link' });
  });

  it('an institution that asks for another token answers the resume with a new 428, whose session completes', async () => {
    const first = (await register({ username: 'mfa-user' })).body[0];
    const scenario = {
      scenario: 'institution_requires_another_token',
      institution: 'ofbank_br_retail',
      count: 1,
    };
    expect((await sim.call('POST', '/_ofkit/scenarios/', { body: scenario })).status).toBe(201);
    const resume = (session: string) =>
      sim.call('PATCH', '/api/links/', { body: { session, token: '123456', link: first.link } });
    const again = await resume(first.session);
    expect(again.status).toBe(428);
    expect(again.body[0]).toMatchObject({ code: 'token_required', link: first.link, expiry: 600 });
    expect(again.body[0].session).not.toBe(first.session);
    expect((await sim.call('GET', `/api/links/${first.link}/`)).body.status).toBe('unconfirmed');
    const done = await resume(again.body[0].session);
    expect(done.status).toBe(200);
    expect(done.body).toMatchObject({ id: first.link, status: 'valid' });
  });

  it('a credentials update the institution asks a token for: 428, and PATCH /api/links/ completes it', async () => {
    const link = (await register()).body;
    const scenario = { scenario: 'institution_requires_token', institution: 'ofbank_br_retail', count: 1 };
    await sim.call('POST', '/_ofkit/scenarios/', { body: scenario });
    const paused = await sim.call('PUT', `/api/links/${link.id}/`, { body: { password: 'new-secret' } });
    expect(paused.status).toBe(428);
    const item = paused.body[0];
    expect(item).toMatchObject({ code: 'token_required', link: link.id, expiry: 600 });
    const resumed = await sim.call('PATCH', '/api/links/', {
      body: { session: item.session, token: '123456', link: link.id },
    });
    expect(resumed.status).toBe(200);
    expect(resumed.body).toMatchObject({ id: link.id, status: 'valid' });
    // A link whose login asks for a token every time: the token sent with the PUT answers it at once.
    const mfa = (await register({ username: 'mfa-user' })).body[0];
    await sim.call('PATCH', '/api/links/', {
      body: { session: mfa.session, token: '123456', link: mfa.link },
    });
    const put = (body: Record<string, unknown>) => sim.call('PUT', `/api/links/${mfa.link}/`, { body });
    expect((await put({ password: 'p2' })).status).toBe(428);
    expect((await put({ password: 'p2', token: '123456' })).status).toBe(200);
  });
});

describe('LINK-REFRESH-202', () => {
  it('answers 202 with a request id and keeps the stored fetch_resources', async () => {
    const link = (await register()).body;
    const refreshed = await sim.call('POST', `/api/links/${link.id}/refresh/`, {
      body: { fetch_resources: ['ACCOUNTS'] },
    });
    expect(refreshed.status).toBe(202);
    expect(refreshed.body.request_id).toMatch(/^[0-9a-f]{32}$/);
    expect((await sim.call('GET', `/api/links/${link.id}/`)).body.fetch_resources).toEqual(
      link.fetch_resources,
    );
  });
});

describe('LINK-REFRESH-COOLDOWN', () => {
  it('refuses a second refresh within 10 minutes, naming the minutes left, and accepts it at 10:00', async () => {
    const link = (await register()).body;
    expect((await sim.call('POST', `/api/links/${link.id}/refresh/`)).status).toBe(202);
    await advance(9 * 60_000 + 59_000);
    const early = await sim.call('POST', `/api/links/${link.id}/refresh/`);
    expect(early.status).toBe(409);
    expect(early.body[0].message).toContain('1 minute');
    await advance(1_000);
    expect((await sim.call('POST', `/api/links/${link.id}/refresh/`)).status).toBe(202);
  });

  it('names the minutes left right after a refresh', async () => {
    const link = (await register()).body;
    await sim.call('POST', `/api/links/${link.id}/refresh/`);
    await advance(2 * 60_000 + 30_000);
    expect((await sim.call('POST', `/api/links/${link.id}/refresh/`)).body[0].message).toContain('8 minutes');
  });
});

describe('DELETE-RATE-LIMIT', () => {
  it('the sixth synchronous deletion in a minute gets 429; a minute after the first, a seventh is accepted', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 7; i++) ids.push((await register()).body.id);
    for (const id of ids.slice(0, 5)) {
      expect((await sim.call('DELETE', `/api/links/${id}/`)).status).toBe(204);
      await advance(1_000);
    }
    const sixth = await sim.call('DELETE', `/api/links/${ids[5]}/`);
    expect(sixth.status).toBe(429);
    expect(sixth.body[0].message).toMatch(/retry in \d+ seconds/);
    expect((await sim.call('GET', `/api/links/${ids[5]}/`)).status).toBe(200);
    await advance(55_000);
    expect((await sim.call('DELETE', `/api/links/${ids[5]}/`)).status).toBe(204);
  });

  it('counts per API key: another tenant is not limited', async () => {
    for (let i = 0; i < 5; i++) await sim.call('DELETE', `/api/links/${(await register()).body.id}/`);
    const other = (await register({}, 'tenant-b:secret-b')).body.id;
    expect((await sim.call('DELETE', `/api/links/${other}/`, { as: 'tenant-b:secret-b' })).status).toBe(204);
  });
});

describe('LINK-DELETE-SYNC', () => {
  it('204, then the link is gone', async () => {
    const link = (await register()).body;
    expect((await sim.call('DELETE', `/api/links/${link.id}/`)).status).toBe(204);
    expect((await sim.call('GET', `/api/links/${link.id}/`)).status).toBe(404);
    expect((await sim.call('GET', '/api/links/')).body.count).toBe(0);
  });
});

describe('LINK-DELETE-ASYNC', () => {
  it('202 with a request id; the link is gone once the deletion job has run', async () => {
    const link = (await register()).body;
    const accepted = await sim.call('DELETE', `/api/links/${link.id}/`, {
      headers: { 'x-service-request-mode': 'async' },
    });
    expect(accepted.status).toBe(202);
    expect(accepted.body.request_id).toMatch(/^[0-9a-f]{32}$/);
    await advance(1_000);
    expect((await sim.call('GET', `/api/links/${link.id}/`)).status).toBe(404);
  });
});

describe('LINK-PUT-CREDENTIALS', () => {
  it('new credentials bring the link back to valid; refused ones do not', async () => {
    const link = (await register()).body;
    expect(
      (await sim.call('PUT', `/api/links/${link.id}/`, { body: { password: 'wrong-password' } })).status,
    ).toBe(400);
    const updated = await sim.call('PUT', `/api/links/${link.id}/`, { body: { password: 'new-secret' } });
    expect(updated.status).toBe(200);
    expect(updated.body.status).toBe('valid');
  });
});

describe('LINK-ACCESS-MODE-UP, LINK-ACCESS-MODE-DOWN, LINK-PATCH-NO-UPDATE', () => {
  it('PATCH changes access_mode (and the refresh_rate it implies), stale_in and fetch_resources and nothing else', async () => {
    const link = (await register()).body;
    expect(link.refresh_rate).toBeNull();
    const up = await sim.call('PATCH', `/api/links/${link.id}/`, { body: { access_mode: 'recurrent' } });
    expect(up.body).toEqual({ ...link, access_mode: 'recurrent', refresh_rate: '24h' });
    const down = await sim.call('PATCH', `/api/links/${link.id}/`, {
      body: { access_mode: 'single', stale_in: '30d' },
    });
    expect(down.body).toEqual({ ...link, access_mode: 'single', stale_in: '30d', refresh_rate: null });
    const empty = await sim.call('PATCH', `/api/links/${link.id}/`, { body: {} });
    expect(empty.status).toBe(400);
  });
});
