/**
 * The memory store's bounded logs: per tenant, one numbering for all its logs and a ring per log
 * (bounded-log.ts). Kept apart from the tenant's state: clearing or importing the tenant leaves them.
 */
import { BoundedLog } from './bounded-log.js';
import type { LogBounds, LogPage } from './store.js';

interface TenantLogs {
  sequence: number;
  readonly logs: Map<string, BoundedLog>;
}

export class MemoryLogs {
  private readonly tenants = new Map<string, TenantLogs>();

  /** Numbers the entry and keeps it; no await inside, so appends keep the order of the calls. */
  append(tenant: string, log: string, entry: string, bounds: LogBounds): number {
    let logs = this.tenants.get(tenant);
    if (logs === undefined) {
      logs = { sequence: 0, logs: new Map() };
      this.tenants.set(tenant, logs);
    }
    logs.sequence += 1;
    let ring = logs.logs.get(log);
    if (ring === undefined) {
      ring = new BoundedLog(bounds.entries);
      logs.logs.set(log, ring);
    }
    ring.append(logs.sequence, entry, bounds);
    return logs.sequence;
  }

  read(tenant: string, log: string, after: number, limit: number): LogPage {
    const ring = this.tenants.get(tenant)?.logs.get(log);
    return { entries: ring?.after(after, limit) ?? [], dropped: ring?.dropped ?? 0 };
  }

  clear(tenant: string): void {
    this.tenants.delete(tenant);
  }
}
