/**
 * The Store on Redis, for simulator replicas that share state. Every method that decides
 * something is one Lua script, one atomic step across replicas; virtual time is always an argument.
 * Scripts and the key layout: redis-lua-prelude.ts and the *-scripts.ts files beside it.
 */

import { forgetViews } from './record-views.js';
import { RedisConnection } from './redis-connection.js';
import { RedisDecisions } from './redis-decisions.js';
import { writeGeneration } from './redis-import.js';
import { collectionKeys, generationBase, jobMember, keyPart, tenantBase } from './redis-key-names.js';
import { RedisLogs } from './redis-logs.js';
import {
  CONSUME,
  DELETE,
  DELETE_BY_LINK,
  GET,
  LIST,
  LIST_SLICE,
  LIST_SLICE_IDS,
  PUT,
  TAKE,
} from './redis-record-scripts.js';
import {
  ADD_JOB,
  CLAIM_DUE_JOB,
  HIT_SLIDING_WINDOW,
  NEXT_SEQUENCE,
  UPCOMING_JOBS,
} from './redis-schedule-scripts.js';
import { StateRecords } from './redis-state-records.js';
import { CLEAR_TENANT, DROP_GENERATION, EXPORT_TENANT, FLIP_GENERATION } from './redis-tenant-scripts.js';
import type { RedisTimeouts } from './redis-url.js';
import type {
  JobRecord,
  RecordSlice,
  SlidingWindowHit,
  Store,
  StoredRecord,
  TenantSnapshot,
} from './store.js';

export { RedisStoreError } from './redis-connection.js';

export interface RedisStoreOptions extends Partial<RedisTimeouts> {
  /**
   * `redis://HOST:PORT/DB` or `redis+cluster://HOST:PORT,HOST:PORT`, optionally with
   * `?connect_timeout_ms=&command_timeout_ms=&job_lease_ms=` (redis-url.ts); the options given here win.
   */
  url: string;
  /** Start of every key (default `ofkit:`): several simulators, or tests, can share one Redis. */
  prefix?: string;
  /** A lost connection after start (node-redis reconnects meanwhile); the CLI prints it. */
  onError?: (error: Error) => void;
}

const parse = <T>(json: unknown): T | undefined => (typeof json === 'string' ? JSON.parse(json) : undefined);
const parseAll = <T>(replies: unknown, read: (json: string) => T = JSON.parse): T[] =>
  (replies as (string | null)[]).flatMap((json) => (json === null ? [] : [read(json)]));

/** The start of the names the record cache keeps a collection's records under (then their ids). */
const recordNames = (tenant: string, collection: string) => `${tenant}\u0000${collection}\u0000`;

/** A list script's collection, link ('' when none) and whether the link applies. */
const listArgs = (collection: string, where: { link?: string }): [string, string, string] =>
  where.link === undefined ? [keyPart(collection), '', '0'] : [keyPart(collection), keyPart(where.link), '1'];

export class RedisStore extends RedisDecisions implements Store {
  /** Pages' records by the tenant state they were read at (served again only at that state). */
  private readonly stateRecords = new StateRecords();

  constructor(options: RedisStoreOptions) {
    const { url, prefix = 'ofkit:', onError, ...timeouts } = options;
    super(new RedisConnection(url, onError, timeouts), prefix);
  }

  async get(tenant: string, collection: string, id: string) {
    const json = await this.run(GET, tenant, keyPart(collection), id);
    return typeof json === 'string' ? this.readRecord(json) : undefined;
  }

  async put(tenant: string, collection: string, record: StoredRecord) {
    const link = typeof record.link === 'string' ? keyPart(record.link) : undefined;
    // As the memory store does: a caller may re-put an object it changed in place (record-views.ts).
    forgetViews(record);
    const json = JSON.stringify(record);
    await this.write(
      PUT,
      tenant,
      keyPart(collection),
      record.id,
      json,
      link ?? '',
      link === undefined ? '0' : '1',
    );
  }

  async delete(tenant: string, collection: string, id: string) {
    return (await this.run(DELETE, tenant, keyPart(collection), id)) === 1;
  }

  async list(tenant: string, collection: string, where: { link?: string } = {}) {
    return parseAll(await this.run(LIST, tenant, ...listArgs(collection, where)), this.readRecord);
  }

  /**
   * The records' texts never pass through Lua: a script reads the tenant's state (its generation and
   * count of record changes) and the ids of the window. A page this process read at the state Redis
   * still has is served again as it was; records this process read at that state are what Redis holds
   * (StateRecords). Otherwise HMGET of the records and a read of the count go together (one round
   * trip); the same count after means no record changed in between, so the page is what one atomic
   * read would give; else (a write or an import came between) the one-script read answers.
   */
  async listSlice(
    tenant: string,
    collection: string,
    where: { link?: string },
    start: number,
    count: number,
  ): Promise<RecordSlice> {
    const window = [String(Math.max(0, Math.floor(start))), String(Math.floor(count))];
    const args = listArgs(collection, where);
    const windowKey = [collection, ...args.slice(1), ...window].join('\u0000');
    const kept = this.stateRecords.windowAt(tenant, windowKey);
    let head = (await this.run(LIST_SLICE_IDS, tenant, ...args, ...window, kept?.state ?? '')) as unknown[];
    if (head[0] === -1) {
      // Unchanged since this page was kept; a copy, so that no caller changes the kept page.
      const still = this.stateRecords.windowAt(tenant, windowKey);
      if (still !== undefined && still.state === kept?.state)
        return { total: still.slice.total, records: [...still.slice.records] };
      // Another read kept a newer state meanwhile: read this page afresh.
      head = (await this.run(LIST_SLICE_IDS, tenant, ...args, ...window, '')) as unknown[];
    }
    const total = Number(head[0]);
    if (head.length <= 3) return { total, records: [] };
    const generation = String(head[1]);
    const state = String(head[2]);
    const ids = head.slice(3).map(String);
    const known = this.stateRecords.find(tenant, state, collection, ids);
    if (known !== undefined) {
      this.stateRecords.keepWindow(tenant, state, windowKey, { total, records: [...known] });
      return { total, records: known };
    }
    const [texts, writes] = (await Promise.all([
      this.connection.command(['HMGET', collectionKeys(generation, args[0]).records, ...ids]),
      this.connection.command(['GET', `${generation}writes`]),
    ])) as [unknown[], unknown];
    const unchanged =
      `${generation}|${writes ?? ''}` === state && texts.every((text) => typeof text === 'string');
    if (!unchanged) return this.atomicSlice(tenant, collection, args, window);
    const prefix = recordNames(tenant, collection);
    const records = ids.map((id, index) => this.readNamedRecord(prefix + id, texts[index] as string));
    this.stateRecords.keep(tenant, state, collection, ids, records);
    this.stateRecords.keepWindow(tenant, state, windowKey, { total, records: [...records] });
    return { total, records };
  }

  /** listSlice in one script (the records' texts through Lua): when a change came between two steps. */
  private async atomicSlice(
    tenant: string,
    collection: string,
    args: readonly string[],
    window: readonly string[],
  ) {
    const reply = (await this.run(LIST_SLICE, tenant, ...args, ...window)) as unknown[];
    const records: StoredRecord[] = [];
    const prefix = recordNames(tenant, collection);
    for (let index = 1; index + 1 < reply.length; index += 2) {
      const json = reply[index + 1];
      if (typeof json === 'string') records.push(this.readNamedRecord(prefix + String(reply[index]), json));
    }
    return { total: Number(reply[0]), records };
  }

  async deleteByLink(tenant: string, collection: string, link: string) {
    return (await this.run(DELETE_BY_LINK, tenant, keyPart(collection), keyPart(link))) as number;
  }

  // The bounded logs: their keys and scripts in redis-logs.ts.
  private logs?: RedisLogs;

  private get boundedLogs(): RedisLogs {
    this.logs ??= new RedisLogs(this.connection, this.prefix);
    return this.logs;
  }

  appendLog(...[tenant, log, entry, bounds]: Parameters<Store['appendLog']>) {
    return this.boundedLogs.append(tenant, log, entry, bounds);
  }

  readLog(...[tenant, log, after, limit]: Parameters<Store['readLog']>) {
    return this.boundedLogs.read(tenant, log, after, limit);
  }

  clearLogs(tenant: string) {
    return this.boundedLogs.clear(tenant);
  }

  async hitSlidingWindow(
    tenant: string,
    key: string,
    now: number,
    windowMs: number,
    limit: number,
  ): Promise<SlidingWindowHit> {
    const args = [keyPart(key), String(now), String(now - windowMs), String(limit)];
    const [allowed, count, oldest] = (await this.write(HIT_SLIDING_WINDOW, tenant, ...args)) as [
      number,
      number,
      string,
    ];
    if (allowed === 1) return { allowed: true, count, retryAfterMs: 0 };
    return { allowed: false, count, retryAfterMs: Number(oldest) + windowMs - now };
  }

  async exportTenant(tenant: string): Promise<TenantSnapshot> {
    const [collections, windows] = (await this.run(EXPORT_TENANT, tenant)) as [
      [string, string[]][],
      [string, string[]][],
    ];
    return {
      collections: Object.fromEntries(
        collections.map(([name, records]) => [decodeURIComponent(name), parseAll<StoredRecord>(records)]),
      ),
      windows: Object.fromEntries(windows.map(([key, hits]) => [decodeURIComponent(key), hits.map(Number)])),
    };
  }

  async importTenant(tenant: string, snapshot: TenantSnapshot) {
    const base = tenantBase(this.prefix, tenant);
    const generation = String(await this.connection.command(['INCR', `${base}gens`]));
    try {
      await writeGeneration(this.connection, generationBase(base, generation), snapshot);
    } catch (error) {
      await this.dropGeneration(tenant, generation).catch(() => {});
      throw error;
    }
    // Jobs and counters are outside the generation: they stay, as in the memory store.
    await this.dropGeneration(tenant, await this.write(FLIP_GENERATION, tenant, generation));
  }

  async clearTenant(tenant: string) {
    await this.dropGeneration(tenant, await this.run(CLEAR_TENANT, tenant));
    await this.forget(tenant);
  }

  /** Deletes a generation nothing reaches any more (after a flip or a clear). */
  private async dropGeneration(tenant: string, generation: unknown) {
    if (typeof generation === 'string') await this.run(DROP_GENERATION, tenant, generation);
  }

  async take(tenant: string, collection: string, id: string) {
    return parse<StoredRecord>(await this.run(TAKE, tenant, keyPart(collection), id));
  }

  async consume(tenant: string, collection: string, id: string) {
    return parse<StoredRecord>(await this.run(CONSUME, tenant, keyPart(collection), id));
  }

  async nextSequence(tenant: string, name: string) {
    return (await this.write(NEXT_SEQUENCE, tenant, name)) as number;
  }

  async addJob(tenant: string, job: JobRecord) {
    await this.write(
      ADD_JOB,
      tenant,
      job.id,
      String(job.at),
      jobMember(job.order, job.id),
      JSON.stringify(job),
    );
  }

  async claimDueJob(tenant: string, until: number) {
    return parse<JobRecord>(await this.run(CLAIM_DUE_JOB, tenant, String(until)));
  }

  async upcomingJobs(tenant: string, limit: number) {
    if (limit <= 0) return [];
    return parseAll<JobRecord>(await this.run(UPCOMING_JOBS, tenant, String(limit)));
  }

  async countJobs(tenant: string) {
    return (await this.connection.command(['ZCARD', `${tenantBase(this.prefix, tenant)}jobs:due`])) as number;
  }

  async clearJobs(tenant: string) {
    const base = tenantBase(this.prefix, tenant);
    await this.connection.command([
      'DEL',
      `${base}jobs:due`,
      `${base}jobs:rec`,
      `${base}jobs:ids`,
      `${base}jobs:lease`,
    ]);
  }
}
