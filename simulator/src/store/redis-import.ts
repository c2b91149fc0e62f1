/**
 * importTenant's bulk write: the snapshot goes under a fresh generation that no reader sees until
 * FLIP_GENERATION makes it current in one step (so a reader sees the old state or the new, never a mix).
 */
import type { RedisConnection } from './redis-connection.js';
import { collectionKeys, keyPart } from './redis-key-names.js';
import type { StoredRecord, TenantSnapshot } from './store.js';

/** Records per batch of commands (pipelined: node-redis sends commands of one tick together). */
const SLICE = 1000;

/** The last record of each id, in the order a sequence of puts would leave them. */
function lastOfEachId(records: readonly StoredRecord[]): StoredRecord[] {
  const byId = new Map<string, StoredRecord>();
  for (const record of records) {
    byId.delete(record.id);
    byId.set(record.id, record);
  }
  return [...byId.values()];
}

function sliceCommands(
  keys: ReturnType<typeof collectionKeys>,
  slice: readonly StoredRecord[],
  firstOrder: number,
): string[][] {
  const records = ['HSET', keys.records];
  const order = ['ZADD', keys.order];
  const links = ['HSET', keys.links];
  const byLink = new Map<string, string[]>();
  slice.forEach((record, index) => {
    const score = String(firstOrder + index);
    records.push(record.id, JSON.stringify(record));
    order.push(score, record.id);
    if (typeof record.link !== 'string') return;
    const link = keyPart(record.link);
    links.push(record.id, link);
    const members = byLink.get(link) ?? [];
    members.push(score, record.id);
    byLink.set(link, members);
  });
  const commands = [records, order];
  if (links.length > 2) commands.push(links);
  for (const [link, members] of byLink) commands.push(['ZADD', keys.byLink(link), ...members]);
  return commands;
}

/** Writes the snapshot under the generation whose keys start with `generation`. */
export async function writeGeneration(
  connection: RedisConnection,
  generation: string,
  snapshot: TenantSnapshot,
): Promise<void> {
  let order = 0;
  const names: string[] = [];
  for (const [name, all] of Object.entries(snapshot.collections)) {
    const records = lastOfEachId(all);
    if (records.length === 0) continue;
    names.push(keyPart(name));
    const keys = collectionKeys(generation, keyPart(name));
    for (let start = 0; start < records.length; start += SLICE) {
      const commands = sliceCommands(keys, records.slice(start, start + SLICE), order + start + 1);
      await Promise.all(commands.map((command) => connection.command(command)));
    }
    order += records.length;
  }
  const windowKeys: string[] = [];
  const writes: Promise<unknown>[] = [];
  for (const [key, hits] of Object.entries(snapshot.windows)) {
    windowKeys.push(keyPart(key));
    // Members are unique per hit, as HIT_SLIDING_WINDOW makes them: "<at>:<order>".
    const members = hits.flatMap((at) => [String(at), `${at}:${++order}`]);
    if (members.length > 0)
      writes.push(connection.command(['ZADD', `${generation}w:${keyPart(key)}`, ...members]));
  }
  // In the snapshot's order: export gives them back in the same order.
  const ranked = (names: string[]) => names.flatMap((name, index) => [String(index + 1), name]);
  if (names.length > 0) writes.push(connection.command(['ZADD', `${generation}colls`, ...ranked(names)]));
  if (windowKeys.length > 0)
    writes.push(connection.command(['ZADD', `${generation}wins`, ...ranked(windowKeys)]));
  // Above every score given here, so later collections and windows rank after these.
  writes.push(connection.command(['SET', `${generation}order`, String(order + windowKeys.length)]));
  await Promise.all(writes);
}
