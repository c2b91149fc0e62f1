import { describe, expect, it } from 'vitest';
import { arm } from '../core/armed-switches.js';
import { createTenantRegistry } from '../core/tenant-registry.js';
import { MemoryStore } from '../store/memory-store.js';
import {
  institutionAsksForToken,
  MFA_SESSIONS,
  pauseForToken,
  resumePaused,
  wantsToken,
} from './mfa-sessions.js';

const tenantFor = () =>
  createTenantRegistry({
    seed: 's',
    store: new MemoryStore(),
    environment: 'production',
    realTime: () => 0,
    runJob: async () => undefined,
  })('t');
const LINK = '6f1d2c3b-4a59-4e8d-9c7b-1a2b3c4d5e6f';

async function paused(collection = '/api/accounts/', link: string = LINK) {
  const tenant = tenantFor();
  const body = { link, save_data: false };
  const request = {
    collection,
    link,
    institution: 'ofbank_br_retail',
    operationId: 'retrieveAccounts',
    body,
  };
  const result = await pauseForToken(tenant, request);
  if (result.ok) throw new Error('pauseForToken must answer an error');
  return { tenant, item: result.error[0] };
}

describe('LINK-MFA-428', () => {
  it('the institution asks for a token by feature or for an `mfa` username', () => {
    expect(institutionAsksForToken('tokenbank_br_business', '12345678000190')).toBe(true);
    expect(institutionAsksForToken('ofbank_br_retail', 'MFA-someone')).toBe(true);
    expect(institutionAsksForToken('ofbank_br_retail', '76109277673')).toBe(false);
    expect(institutionAsksForToken('ofbank_br_retail', null)).toBe(false);
  });

  it('wants a token: the one answer, from the institution, the username, the link status, the switch and the token sent', async () => {
    const tenant = tenantFor();
    const login = { institution: 'ofbank_br_retail', username: '76109277673', link: null, token: undefined };
    expect(await wantsToken(tenant, login)).toBe(false);
    expect(await wantsToken(tenant, { ...login, username: 'mfa-1' })).toBe(true);
    expect(await wantsToken(tenant, { ...login, username: 'mfa-1', token: '123456' })).toBe(false);
    const needing = { ...login, link: { id: LINK, status: 'token_required' } };
    expect(await wantsToken(tenant, needing)).toBe(true);
    expect(await wantsToken(tenant, { ...needing, link: { id: LINK, status: 'valid' } })).toBe(false);
    const scenario = { id: 's1', scenario: 'institution_requires_token' as const, link: LINK, remaining: 1 };
    await arm(tenant, 'scenarios', { ...scenario, institution: 'ofbank_br_retail' });
    // Another link's login leaves it armed; a request carrying a token does not use it up.
    expect(await wantsToken(tenant, { ...login, link: { id: 'other', status: 'valid' } })).toBe(false);
    expect(await wantsToken(tenant, { ...login, link: { id: LINK, status: 'valid' }, token: '000000' })).toBe(
      false,
    );
    expect(await wantsToken(tenant, { ...login, link: { id: LINK, status: 'valid' } })).toBe(true);
    expect(await wantsToken(tenant, { ...login, link: { id: LINK, status: 'valid' } })).toBe(false);
  });

  it('pausing answers token_required with the session, its expiry and the link', async () => {
    const { tenant, item } = await paused();
    expect(item.code).toBe('token_required');
    expect(item.extra).toMatchObject({ expiry: 600, link: LINK });
    const session = String(item.extra?.session);
    expect(session).toMatch(/^[a-f0-9]{32}$/);
    expect(await tenant.store.list(MFA_SESSIONS, { link: LINK })).toHaveLength(1);
    const resumed = await resumePaused(tenant, '/api/accounts/', { session, token: '123456', link: LINK });
    expect(resumed).toEqual({
      ok: true,
      value: {
        collection: '/api/accounts/',
        link: LINK,
        institution: 'ofbank_br_retail',
        operationId: 'retrieveAccounts',
        body: { link: LINK, save_data: false },
      },
    });
    expect(await tenant.store.get(MFA_SESSIONS, session)).toBeUndefined();
  });

  it('refuses another collection, another link, a wrong or missing token (keeping the session) and an expired session', async () => {
    const { tenant, item } = await paused();
    const session = String(item.extra?.session);
    const code = async (collection: string, token: string | undefined, link: string) => {
      const result = await resumePaused(tenant, collection, { session, link, ...(token && { token }) });
      return result.ok ? 'ok' : result.error[0].code;
    };
    expect(await code('/api/owners/', '123456', LINK)).toBe('session_expired');
    expect(await code('/api/accounts/', '123456', '00000000-0000-4000-8000-000000000000')).toBe('invalid');
    expect(await code('/api/accounts/', '654321', LINK)).toBe('invalid_token');
    expect(await code('/api/accounts/', undefined, LINK)).toBe('invalid_token');
    await tenant.clock.advance(600_000);
    expect(await code('/api/accounts/', '123456', LINK)).toBe('session_expired');
  });

  it('a session is used up once resumed: the same PATCH again gets session_expired', async () => {
    const { tenant, item } = await paused('/api/links/');
    const session = String(item.extra?.session);
    const resume = () => resumePaused(tenant, '/api/links/', { session, token: '123456', link: LINK });
    expect((await resume()).ok).toBe(true);
    const again = await resume();
    expect(again.ok ? 'ok' : again.error[0].code).toBe('session_expired');
  });

  it('an institution that asks for another token pauses the resumed request again, in a new session', async () => {
    const { tenant, item } = await paused();
    const first = String(item.extra?.session);
    const scenario = 'institution_requires_another_token';
    await arm(tenant, 'scenarios', {
      id: 's1',
      scenario,
      institution: 'ofbank_br_retail',
      link: null,
      remaining: 1,
    });
    const again = await resumePaused(tenant, '/api/accounts/', {
      session: first,
      token: '123456',
      link: LINK,
    });
    if (again.ok) throw new Error('the resume must pause again');
    expect(again.error[0]).toMatchObject({ code: 'token_required', extra: { link: LINK, expiry: 600 } });
    const second = String(again.error[0].extra?.session);
    expect(second).not.toBe(first);
    const done = await resumePaused(tenant, '/api/accounts/', {
      session: second,
      token: '123456',
      link: LINK,
    });
    expect(done).toMatchObject({
      ok: true,
      value: { operationId: 'retrieveAccounts', body: { link: LINK } },
    });
  });
});
