/** The tenant's whole state (`/_ofkit/reset/`, `/_ofkit/snapshot/`): forget it, export it, replace it. */
import type { JsonObject } from '../../../openapi/document/json.js';
import { RUNTIME_COLLECTION } from '../clock/tenant-clock.js';
import { apiError } from '../core/api-error.js';
import { type Handler, json, noContent } from '../core/handler.js';
import { err, ok } from '../core/result.js';
import { armStanding } from '../core/standing-situation.js';
import type { TenantRuntime } from '../core/tenant.js';
import { createIds, createRandom } from '../ids/seeded-ids.js';
import type { TenantSnapshot } from '../store/store.js';
import { WEBHOOKS_COLLECTION } from '../webhooks/webhook-config.js';
import { outsideBounds } from './clock-handlers.js';
import {
  importSnapshot,
  readState,
  type Snapshot,
  type SnapshotState,
  serializeSnapshot,
  snapshotOf,
} from './snapshot.js';
import { type CollectionSchemas, checkSnapshot, collectionSchemas } from './snapshot-check.js';
import { SNAPSHOT_MAX_BYTES } from './snapshot-limits.js';
import { migrateSnapshot } from './snapshot-migration.js';

/**
 * Store collections a reset keeps: resetTenant's description in admin.yaml says "webhook configuration
 * is kept", while records, events (`_ofkit/events`) and rate-limit windows go. The simulator's runtime
 * state stays too: the daily refresh's schedule goes with the webhook configuration (WEBHOOK-DAILY is
 * armed again after the reset), and the clock's state is reset on its own.
 */
export const KEPT_ON_RESET: readonly string[] = [WEBHOOKS_COLLECTION, RUNTIME_COLLECTION];

async function clearStore(tenant: TenantRuntime): Promise<void> {
  // Read only what is kept (not exportTenant: a tenant may hold a million records).
  const kept: TenantSnapshot = { collections: {}, windows: {} };
  for (const name of KEPT_ON_RESET) {
    const records = await tenant.store.list(name);
    if (records.length > 0) kept.collections[name] = records;
  }
  // clearTenant forgets the records and the rate-limit windows (DELETE-RATE-LIMIT) together.
  await tenant.store.clearTenant();
  if (Object.keys(kept.collections).length > 0) await tenant.store.importTenant(kept);
}

const resetTenant: Handler = async ({ tenant }) => {
  await clearStore(tenant);
  // clearTenant forgot the armed faults and scenarios (they are in the store). Forgets the scheduled jobs;
  // the clock follows real time again (resetTenant's description).
  await tenant.clock.reset();
  // A situation that stands for the whole run is armed again (SimulatorOptions.standing).
  await armStanding(tenant);
  return ok(noContent());
};

const exportSnapshotHandler: Handler = async ({ tenant }) => {
  const snapshot = await snapshotOf(tenant);
  const chunks = await serializeSnapshot(snapshot, SNAPSHOT_MAX_BYTES);
  if (chunks === undefined) {
    const message = `The tenant's snapshot exceeds ${SNAPSHOT_MAX_BYTES} bytes, the snapshot limit (README "Limits"); it could not be imported back.`;
    return err(apiError('invalid', { message }));
  }
  // The adapter writes the chunks; in-process callers read `body`.
  return ok({ ...json(200, snapshot), chunks, serialize: () => Buffer.concat(chunks) });
};

/** Checks the whole snapshot first (checkSnapshot), then swaps it in: a refused import changes nothing. */
const importSnapshotHandler =
  (schemas: CollectionSchemas): Handler =>
  async ({ input, tenant }) => {
    // The pipeline validated the whole body against admin.yaml's Snapshot (SnapshotState included).
    const body = input.body as Omit<Snapshot, 'state' | 'format'> & {
      format: string;
      state?: Partial<SnapshotState>;
    };
    const outside = outsideBounds(Date.parse(body.clock.now));
    if (outside) return err(apiError('invalid', { field: 'clock.now', message: `clock.now ${outside}` }));
    // An older format's records are said again in the provider's words first, then checked.
    const migrated = migrateSnapshot(body.format, readState(body.state), tenant.id);
    if (!migrated.ok) return migrated;
    const state = migrated.value;
    const [first, ...rest] = await checkSnapshot(state, schemas);
    if (first) return err([first, ...rest]);
    await importSnapshot(tenant, body.clock, state);
    // New ids come from a stream derived from the current one, so that a snapshot imported into a fresh
    // simulator with the same seed cannot meet its own ids again (a new link replacing an imported one).
    tenant.ids = createIds(createRandom(`${tenant.ids.hex(32)}/imported`));
    return ok(noContent());
  };

/** `api`: the bundled API document, whose schemas the imported records must meet. */
export function stateHandlers(api: JsonObject): [string, Handler][] {
  return [
    ['resetTenant', resetTenant],
    ['exportSnapshot', exportSnapshotHandler],
    ['importSnapshot', importSnapshotHandler(collectionSchemas(api))],
  ];
}
