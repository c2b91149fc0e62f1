/**
 * Loads the memory figure into the bench tenant's store: `links` links and `perLink`
 * transactions each (10,000 x 100 = 1,000,000). Generating a million records one by one costs minutes,
 * so a block is generated with the simulator's generator and cloned under fresh ids, links and accounts.
 */
import type { JsonObject } from '../../openapi/document/json.js';
import { createIds, createRandom } from '../../simulator/src/ids/seeded-ids.js';
import type { Simulator } from '../../simulator/src/simulator.js';
import {
  ACCOUNTS,
  BENCH_KEY,
  cloneRecord,
  generateFor,
  LINKS,
  registerLink,
  TRANSACTIONS,
} from '../servers/seed-data.js';

const BLOCK_SIZE = 2_000;

export interface BulkLoad {
  links: number;
  transactions: number;
  /** Milliseconds spent generating the block the transactions are cloned from. */
  generateBlockMs: number;
  linkIds: string[];
}

export async function bulkLoad(simulator: Simulator, links: number, perLink: number): Promise<BulkLoad> {
  const tenant = simulator.tenant(BENCH_KEY.secretId);
  const store = tenant.store;
  const ids = createIds(createRandom('bench/bulk'));
  const registered = await registerLink(simulator);
  // The stored link (with its private members), not the public view the API answered.
  const first = (await store.get(LINKS, registered.id)) ?? registered;
  const started = performance.now();
  const [account] = generateFor(simulator, ACCOUNTS, first, 1, { seed: 'bench/bulk/account' });
  if (account === undefined) throw new Error('bulk load: no account generated');
  const block: JsonObject[] = generateFor(simulator, TRANSACTIONS, first, BLOCK_SIZE, {
    seed: 'bench/bulk/block',
    account,
  });
  const generateBlockMs = performance.now() - started;
  const linkIds: string[] = [];
  let transactions = 0;
  for (let l = 0; l < links; l++) {
    const link = l === 0 ? first : cloneRecord(first, ids);
    if (l > 0) await store.put(LINKS, link);
    linkIds.push(link.id);
    // Each link's transactions nest one account of that link (a clone of the block's under a fresh id).
    const owner = { link: link.id, account: { ...account, id: ids.uuid(), link: link.id } };
    for (let t = 0; t < perLink; t++) {
      const record = block[(l * perLink + t) % block.length]!;
      await store.put(TRANSACTIONS, cloneRecord(record, ids, owner));
      transactions++;
    }
  }
  return { links: linkIds.length, transactions, generateBlockMs, linkIds };
}
