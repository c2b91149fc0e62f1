/**
 * What one tenant (one API key) owns besides its stored records: its clock, its id and data streams,
 * its scenario switches and injected faults. Each tenant's are independent (DESIGN.md).
 */
import { VirtualClock } from '../clock/virtual-clock.js';
import { createIds, createRandom, type Ids, type Random } from '../ids/seeded-ids.js';
import type { ScenarioSwitch } from '../institutions/scenario-switches.js';
import type { Environment } from '../pipeline/authenticate.js';
import type { Store } from '../store/store.js';
import type { RaisedEvent, RaiseEvent } from '../webhooks/raised-event.js';

export interface Fault {
  id: string;
  operation_id: string;
  status: 408 | 500;
  remaining: number;
}

export interface TenantRuntime {
  id: string;
  environment: Environment;
  clock: VirtualClock;
  ids: Ids;
  random: Random;
  store: Store;
  faults: Fault[];
  scenarios: ScenarioSwitch[];
  /** Rule IDs this simulator breaks on purpose, to prove the conformance suite catches it (DESIGN.md). */
  brokenRules: ReadonlySet<string>;
  /** Raises an event of the catalogue; the webhook emitter delivers it. */
  emit: RaiseEvent;
}

export interface TenantRegistryOptions {
  seed: string;
  store: Store;
  environment: Environment;
  realTime: () => number;
  brokenRules?: ReadonlySet<string>;
  /** The tenant's event emitter; by default events are only kept in memory (`raisedEvents`). */
  emitterFor?: (tenant: TenantRuntime) => RaiseEvent;
}

/** The default emitter: keeps what handlers raise, for tests that read it. */
export const raisedEvents = new WeakMap<TenantRuntime, RaisedEvent[]>();
function recordingEmitter(tenant: TenantRuntime): RaiseEvent {
  const events: RaisedEvent[] = [];
  raisedEvents.set(tenant, events);
  return (event) => {
    events.push(event);
  };
}

/** Creates each tenant's runtime on first use, its streams derived from the seed and the tenant id. */
export function createTenantRegistry(options: TenantRegistryOptions): (tenantId: string) => TenantRuntime {
  const runtimes = new Map<string, TenantRuntime>();
  return (tenantId) => {
    const existing = runtimes.get(tenantId);
    if (existing) return existing;
    const random = createRandom(`${options.seed}/${tenantId}`);
    const runtime: TenantRuntime = {
      id: tenantId,
      environment: options.environment,
      clock: new VirtualClock(options.realTime),
      ids: createIds(createRandom(`${options.seed}/${tenantId}/ids`)),
      random,
      store: options.store,
      faults: [],
      scenarios: [],
      brokenRules: options.brokenRules ?? new Set(),
      emit: () => undefined,
    };
    runtime.emit = (options.emitterFor ?? recordingEmitter)(runtime);
    runtimes.set(tenantId, runtime);
    return runtime;
  };
}
