/**
 * AUTH-TENANT: the data of one API key is never visible to another. Every tenant has its own runtime
 * (authenticate.ts resolves it from the key id), so another key's link or record is 404 on detail,
 * update and delete, and never appears in a list, filtered or not.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import {
  type CheckedSimulator,
  contractCheckedSimulator,
} from '../../test-support/contract-checked-simulator.js';

const A = 'tenant-a:secret-a';
const B = 'tenant-b:secret-b';
let sim: CheckedSimulator;
let link: string;
let account: string;

beforeAll(async () => {
  sim = await contractCheckedSimulator();
  const registered = await sim.call('POST', '/api/links/', {
    body: { institution: 'ofbank_br_retail', username: '76109277673', password: 'p' },
    as: A,
  });
  link = registered.body.id;
  const accounts = await sim.call('POST', '/api/accounts/', { body: { link }, as: A });
  expect(accounts.status).toBe(201);
  account = accounts.body[0].id;
});

describe('AUTH-TENANT', () => {
  it("another key's link is 404 on detail, update and delete, and stays the owner's", async () => {
    const url = `/api/links/${link}/`;
    expect((await sim.call('GET', url, { as: B })).status).toBe(404);
    expect((await sim.call('PATCH', url, { body: { access_mode: 'single' }, as: B })).status).toBe(404);
    expect((await sim.call('DELETE', url, { as: B })).status).toBe(404);
    expect((await sim.call('GET', url, { as: A })).status).toBe(200);
  });

  it("another key's record is 404 on detail and delete", async () => {
    const url = `/api/accounts/${account}/`;
    expect((await sim.call('GET', url, { as: B })).status).toBe(404);
    expect((await sim.call('DELETE', url, { as: B })).status).toBe(404);
    expect((await sim.call('GET', url, { as: A })).status).toBe(200);
  });

  it("another key's link and records never appear in a list, even filtered by that link", async () => {
    const links = await sim.call('GET', '/api/links/', { query: { page_size: '1000' }, as: B });
    expect(links.status).toBe(200);
    expect(links.body.results.map((row: { id: string }) => row.id)).not.toContain(link);
    const accounts = await sim.call('GET', '/api/accounts/', { query: { link }, as: B });
    // The link names nothing for B: 404, or an empty page; never A's accounts.
    if (accounts.status === 200) expect(accounts.body.results).toEqual([]);
    else expect(accounts.status).toBe(404);
    const retrieval = await sim.call('POST', '/api/accounts/', { body: { link }, as: B });
    expect([400, 404]).toContain(retrieval.status);
  });
});
