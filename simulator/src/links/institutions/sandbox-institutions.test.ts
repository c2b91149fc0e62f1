import { beforeAll, describe, expect, it } from 'vitest';
import {
  type CheckedSimulator,
  contractCheckedSimulator,
} from '../../../test-support/contract-checked-simulator.js';
import { INSTITUTIONS } from './catalogue.js';
import { SANDBOX_CREDENTIALS, SANDBOX_INSTITUTIONS } from './sandbox-institutions.js';
import { ACCEPTED_MFA_TOKEN, REFUSED_PASSWORD } from './scenario-triggers.js';

let sandbox: CheckedSimulator;
let production: CheckedSimulator;
beforeAll(async () => {
  sandbox = await contractCheckedSimulator('sandbox-institutions', { environment: 'sandbox' });
  production = await contractCheckedSimulator('sandbox-institutions');
});

const names = (page: { results: { name: string }[] }) => page.results.map((entry) => entry.name);
const mfa = new Set(['gotham_br_business', 'heimdall_br_retail']);

describe('the provider sandbox institutions', () => {
  it('sandbox lists ours and the provider ones (8 + 10); production lists ours only (8)', async () => {
    // Ours: 8 (one or more per data area, see catalogue.ts); the provider's sandbox guide: 10 kept.
    expect([INSTITUTIONS.length, SANDBOX_INSTITUTIONS.length]).toEqual([8, 10]);
    const listed = await sandbox.call('GET', '/api/institutions/');
    expect(listed.body.count).toBe(INSTITUTIONS.length + SANDBOX_INSTITUTIONS.length);
    expect(names(listed.body)).toEqual(expect.arrayContaining(['erebor_br_retail', 'ofbank_br_retail']));
    const ours = await production.call('GET', '/api/institutions/');
    expect(ours.body.count).toBe(INSTITUTIONS.length);
    expect(names(ours.body)).not.toContain('erebor_br_retail');
    const detail = await production.call('GET', `/api/institutions/${SANDBOX_INSTITUTIONS[0]!.id}/`);
    expect(detail.status).toBe(404);
  });

  it('production refuses a link at a provider sandbox institution', async () => {
    const body = { institution: 'erebor_br_retail', ...SANDBOX_CREDENTIALS.valid };
    const refused = await production.call('POST', '/api/links/', { body });
    expect(refused.status).toBe(400);
    expect(refused.body[0].field).toBe('institution');
  });

  for (const entry of SANDBOX_INSTITUTIONS) {
    for (const [kind, credentials] of Object.entries(SANDBOX_CREDENTIALS)) {
      const outcome = mfa.has(entry.name) ? '428, then 200 with the token' : '201';
      it(`${entry.name} with the ${kind} credentials: ${outcome}`, async () => {
        const body = { institution: entry.name, ...credentials };
        const registered = await sandbox.call('POST', '/api/links/', { body });
        if (!mfa.has(entry.name)) {
          expect(registered.status).toBe(201);
          expect(registered.body).toMatchObject({ institution: entry.name, status: 'valid' });
          return;
        }
        expect(registered.status).toBe(428);
        const { session, link } = registered.body[0];
        const resume = { session, link, token: ACCEPTED_MFA_TOKEN };
        const resumed = await sandbox.call('PATCH', '/api/links/', { body: resume });
        expect(resumed.status).toBe(200);
        expect(resumed.body).toMatchObject({ id: link, status: 'valid' });
      });
    }
    it(`${entry.name} refuses the failing password with invalid_credentials`, async () => {
      const body = { institution: entry.name, username: 'user_valid', password: REFUSED_PASSWORD };
      const refused = await sandbox.call('POST', '/api/links/', { body });
      expect(refused.status).toBe(400);
      expect(refused.body[0].code).toBe('invalid_credentials');
    });
  }

  it('a link at erebor_br_retail with bnk100 / full retrieves its accounts', async () => {
    const body = { institution: 'erebor_br_retail', ...SANDBOX_CREDENTIALS.fullData };
    const link = await sandbox.call('POST', '/api/links/', { body });
    const accounts = await sandbox.call('POST', '/api/accounts/', { body: { link: link.body.id } });
    expect(accounts.status).toBe(201);
    expect(accounts.body.length).toBeGreaterThan(0);
  });
});
