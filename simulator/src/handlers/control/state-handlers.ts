/** The tenant's whole state (`/_ofkit/reset/`, `/_ofkit/snapshot/`): forget it, export it, replace it. */
import { ok } from '../../core/result.js';
import { createIds, createRandom } from '../../ids/seeded-ids.js';
import type { TenantSnapshot } from '../../store/store.js';
import type { TenantRuntime } from '../../tenants/tenant-runtime.js';
import { WEBHOOKS_COLLECTION } from '../../webhooks/webhook-config.js';
import { type Handler, json, noContent } from '../handler.js';
import { exportSnapshot, importSnapshot, readState, type Snapshot, type SnapshotState } from './snapshot.js';

/**
 * Store collections a reset keeps: resetTenant's description in admin.yaml says "webhook configuration
 * is kept", while records, events (`_ofkit/events`) and rate-limit windows go.
 */
export const KEPT_ON_RESET: readonly string[] = [WEBHOOKS_COLLECTION];

async function clearStore(tenant: TenantRuntime): Promise<void> {
  // Read only what is kept (not exportTenant: a tenant may hold a million records).
  const kept: TenantSnapshot = { collections: {}, windows: {} };
  for (const name of KEPT_ON_RESET) {
    const records = await tenant.store.list(tenant.id, name);
    if (records.length > 0) kept.collections[name] = records;
  }
  // clearTenant forgets the records and the rate-limit windows (DELETE-RATE-LIMIT) together.
  await tenant.store.clearTenant(tenant.id);
  if (Object.keys(kept.collections).length > 0) await tenant.store.importTenant(tenant.id, kept);
}

const resetTenant: Handler = async ({ tenant }) => {
  await clearStore(tenant);
  tenant.faults = [];
  tenant.scenarios = [];
  // Forgets the scheduled jobs; the clock follows real time again (resetTenant's description).
  tenant.clock.reset();
  return ok(noContent());
};

const exportSnapshotHandler: Handler = async ({ tenant }) => ok(json(200, await exportSnapshot(tenant)));

const importSnapshotHandler: Handler = async ({ input, tenant }) => {
  // The pipeline validated the whole body against admin.yaml's Snapshot (SnapshotState included).
  const body = input.body as Omit<Snapshot, 'state'> & { state?: Partial<SnapshotState> };
  await importSnapshot(tenant, body.clock, readState(body.state));
  // New ids come from a stream derived from the current one, so that a snapshot imported into a fresh
  // simulator with the same seed cannot meet its own ids again (a new link replacing an imported one).
  tenant.ids = createIds(createRandom(`${tenant.ids.hex(32)}/imported`));
  return ok(noContent());
};

export const stateHandlers: [string, Handler][] = [
  ['resetTenant', resetTenant],
  ['exportSnapshot', exportSnapshotHandler],
  ['importSnapshot', importSnapshotHandler],
];
