/**
 * Observers never change what they observe: every read the dashboard makes (marked
 * `x-ofkit-client: dashboard`) and every read of the control API leaves the tenant's armed faults
 * (ERR-500-408), scenario switches and deletion windows (DELETE-RATE-LIMIT) to the client under test.
 * Every response is checked against its document.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readBundledDocument } from '../../../openapi/document/bundled-documents.js';
import { BASIC, type ServedSimulator, serveSimulator } from '../../test-support/browser-harness.js';

const REGISTRATION = { institution: 'ofbank_br_retail', username: '76109277673', password: 'secret' };
const DASHBOARD = { 'x-ofkit-client': 'dashboard' };

/** The GET operations of a document whose path holds no parameter but `{id}`, as `[operationId, path]`. */
function reads(name: 'api' | 'admin'): [string, string][] {
  const paths = (
    readBundledDocument(name) as { paths: Record<string, Record<string, { operationId: string }>> }
  ).paths;
  return Object.entries(paths)
    .filter(([path, item]) => item.get !== undefined && !/\{(?!id\})/.test(path))
    .map(([path, item]) => [item.get!.operationId, path]);
}

/** The tenant's armed faults and switches and its whole stored state, windows included. */
async function observed(served: ServedSimulator) {
  const [faults, scenarios, snapshot] = await Promise.all(
    ['/_ofkit/faults/', '/_ofkit/scenarios/', '/_ofkit/snapshot/'].map((path) => served.api('GET', path)),
  );
  return { faults: faults!.body, scenarios: scenarios!.body, snapshot: snapshot!.body };
}

/** `GET url` as tenant-a, with extra headers; the status only. */
async function read(served: ServedSimulator, path: string, headers: Record<string, string> = {}) {
  const response = await fetch(`${served.url}${path}`, { headers: { authorization: BASIC, ...headers } });
  await response.arrayBuffer();
  return response.status;
}

describe('observers never change what they observe', () => {
  let served: ServedSimulator;
  beforeEach(async () => {
    served = await serveSimulator('observers');
  });
  afterEach(async () => {
    await served.close();
    expect(served.violations).toEqual([]);
  });

  /** Six links, four of them deleted: one deletion is left in deleteLink's window (5 per 60 s). */
  async function armEverything(): Promise<{ kept: string[] }> {
    const ids: string[] = [];
    for (let i = 0; i < 6; i++)
      ids.push(((await served.api('POST', '/api/links/', REGISTRATION)).body as { id: string }).id);
    await served.api('POST', '/api/accounts/', { link: ids[0] });
    for (const id of ids.slice(2)) expect((await served.api('DELETE', `/api/links/${id}/`)).status).toBe(204);
    await served.api('POST', '/_ofkit/faults/', { operation_id: 'listAccounts', status: 500, count: 2 });
    await served.api('POST', '/_ofkit/faults/', { operation_id: 'getLink', status: 408 });
    await served.api('POST', '/_ofkit/faults/', { operation_id: 'listLinks', status: 500 });
    await served.api('POST', '/_ofkit/scenarios/', {
      scenario: 'institution_requires_token',
      institution: REGISTRATION.institution,
      count: 1,
    });
    return { kept: ids.slice(0, 2) };
  }

  it("reading everything through the dashboard's calls and the control API leaves faults, switches and windows", async () => {
    const { kept } = await armEverything();
    const [link] = kept as [string];
    const before = await observed(served);
    expect(before.faults).toHaveLength(3);
    const api = reads('api');
    expect(api.length).toBeGreaterThan(20);
    for (const [operationId, path] of api) {
      const status = await read(served, `${path.replace('{id}', link)}?link=${link}&page_size=1`, DASHBOARD);
      // A read answers as a read (404 for another collection's {id}), never with an armed fault.
      expect([408, 500], `${operationId} read by the dashboard`).not.toContain(status);
    }
    for (const [operationId, path] of reads('admin'))
      for (const headers of [{}, DASHBOARD])
        expect(await read(served, path, headers), `${operationId} ${JSON.stringify(headers)}`).toBe(200);
    expect(await observed(served)).toEqual(before);

    // The client under test gets what was armed for it, and the window still has its one deletion.
    const accounts = `/api/accounts/?link=${link}`;
    expect([
      await read(served, accounts),
      await read(served, accounts),
      await read(served, accounts),
    ]).toEqual([500, 500, 200]);
    expect(await read(served, `/api/links/${link}/`)).toBe(408);
    expect(await read(served, '/api/links/')).toBe(500);
    expect((await served.api('POST', '/api/links/', REGISTRATION)).status).toBe(428);
    expect((await served.api('DELETE', `/api/links/${kept[1]}/`)).status).toBe(204);
    expect((await served.api('DELETE', `/api/links/${link}/`)).status).toBe(429);
  });

  it("the dashboard's actions are the user's: a dashboard DELETE takes the fault armed for it", async () => {
    const { kept } = await armEverything();
    await served.api('POST', '/_ofkit/faults/', { operation_id: 'deleteLink', status: 500 });
    const response = await fetch(`${served.url}/api/links/${kept[0]}/`, {
      method: 'DELETE',
      headers: { authorization: BASIC, ...DASHBOARD },
    });
    expect(response.status).toBe(500);
    await response.arrayBuffer();
    expect((await served.api('GET', '/_ofkit/faults/')).body).toHaveLength(3);
  });
});
