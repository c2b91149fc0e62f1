/**
 * DATA-DETAIL in passing traffic: a detail that differs from the record the list showed just before is
 * a finding; the records kept for it are the latest MAX_SEEN_RECORDS seen, so a long recording does not
 * keep every record it ever read.
 */
import { describe, expect, it } from 'vitest';
import { loadBridgeDocument } from '../../document/bridge-document.js';
import type { Exchange } from '../../exchange/exchange.js';
import { createCheckSession } from '../check-session.js';
import { viewExchange } from '../exchange-view.js';
import { createStoredRecordsCheck, MAX_SEEN_RECORDS } from './stored-records.js';

const AUTH = `Basic ${Buffer.from('k:s').toString('base64')}`;
const LINK = '3f2a9c1e-2222-4222-8222-222222222222';
const owner = (index: number, name = 'Maria Souza') => ({
  id: `3f2a9c1e-1111-4111-8111-${String(index).padStart(12, '0')}`,
  link: LINK,
  internal_identification: null,
  collected_at: null,
  display_name: name,
  email: null,
  phone_number: null,
  address: null,
  document_id: null,
});

function exchange(path: string, body: unknown): Exchange {
  return {
    startedAt: '2026-11-02T12:00:00.000Z',
    durationMs: 1,
    request: { method: 'GET', url: `http://api.test${path}`, headers: [['authorization', AUTH]] },
    response: {
      status: 200,
      statusText: '',
      headers: [['content-type', 'application/json']],
      body: JSON.stringify(body),
    },
  };
}

/** A list of the link's owners `from` to `from + count - 1`, as one page. */
const ownersList = (from: number, count: number) =>
  exchange(`/api/owners/?link=${LINK}&page_size=1000`, {
    count,
    next: null,
    previous: null,
    results: Array.from({ length: count }, (_, index) => owner(from + index)),
  });

const detailRules = (findings: { rule?: string }[]) => findings.filter((f) => f.rule === 'DATA-DETAIL');

describe('DATA-DETAIL in passing traffic', () => {
  it('finds a detail that differs from the list just before, for the latest records kept', () => {
    const session = createCheckSession(loadBridgeDocument());
    const changed = (index: number) => exchange(`/api/owners/${owner(index).id}/`, owner(index, 'Ana Lima'));
    expect(detailRules(session.observe(ownersList(0, 3)))).toEqual([]);
    expect(detailRules(session.observe(changed(1)))).toHaveLength(1);
    // Enough later records to pass the bound: the first ones are no longer kept, so not judged.
    for (let from = 3; from < MAX_SEEN_RECORDS + 3; from += 1000) session.observe(ownersList(from, 1000));
    expect(detailRules(session.observe(changed(1)))).toEqual([]);
    expect(detailRules(session.observe(changed(MAX_SEEN_RECORDS + 2)))).toHaveLength(1);
  });

  it('reads each record from the answer that last served it, past the answers it keeps parsed', () => {
    const session = createCheckSession(loadBridgeDocument());
    const detail = (index: number, name = 'Maria Souza') =>
      detailRules(session.observe(exchange(`/api/owners/${owner(index).id}/`, owner(index, name))));
    // Six pages of two owners each (more answers than are kept parsed), then a detail of each owner.
    for (let page = 0; page < 6; page += 1) session.observe(ownersList(page * 2, 2));
    for (let index = 0; index < 12; index += 1) expect(detail(index)).toEqual([]);
    for (let index = 11; index >= 0; index -= 1) expect(detail(index, 'Ana Lima')).toHaveLength(1);
    // Served again under another name: the later answer is the one compared.
    session.observe(
      exchange(`/api/owners/?link=${LINK}&page_size=1000`, {
        count: 1,
        next: null,
        previous: null,
        results: [owner(0, 'Ana Lima')],
      }),
    );
    expect(detail(0, 'Ana Lima')).toEqual([]);
    expect(detail(0)).toHaveLength(1);
  });

  it('names the members that differ, as the list showed them', () => {
    const session = createCheckSession(loadBridgeDocument());
    session.observe(ownersList(0, 3));
    const [finding] = detailRules(
      session.observe(exchange(`/api/owners/${owner(2).id}/`, { ...owner(2, 'Ana Lima'), email: 'a@b.c' })),
    );
    expect(finding).toMatchObject({ rule: 'DATA-DETAIL' });
    expect((finding as { message: string }).message).toContain('(display_name, email)');
  });

  it('judges no record whose answer later answers wrote over in the arena, and every other', () => {
    const document = loadBridgeDocument();
    const list = ownersList(0, 2);
    // Room for two such answers: the third starts a new lap over the first.
    const check = createStoredRecordsCheck(2 * Buffer.byteLength(list.response.body!) + 10);
    let index = 0;
    const observe = (exchange: Exchange) =>
      detailRules(check.observe(viewExchange(document, exchange, index++, ''), { epoch: 0 }));
    const changed = (which: number) => exchange(`/api/owners/${owner(which).id}/`, owner(which, 'Ana Lima'));
    observe(list);
    observe(ownersList(2, 2));
    expect(observe(changed(0))).toHaveLength(1);
    observe(ownersList(4, 2));
    // The third answer wrote over the first, whose records a detail had read just before (kept parsed).
    expect(observe(changed(1))).toHaveLength(1);
    observe(ownersList(6, 2));
    // The fourth wrote over the second, never read again: its records are no longer judged.
    expect(observe(changed(2))).toEqual([]);
    expect(observe(changed(5))).toHaveLength(1);
    expect(observe(changed(7))).toHaveLength(1);
  });
});
