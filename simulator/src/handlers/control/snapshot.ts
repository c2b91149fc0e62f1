/**
 * The tenant's snapshot (admin.yaml `Snapshot`): `format`, the clock, and a `state` that admin.yaml leaves
 * opaque. Here `state` is `{store, scenarios, faults}`: the Store's export (records, including the
 * webhook configuration and event log kept under `_ofkit/` collections, and the rate-limit windows), the
 * scenario switches and the injected faults.
 *
 * Choice: scheduled clock jobs (an async deletion due in a second, a webhook retry) are closures over
 * the running simulator and cannot be written as JSON, so they are not exported, and an import drops
 * the tenant's pending ones rather than let them act on state that was replaced.
 *
 * Import then export gives the same document (exportSnapshot's description) when the snapshot's clock is
 * frozen; an unfrozen one follows real time from the snapshot's instant, so its `now` moves on.
 */
import type { ScenarioSwitch } from '../../institutions/scenario-switches.js';
import type { TenantSnapshot } from '../../store/store.js';
import type { Fault, TenantRuntime } from '../../tenants/tenant-runtime.js';

export const SNAPSHOT_FORMAT = 'ofkit-snapshot/1';

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

/** The tenant's snapshot; copies, so later changes to the tenant do not reach it. */
export async function exportSnapshot(tenant: TenantRuntime): Promise<Snapshot> {
  const { now, frozen } = tenant.clock.state();
  return {
    format: SNAPSHOT_FORMAT,
    clock: { now: new Date(now).toISOString(), frozen },
    state: {
      store: await tenant.store.exportTenant(tenant.id),
      scenarios: structuredClone(tenant.scenarios),
      faults: structuredClone(tenant.faults),
    },
  };
}

/**
 * Replaces the tenant's state. The clock forgets its jobs (see above) and stands at the snapshot's
 * instant: frozen there, or following real time from there.
 */
export async function importSnapshot(
  tenant: TenantRuntime,
  clock: Snapshot['clock'],
  state: SnapshotState,
): Promise<void> {
  // Clear first: the Store's contract does not say whether importTenant merges or replaces.
  await tenant.store.clearTenant(tenant.id);
  await tenant.store.importTenant(tenant.id, structuredClone(state.store));
  tenant.scenarios = structuredClone(state.scenarios);
  tenant.faults = structuredClone(state.faults);
  tenant.clock.reset();
  await tenant.clock.setTo(Date.parse(clock.now));
  if (clock.frozen) tenant.clock.freeze();
}
