/**
 * Realistic data for the benchmark, put straight into the tenant's store: generating a million records
 * through the retrieval handlers would measure the generator, not serving, so the bench seeds them.
 * The link itself is registered through the core (`handle`), so it is exactly what the API creates.
 */

import { basicAuthorization } from '../../openapi/config/api-keys.js';
import type { JsonObject } from '../../openapi/document/json.js';
import { ACCOUNTS, LINKS, TRANSACTIONS } from '../../openapi/http/api-paths.js';
import { DEFAULT_KEYS } from '../../simulator/src/config/simulator-config.js';
import { generateRecords } from '../../simulator/src/data/records/record-generator.js';
import {
  buildRecordTemplates,
  type RecordTemplate,
} from '../../simulator/src/data/records/record-templates.js';
import { createIds, createRandom, type Ids } from '../../simulator/src/ids/seeded-ids.js';
import type { Simulator } from '../../simulator/src/simulator.js';
import type { StoredRecord } from '../../simulator/src/store/store.js';

export { ACCOUNTS, LINKS, TRANSACTIONS };

/** The key every scenario uses: the README's first default key (a production tenant). */
export const BENCH_KEY = DEFAULT_KEYS[0]!;
export const BASIC_AUTH = basicAuthorization(BENCH_KEY.secretId, BENCH_KEY.secretPassword);
/** A valid registration at a catalogue institution that asks for no token (no 428). */
export const LINK_BODY = { institution: 'ofbank_br_retail', username: '76109277673', password: 'secret' };
/** The store collection of a data resource is its collection path, as for links (`LINKS`). */

export interface SeededLink {
  linkId: string;
  accountId: string;
  transactions: number;
}

/** Registers a link through the core, as `POST /api/links/` would. Throws unless it answers 201. */
export async function registerLink(simulator: Simulator): Promise<StoredRecord> {
  const response = await simulator.handle({
    method: 'POST',
    path: LINKS,
    query: new URLSearchParams(),
    headers: { authorization: BASIC_AUTH, 'content-type': 'application/json' },
    body: JSON.stringify(LINK_BODY),
    origin: 'http://127.0.0.1',
  });
  if (response.status !== 201) throw new Error(`seeding: POST ${LINKS} answered ${response.status}`);
  return response.body as StoredRecord;
}

function templateOf(templates: Map<string, RecordTemplate>, path: string): RecordTemplate {
  const template = templates.get(path);
  if (template === undefined) throw new Error(`seeding: the document has no record template for ${path}`);
  return template;
}

/** Generates `count` records of `path` for the link, from the document's examples (deterministic). */
export function generateFor(
  simulator: Simulator,
  path: string,
  link: StoredRecord,
  count: number,
  /** `account`: the stored account the transactions belong to (nested in each, as the provider does). */
  options: { seed: string; account?: JsonObject },
): JsonObject[] {
  const template = templateOf(buildRecordTemplates(simulator.document), path);
  const random = createRandom(options.seed);
  const tenant = simulator.tenant(BENCH_KEY.secretId);
  const context = {
    link: { id: link.id, institution: String(link.institution), country: 'BR' },
    collectedAt: new Date(tenant.clock.now()).toISOString(),
    ...(options.account === undefined
      ? {}
      : {
          accountIds: [String(options.account.id)],
          referencedRecords: { account: new Map([[String(options.account.id), options.account]]) },
        }),
  };
  return generateRecords(template, context, count, { random, ids: createIds(random) });
}

/** One link, one of its accounts and `count` transactions of that account, in the bench tenant's store. */
export async function seedLinkWithTransactions(simulator: Simulator, count: number): Promise<SeededLink> {
  const tenant = simulator.tenant(BENCH_KEY.secretId);
  const link = await registerLink(simulator);
  const [account] = generateFor(simulator, ACCOUNTS, link, 1, { seed: 'bench/accounts' });
  if (account === undefined || typeof account.id !== 'string') throw new Error('seeding: no account');
  await tenant.store.put(ACCOUNTS, account as StoredRecord);
  const records = generateFor(simulator, TRANSACTIONS, link, count, {
    seed: 'bench/transactions',
    account,
  });
  for (const record of records) await tenant.store.put(TRANSACTIONS, record as StoredRecord);
  return { linkId: link.id, accountId: account.id, transactions: records.length };
}

/**
 * A copy of a record under a fresh id, with `overrides` (link, account...) for the fields it has.
 * Nested objects and arrays (merchant, institution) are copied one level deep, so the store holds
 * as many objects as a generated store would; only strings are shared, as between generated records.
 */
export function cloneRecord(
  record: Readonly<Record<string, unknown>>,
  ids: Ids,
  overrides: Readonly<Record<string, unknown>> = {},
): StoredRecord {
  const copy: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(record)) {
    if (Array.isArray(value)) copy[key] = [...value];
    else copy[key] = value !== null && typeof value === 'object' ? { ...value } : value;
  }
  copy.id = ids.uuid();
  for (const [key, value] of Object.entries(overrides)) if (key in record) copy[key] = value;
  return copy as StoredRecord;
}
