/**
 * The Redis store's plumbing (its connection, the tenant's script call, the tenant registry) and the
 * steps replicas race on: a compare-and-set put, a removal with everything that goes with it, and job
 * leases. redis-store.ts adds the rest of the Store.
 */
import type { LuaScript, RedisConnection } from './redis-connection.js';
import { PUT_IF, REMOVE_RECORD } from './redis-decision-scripts.js';
import { keyPart, tenantBase } from './redis-key-names.js';
import { CANCEL_JOB, FINISH_JOB, LEASE_DUE_JOB, RELEASE_JOB, RENEW_JOB } from './redis-lease-scripts.js';
import { RecordCache } from './redis-record-cache.js';
import type {
  ConditionalPut,
  JobLease,
  JobRecord,
  LeasedJob,
  PutCondition,
  Removal,
  RemovalRequest,
  StoredRecord,
} from './store.js';

const parse = <T>(json: unknown): T | undefined => (typeof json === 'string' ? JSON.parse(json) : undefined);

/** The arguments of a record as PUT-like scripts take them: id, JSON, link, '1' when it has one. */
function recordArgs(record: StoredRecord): string[] {
  const link = typeof record.link === 'string' ? keyPart(record.link) : undefined;
  return [record.id, JSON.stringify(record), link ?? '', link === undefined ? '0' : '1'];
}

export class RedisDecisions {
  protected readonly records = new RecordCache();
  protected readonly readRecord = (json: string) => this.records.parse(json);
  /** A record whose tenant, collection and id the caller knows: found again without hashing its text. */
  protected readonly readNamedRecord = (name: string, json: string) => this.records.parseNamed(name, json);
  /** Tenants this process has put in the registry since it last forgot them. */
  private readonly registered = new Set<string>();

  constructor(
    protected readonly connection: RedisConnection,
    protected readonly prefix: string,
  ) {}

  get jobLeaseMs(): number {
    return this.connection.timeouts.jobLeaseMs;
  }

  /** Rejects with a RedisStoreError naming the URL and the cause when Redis cannot be used. */
  connect(): Promise<void> {
    return this.connection.connect();
  }

  close(): Promise<void> {
    return this.connection.close();
  }

  /** Runs a script of the tenant: KEYS = {P}gen (routes it to the tenant's slot), ARGV = {P}, tenant, ...args. */
  protected run(script: LuaScript, tenant: string, ...args: string[]): Promise<unknown> {
    const base = tenantBase(this.prefix, tenant);
    return this.connection.run(script, [`${base}gen`], [base, tenant, ...args]);
  }

  /**
   * A script that may give the tenant state: the tenant goes into the registry first, by its own
   * command (the registry is one key, in another slot than the tenant's on a cluster).
   */
  protected async write(script: LuaScript, tenant: string, ...args: string[]): Promise<unknown> {
    if (!this.registered.has(tenant)) {
      await this.connection.command(['SADD', `${this.prefix}tenants`, tenant]);
      this.registered.add(tenant);
    }
    return this.run(script, tenant, ...args);
  }

  /** Takes a cleared tenant out of the registry (a replica that still thinks it registered it adds it back on its next write only after a restart; the tenant's own replicas list it anyway). */
  protected async forget(tenant: string): Promise<void> {
    this.registered.delete(tenant);
    await this.connection.command(['SREM', `${this.prefix}tenants`, tenant]);
  }

  async tenants() {
    return (await this.connection.command(['SMEMBERS', `${this.prefix}tenants`])) as string[];
  }

  async putIf(
    tenant: string,
    collection: string,
    record: StoredRecord,
    when: PutCondition,
  ): Promise<ConditionalPut> {
    const args = [keyPart(collection), ...recordArgs(record), when.field, JSON.stringify(when.equals)];
    const [put, before] = (await this.write(PUT_IF, tenant, ...args)) as [number, string | null];
    return { put: put === 1, before: typeof before === 'string' ? this.readRecord(before) : undefined };
  }

  async removeRecord(tenant: string, removal: RemovalRequest): Promise<Removal> {
    const { window, mark } = removal;
    const args = [
      keyPart(removal.collection),
      removal.id,
      keyPart(removal.id),
      JSON.stringify((removal.cascade ?? []).map(keyPart)),
      ...(window
        ? [
            keyPart(window.key),
            String(window.now),
            String(window.now - window.windowMs),
            String(window.limit),
          ]
        : ['', '', '', '']),
      ...(mark ? [keyPart(mark.collection), ...recordArgs(mark.record)] : ['', '', '', '', '']),
    ];
    const [outcome, first, second] = (await this.run(REMOVE_RECORD, tenant, ...args)) as [
      string,
      unknown,
      unknown,
    ];
    if (outcome === 'removed') return { outcome, record: this.readRecord(first as string) };
    if (outcome === 'missing' || !window) return { outcome: 'missing' };
    const retryAfterMs = Number(second) + window.windowMs - window.now;
    return { outcome: 'refused', hit: { allowed: false, count: first as number, retryAfterMs } };
  }

  async leaseDueJob(tenant: string, until: number, owner: string): Promise<LeasedJob | undefined> {
    const leaseMs = String(this.connection.timeouts.jobLeaseMs);
    const leased = (await this.run(LEASE_DUE_JOB, tenant, String(until), owner, leaseMs)) as
      | [string, number]
      | null;
    if (!leased) return undefined;
    const job = parse<JobRecord>(leased[0])!;
    return { job, lease: { id: job.id, token: leased[1], owner } };
  }

  async finishJob(tenant: string, lease: JobLease) {
    return (await this.run(FINISH_JOB, tenant, lease.id, String(lease.token))) === 1;
  }

  async releaseJob(tenant: string, lease: JobLease) {
    return (await this.run(RELEASE_JOB, tenant, lease.id, String(lease.token))) === 1;
  }

  async renewJob(tenant: string, lease: JobLease) {
    const leaseMs = String(this.connection.timeouts.jobLeaseMs);
    return (await this.run(RENEW_JOB, tenant, lease.id, String(lease.token), leaseMs)) === 1;
  }

  async cancelJob(tenant: string, id: string) {
    return (await this.run(CANCEL_JOB, tenant, id)) === 1;
  }
}
