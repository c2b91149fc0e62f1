/**
 * The tenant's snapshot (admin.yaml `Snapshot`): `format`, the clock, and a `state` that admin.yaml leaves
 * opaque. Here `state` is `{store, scenarios, faults}`: the Store's export (records, including the
 * webhook configuration and event log kept under `_ofkit/` collections, and the rate-limit windows), the
 * scenario switches and the injected faults.
 *
 * Choice: scheduled clock jobs (an async deletion due in a second, a webhook retry) are closures over
 * the running simulator and cannot be written as JSON, so they are not exported, and an import drops
 * the tenant's pending ones rather than let them act on state that was replaced; the imported
 * payments objects get the jobs they wait for again (rearm-payment-jobs.ts).
 *
 * Import then export gives the same document (exportSnapshot's description) when the snapshot's clock is
 * frozen; an unfrozen one follows real time from the snapshot's instant, so its `now` moves on.
 */

import { RUNTIME_COLLECTION } from '../clock/tenant-clock.js';
import { FAULTS, type Fault, SCENARIOS, type ScenarioSwitch } from '../core/armed-switches.js';
import type { TenantRuntime } from '../core/tenant.js';
import { rearmPaymentJobs } from '../payments/rearm-payment-jobs.js';
import type { StoredRecord, TenantSnapshot } from '../store/store.js';

/**
 * The format this simulator exports; `ofkit-snapshot/1` and `/2`, from before the provider's values,
 * still import (snapshot-migration.ts).
 */
export const SNAPSHOT_FORMAT = 'ofkit-snapshot/3';

export interface SnapshotState {
  store: TenantSnapshot;
  scenarios: ScenarioSwitch[];
  faults: Fault[];
}

export interface Snapshot {
  format: typeof SNAPSHOT_FORMAT;
  clock: { now: string; frozen: boolean };
  state: SnapshotState;
}

/** An imported `state` (admin.yaml SnapshotState, validated by the pipeline); absent members mean empty. */
export function readState(state: Partial<SnapshotState> | undefined): SnapshotState {
  return {
    store: state?.store ?? { collections: {}, windows: {} },
    scenarios: state?.scenarios ?? [],
    faults: state?.faults ?? [],
  };
}

const yieldToOthers = () => new Promise<void>((resolve) => setImmediate(resolve));

/** Records serialized into one chunk of the export, between two yields to the event loop. */
const RECORDS_PER_CHUNK = 1000;

/** The tenant's snapshot as a value: the stored records themselves (records are values; do not change them). */
export async function snapshotOf(tenant: TenantRuntime): Promise<Snapshot> {
  const { now, frozen } = tenant.clock.state();
  // The armed faults and scenarios are in the store; the snapshot shows them on their own, as its
  // format says, and leaves out the clock's stored state (the snapshot's `clock` says it).
  const { collections, windows } = await tenant.store.exportTenant();
  const {
    [FAULTS]: faults = [],
    [SCENARIOS]: scenarios = [],
    [RUNTIME_COLLECTION]: _runtime,
    ...data
  } = collections;
  return {
    format: SNAPSHOT_FORMAT,
    clock: { now: new Date(now).toISOString(), frozen },
    state: {
      store: { collections: data, windows },
      scenarios: structuredClone(scenarios) as unknown as ScenarioSwitch[],
      faults: structuredClone(faults) as unknown as Fault[],
    },
  };
}

/**
 * `JSON.stringify(snapshot)` as chunks of RECORDS_PER_CHUNK records, yielding between two: a tenant of
 * a million records is ~530 MB, more than one string holds, and stringifying it whole blocked every
 * tenant for seconds. Undefined when it would exceed `limit` bytes.
 */
export async function serializeSnapshot(snapshot: Snapshot, limit: number): Promise<Buffer[] | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  const push = (text: string) => {
    const chunk = Buffer.from(text);
    size += chunk.length;
    chunks.push(chunk);
  };
  const { store, ...rest } = snapshot.state;
  const head = { format: snapshot.format, clock: snapshot.clock };
  push(`${JSON.stringify(head).slice(0, -1)},"state":{"store":{"collections":{`);
  for (const [index, [name, records]] of Object.entries(store.collections).entries()) {
    let text = `${index > 0 ? ',' : ''}${JSON.stringify(name)}:[`;
    for (let start = 0; start < records.length; start += RECORDS_PER_CHUNK) {
      const slice = records.slice(start, start + RECORDS_PER_CHUNK).map((record) => JSON.stringify(record));
      text += `${start > 0 ? ',' : ''}${slice.join(',')}`;
      push(text);
      text = '';
      if (size > limit) return undefined;
      await yieldToOthers();
    }
    push(`${text}]`);
  }
  push(`},"windows":${JSON.stringify(store.windows)}},${JSON.stringify(rest).slice(1)}}`);
  return size > limit ? undefined : chunks;
}

/**
 * Replaces the tenant's state in one step (the Store's importTenant replaces; nothing is cleared
 * first, so nothing is lost if a step before fails). The clock forgets its jobs (see above) and stands
 * at the snapshot's instant: frozen there, or following real time from there.
 */
export async function importSnapshot(
  tenant: TenantRuntime,
  clock: Snapshot['clock'],
  state: SnapshotState,
): Promise<void> {
  // The simulator's own state (the daily refresh's schedule) stays; faults and scenarios come in with
  // the records, in the same one-step import.
  const kept = await tenant.store.list(RUNTIME_COLLECTION);
  const armed = { [FAULTS]: state.faults, [SCENARIOS]: state.scenarios } as Record<string, unknown[]>;
  const collections: Record<string, StoredRecord[]> = { ...state.store.collections };
  for (const [name, items] of Object.entries({ ...armed, [RUNTIME_COLLECTION]: kept }))
    if (items.length > 0) collections[name] = structuredClone(items) as StoredRecord[];
  await tenant.store.importTenant({ ...state.store, collections });
  await tenant.clock.reset();
  // Frozen first: a frozen clock then stands exactly at the snapshot's instant.
  if (clock.frozen) await tenant.clock.freeze();
  await tenant.clock.setTo(Date.parse(clock.now));
  await rearmPaymentJobs(tenant);
}
