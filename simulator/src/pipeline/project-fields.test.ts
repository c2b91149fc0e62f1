/**
 * `fields` and `omit` (the provider's response shaping) through real requests: on a page (the envelope
 * kept), a detail, a retrieval and a link registration; `id` only when named, nested members kept whole,
 * unknown names ignored (choice), any list taken as the provider takes it, errors never shaped. Every answer is
 * validated by the contract-checked simulator against the projected schema; the last tests show that
 * check refusing an answer that keeps a dropped member or lacks a kept required one.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import {
  type CheckedSimulator,
  checkAgainstDocument,
  contractCheckedSimulator,
  documentChecker,
} from '../../test-support/contract-checked-simulator.js';
import { LAST_MONTH, registerLink, retrieve } from '../../test-support/test-links.js';
import type { SimResponse } from '../core/http-types.js';

let sim: CheckedSimulator;
let bank: string;
let accountId: string;

beforeAll(async () => {
  sim = await contractCheckedSimulator('project-fields');
  bank = await registerLink(sim, 'bank');
  const accounts = await retrieve(sim, '/api/accounts/', bank);
  accountId = accounts.body[0].id;
});

const page = (query: Record<string, string>) =>
  sim.call('GET', '/api/accounts/', { query: { link: bank, ...query } });

describe('fields', () => {
  it('keeps only the named members of every record of a page; the envelope stays', async () => {
    const whole = await page({});
    const shaped = await page({ fields: 'id,balance' });
    expect(shaped.status).toBe(200);
    expect(shaped.body.count).toBe(whole.body.count);
    expect(shaped.body.results.length).toBe(whole.body.results.length);
    shaped.body.results.forEach((record: Record<string, unknown>, index: number) => {
      expect(Object.keys(record).sort()).toEqual(['balance', 'id']);
      // A kept member keeps all it nests.
      expect(record.balance).toEqual(whole.body.results[index].balance);
    });
  });

  it('does not add `id` unless named, and ignores names no member has (choice)', async () => {
    const shaped = await sim.call('GET', `/api/accounts/${accountId}/`, {
      query: { fields: 'balance,no_such' },
    });
    expect(shaped.status).toBe(200);
    expect(Object.keys(shaped.body)).toEqual(['balance']);
    const nothing = await page({ fields: 'no_such' });
    expect(nothing.body.results.every((r: object) => Object.keys(r).length === 0)).toBe(true);
  });

  it('shapes the records a retrieval answers', async () => {
    const answer = await sim.call('POST', '/api/transactions/', {
      body: { link: bank, ...LAST_MONTH },
      query: { fields: 'id,amount,account' },
    });
    expect(answer.status).toBe(201);
    expect(answer.body.length).toBeGreaterThan(0);
    for (const record of answer.body) expect(Object.keys(record).sort()).toEqual(['account', 'amount', 'id']);
  });

  it('takes any list, as the provider does: an empty name or a nested path names no member', async () => {
    const whole = await page({});
    const skipped = await page({ fields: 'id,,balance' });
    expect(skipped.status).toBe(200);
    for (const record of skipped.body.results) expect(Object.keys(record).sort()).toEqual(['balance', 'id']);
    const nested = await page({ fields: 'balance.current' });
    expect(nested.status).toBe(200);
    expect(nested.body.results.every((r: object) => Object.keys(r).length === 0)).toBe(true);
    // A list that names nothing shapes nothing.
    for (const fields of ['', ',']) {
      const answer = await page({ fields, omit: '' });
      expect(answer.status, fields).toBe(200);
      expect(answer.body.results, fields).toEqual(whole.body.results);
    }
  });
});

describe('omit', () => {
  it('drops the named members and keeps every other', async () => {
    const whole = await sim.call('GET', `/api/accounts/${accountId}/`);
    const shaped = await sim.call('GET', `/api/accounts/${accountId}/`, {
      query: { omit: 'balance,institution' },
    });
    expect(shaped.status).toBe(200);
    const expected = Object.keys(whole.body).filter((name) => name !== 'balance' && name !== 'institution');
    expect(Object.keys(shaped.body)).toEqual(expected);
  });

  it('with fields, drops from what fields kept', async () => {
    const shaped = await page({ fields: 'id,name,balance', omit: 'balance' });
    for (const record of shaped.body.results) expect(Object.keys(record).sort()).toEqual(['id', 'name']);
  });

  it('shapes the link a registration answers', async () => {
    const created = await sim.call('POST', '/api/links/', {
      body: { institution: 'ofbank_br_retail', username: '76109277673', password: 'secret' },
      query: { omit: 'external_id,created_at' },
    });
    expect(created.status).toBe(201);
    expect(created.body.id).toEqual(expect.any(String));
    expect(created.body).not.toHaveProperty('created_at');
    expect(created.body).not.toHaveProperty('external_id');
  });

  it('never shapes an error: it stays the error array', async () => {
    const missing = await sim.call('GET', '/api/accounts/00000000-0000-4000-8000-000000000000/', {
      query: { fields: 'id' },
    });
    expect(missing.status).toBe(404);
    expect(missing.body[0]).toMatchObject({ code: 'not_found', request_id: expect.any(String) });
  });
});

describe('the contract check of a shaped answer', () => {
  const answer = (body: unknown): SimResponse => ({
    status: 200,
    headers: { 'content-type': 'application/json' },
    body,
  });

  it('refuses a dropped member, and a kept required member that is missing', async () => {
    const checker = documentChecker(sim.simulator.document);
    const whole = (await sim.call('GET', `/api/accounts/${accountId}/`)).body;
    const path = `/api/accounts/${accountId}/`;
    const check = (body: unknown, query: string) =>
      checkAgainstDocument(checker, 'GET', path, answer(body), new URLSearchParams(query));
    expect(() => check({ id: whole.id, balance: whole.balance }, 'fields=id,balance')).not.toThrow();
    expect(() => check({ id: whole.id, balance: whole.balance }, 'fields=id')).toThrow(/Contract violation/);
    expect(() => check({ id: whole.id }, 'fields=id,balance')).toThrow(/Contract violation/);
    const { balance: _dropped, ...rest } = whole;
    expect(() => check(rest, 'omit=balance')).not.toThrow();
    expect(() => check(whole, 'omit=balance')).toThrow(/Contract violation/);
    // Without the parameters the whole record is required, as before.
    expect(() => check(rest, '')).toThrow(/Contract violation/);
  });
});
