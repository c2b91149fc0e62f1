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
import type { ErrorObject, ValidateFunction } from 'ajv/dist/2020.js';
import { createDocumentAjv, type JsonObject } from '../../../../openapi/validation/document-ajv.js';
import { err, ok, type Result } from '../../core/result.js';
import { type ApiError, type ApiErrors, apiError } from '../../errors/api-error.js';
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

const count = { type: 'integer', minimum: 1 };
const nullable = (type: string) => ({ type: [type, 'null'] });

/** What admin.yaml does not say about `state`: checked here so a bad import is a 400, not a broken tenant. */
const STATE_SCHEMA: JsonObject = {
  type: 'object',
  additionalProperties: false,
  properties: {
    store: {
      type: 'object',
      additionalProperties: false,
      required: ['collections', 'windows'],
      properties: {
        collections: {
          type: 'object',
          additionalProperties: {
            type: 'array',
            items: { type: 'object', required: ['id'], properties: { id: { type: 'string' } } },
          },
        },
        windows: { type: 'object', additionalProperties: { type: 'array', items: { type: 'number' } } },
      },
    },
    scenarios: {
      type: 'array',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['id', 'scenario', 'institution', 'link', 'remaining'],
        properties: {
          id: { type: 'string' },
          scenario: {
            enum: [
              'institution_requires_token',
              'institution_refuses_credentials',
              'next_refresh_invalid_credentials',
              'next_refresh_token_required',
            ],
          },
          institution: nullable('string'),
          link: nullable('string'),
          remaining: { ...count, type: ['integer', 'null'] },
        },
      },
    },
    faults: {
      type: 'array',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['id', 'operation_id', 'status', 'remaining'],
        properties: {
          id: { type: 'string' },
          operation_id: { type: 'string' },
          status: { enum: [408, 500] },
          remaining: count,
        },
      },
    },
  },
};

let checkStateSchema: ValidateFunction | undefined;

function toApiError(error: ErrorObject): ApiError {
  const path = ['state', ...error.instancePath.split('/').filter(Boolean)];
  if (error.keyword === 'required') {
    const field = [...path, String(error.params.missingProperty)].join('.');
    return { code: 'required', field, message: `The body field \`${field}\` is required.` };
  }
  if (error.keyword === 'additionalProperties') {
    const field = [...path, String(error.params.additionalProperty)].join('.');
    return { code: 'unknown_field', field, message: `The body field \`${field}\` is not accepted.` };
  }
  const field = path.join('.');
  return {
    code: 'invalid',
    field,
    message: `The body field \`${field}\` ${error.message ?? 'is not valid'}.`,
  };
}

/** Checks an imported `state` (every violation, with its field); absent members mean empty. */
export function readState(state: unknown): Result<SnapshotState, ApiErrors> {
  checkStateSchema ??= createDocumentAjv({}).compile(STATE_SCHEMA);
  if (!checkStateSchema(state)) {
    const [first, ...rest] = (checkStateSchema.errors ?? []).map(toApiError);
    return err(first ? [first, ...rest] : apiError('invalid', { field: 'state' }));
  }
  const given = state as Partial<SnapshotState>;
  return ok({
    store: given.store ?? { collections: {}, windows: {} },
    scenarios: given.scenarios ?? [],
    faults: given.faults ?? [],
  });
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
