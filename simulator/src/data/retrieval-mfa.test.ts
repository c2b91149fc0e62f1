import { beforeAll, describe, expect, it } from 'vitest';
import {
  type CheckedSimulator,
  contractCheckedSimulator,
} from '../../test-support/contract-checked-simulator.js';
import { LAST_MONTH, registerLink, retrieve } from '../../test-support/test-links.js';

let sim: CheckedSimulator;
beforeAll(async () => {
  sim = await contractCheckedSimulator();
});

const resume = (path: string, body: Record<string, unknown>) => sim.call('PATCH', path, { body });
const count = async (path: string, link: string) =>
  (await sim.call('GET', path, { query: { link } })).body.count;

describe('LINK-MFA-428', () => {
  it('a retrieval at an institution that asks for a token pauses with 428 and stores nothing', async () => {
    const link = await registerLink(sim, 'mfaBank');
    const paused = await retrieve(sim, '/api/accounts/', link);
    expect(paused.status).toBe(428);
    const item = paused.body[0];
    expect(item).toMatchObject({ code: 'token_required', expiry: 600, link });
    expect(item.session).toMatch(/^[0-9a-f]{32}$/);
    expect(item.token_generation_data).toMatchObject({ type: 'numeric' });
    expect(await count('/api/accounts/', link)).toBe(0);
  });

  it('PATCH with a wrong token gets 400 and keeps the session; the right token completes (201 with the records, stored)', async () => {
    const link = await registerLink(sim, 'mfaBank');
    const { session } = (await retrieve(sim, '/api/transactions/', link, LAST_MONTH)).body[0];
    const wrong = await resume('/api/transactions/', { session, token: '000000', link });
    expect(wrong.status).toBe(400);
    expect(wrong.body[0]).toMatchObject({ code: 'invalid_token', field: 'token' });
    const resumed = await resume('/api/transactions/', { session, token: '123456', link });
    expect(resumed.status).toBe(201);
    expect(resumed.body.length).toBeGreaterThan(0);
    for (const t of resumed.body)
      expect(t.value_date >= '2026-10-01' && t.value_date <= '2026-10-31').toBe(true);
    expect(await count('/api/transactions/', link)).toBe(resumed.body.length);
    const again = await resume('/api/transactions/', { session, token: '123456', link });
    expect(again.body[0]).toMatchObject({ code: 'session_expired', field: 'session' });
  });

  it('a session expires after 600 s on the tenant clock', async () => {
    const link = await registerLink(sim, 'mfaBank');
    const { session } = (await retrieve(sim, '/api/owners/', link)).body[0];
    await sim.simulator.tenant('tenant-a').clock.advance(600_000);
    const expired = await resume('/api/owners/', { session, token: '123456', link });
    expect(expired.status).toBe(400);
    expect(expired.body[0]).toMatchObject({ code: 'session_expired', field: 'session' });
    expect(await count('/api/owners/', link)).toBe(0);
  });

  it('an unknown session, a session of another collection or link, and a missing link get 400', async () => {
    const link = await registerLink(sim, 'mfaBank');
    const other = await registerLink(sim, 'mfaBank');
    const { session } = (await retrieve(sim, '/api/accounts/', link)).body[0];
    expect(
      (await resume('/api/accounts/', { session: 'f'.repeat(32), token: '123456', link })).body[0].code,
    ).toBe('session_expired');
    expect((await resume('/api/owners/', { session, token: '123456', link })).body[0].code).toBe(
      'session_expired',
    );
    const wrongLink = await resume('/api/accounts/', { session, token: '123456', link: other });
    expect(wrongLink.body[0]).toMatchObject({ code: 'invalid', field: 'link' });
    const noLink = await resume('/api/accounts/', { session, token: '123456' });
    expect(noLink.body[0]).toMatchObject({ code: 'required', field: 'link' });
    expect((await resume('/api/accounts/', { session, token: '123456', link })).status).toBe(201);
  });

  it('a resume with `save_data: false` answers 200 and stores nothing', async () => {
    const link = await registerLink(sim, 'mfaBank');
    const { session } = (await retrieve(sim, '/api/accounts/', link)).body[0];
    const resumed = await resume('/api/accounts/', { session, token: '123456', link, save_data: false });
    expect(resumed.status).toBe(200);
    expect(resumed.body.length).toBeGreaterThan(0);
    expect(await count('/api/accounts/', link)).toBe(0);
  });

  it('a link registered with an `mfa` username asks on owners, accounts, transactions and invoices', async () => {
    const paused = await sim.call('POST', '/api/links/', {
      body: { institution: 'ofbank_br_retail', username: 'mfa-user', password: 'secret' },
    });
    const registered = await resume('/api/links/', { ...sessionOf(paused), link: paused.body[0].link });
    const link = registered.body.id;
    for (const path of ['/api/owners/', '/api/accounts/'])
      expect((await retrieve(sim, path, link)).status).toBe(428);
    expect((await retrieve(sim, '/api/transactions/', link, LAST_MONTH)).status).toBe(428);
    const fiscal = await sim.call('POST', '/api/links/', {
      body: { institution: 'ofsat_mx_fiscal', username: 'mfa-taxpayer', password: 'ciec', token: '123456' },
    });
    const invoices = await retrieve(sim, '/api/invoices/', fiscal.body.id, { ...LAST_MONTH, type: 'INFLOW' });
    expect(invoices.status).toBe(428);
    expect((await resume('/api/invoices/', { ...sessionOf(invoices), link: fiscal.body.id })).status).toBe(
      201,
    );
  });

  it('deleting the link drops its paused retrievals: the resume names a link that is gone, 404', async () => {
    const link = await registerLink(sim, 'mfaBank');
    const { session } = (await retrieve(sim, '/api/accounts/', link)).body[0];
    expect((await sim.call('DELETE', `/api/links/${link}/`)).status).toBe(204);
    const gone = await resume('/api/accounts/', { session, token: '123456', link });
    expect(gone.status).toBe(404);
    expect(gone.body[0]).toMatchObject({ code: 'not_found', field: 'link' });
  });

  it('a resume the institution asks another token for answers 428 again; the new session completes', async () => {
    const link = await registerLink(sim, 'mfaBank');
    const { session } = (await retrieve(sim, '/api/owners/', link)).body[0];
    const institution = (await sim.call('GET', `/api/links/${link}/`)).body.institution;
    const scenario = { scenario: 'institution_requires_another_token', institution, count: 1 };
    await sim.call('POST', '/_ofkit/scenarios/', { body: scenario });
    const again = await resume('/api/owners/', { session, token: '123456', link });
    expect(again.status).toBe(428);
    expect(again.body[0]).toMatchObject({ code: 'token_required', link });
    expect(await count('/api/owners/', link)).toBe(0);
    const done = await resume('/api/owners/', { session: again.body[0].session, token: '123456', link });
    expect(done.status).toBe(201);
  });

  it('collections without a resume PATCH never ask (balances); other links are not asked', async () => {
    const link = await registerLink(sim, 'mfaBank');
    expect((await retrieve(sim, '/api/br/balances/', link)).status).toBe(201);
    const plain = await registerLink(sim, 'bank');
    expect((await retrieve(sim, '/api/accounts/', plain)).status).toBe(201);
  });
});

const sessionOf = (paused: { body: { session: string }[] }) => ({
  session: paused.body[0]!.session,
  token: '123456',
});
