/**
 * What one tenant (one API key) owns besides its stored records: its clock, its id and data streams,
 * its scenario switches and injected faults. Each tenant's are independent (DESIGN.md).
 */
import type { BrokenRules } from '../broken-rules/breakable-rules.js';
import { sharedAccountStore } from '../broken-rules/shared-account-store.js';
import { VirtualClock } from '../clock/virtual-clock.js';
import { createIds, createRandom, type Ids, type Random } from '../ids/seeded-ids.js';
import type { ScenarioSwitch } from '../institutions/scenario-switches.js';
import type { Environment } from '../pipeline/authenticate.js';
import type { Store } from '../store/store.js';
import type { RaiseEvent } from '../webhooks/raised-event.js';

export interface Fault {
  id: string;
  operation_id: string;
  /** 400 is the Too Many Sessions error (CLIENT-TOO-MANY-SESSIONS). */
  status: 400 | 408 | 500;
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
  brokenRules: BrokenRules;
  /** Raises an event of the catalogue; the webhook emitter delivers it. */
  emit: RaiseEvent;
}

/**
 * The tenant's clock: a VirtualClock that tells its listeners when a reset forgot its jobs, so that
 * recurring jobs (the daily refresh, WEBHOOK-DAILY) can schedule themselves again. They hear of it
 * when the clock next runs jobs, with the instant it runs them up to: after a snapshot import (reset,
 * then set), the snapshot's time, so that no job of the days in between runs.
 */
export class TenantClock extends VirtualClock {
  private readonly resetListeners: ((from: number) => void)[] = [];
  private resetPending = false;

  onReset(listener: (from: number) => void): void {
    this.resetListeners.push(listener);
  }

  override reset(): void {
    super.reset();
    this.resetPending = true;
  }

  protected override beforeRun(until: number): void {
    if (this.resetPending) {
      this.resetPending = false;
      for (const listener of this.resetListeners) listener(until);
    }
  }
}

export interface TenantRegistryOptions {
  seed: string;
  store: Store;
  environment: Environment;
  realTime: () => number;
  brokenRules?: BrokenRules;
  /** The tenant's event emitter (the webhook emitter); without one, raised events go nowhere. */
  emitterFor?: (tenant: TenantRuntime) => RaiseEvent;
}

/** The tenants by id, created on first use; `all()` lists those created so far (the clock ticker's). */
export interface TenantRegistry {
  (tenantId: string): TenantRuntime;
  all(): TenantRuntime[];
}

/** Creates each tenant's runtime on first use, its streams derived from the seed and the tenant id. */
export function createTenantRegistry(options: TenantRegistryOptions): TenantRegistry {
  const runtimes = new Map<string, TenantRuntime>();
  const brokenRules = options.brokenRules ?? new Set();
  // brokenRules AUTH-TENANT: the store's queries lose the API key.
  const store = brokenRules.has('AUTH-TENANT') ? sharedAccountStore(options.store) : options.store;
  const tenantFor = (tenantId: string): TenantRuntime => {
    const existing = runtimes.get(tenantId);
    if (existing) return existing;
    const random = createRandom(`${options.seed}/${tenantId}`);
    const runtime: TenantRuntime = {
      id: tenantId,
      environment: options.environment,
      clock: new TenantClock(options.realTime),
      ids: createIds(createRandom(`${options.seed}/${tenantId}/ids`)),
      random,
      store,
      faults: [],
      scenarios: [],
      brokenRules,
      emit: () => undefined,
    };
    const emit = options.emitterFor?.(runtime);
    if (emit) runtime.emit = emit;
    runtimes.set(tenantId, runtime);
    return runtime;
  };
  return Object.assign(tenantFor, { all: () => [...runtimes.values()] });
}
