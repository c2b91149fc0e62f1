/**
 * What one tenant (one API key) owns: its stored state, its clock, its id and data streams, and the
 * events it raises. Each tenant's are independent; behaviour code receives it as `tenant`.
 */
import type { TenantClock } from '../clock/tenant-clock.js';
import type { Ids, Random } from '../ids/seeded-ids.js';
import type { RaiseEvent } from './events.js';
import type { Environment } from './keys.js';
import type { RulePolicy } from './rule-policy.js';
import type { TenantStore } from './tenant-store.js';

export interface TenantRuntime {
  id: string;
  environment: Environment;
  clock: TenantClock;
  ids: Ids;
  random: Random;
  /** The tenant's state: the Store with this tenant given (AUTH-TENANT). */
  store: TenantStore;
  /** The numbers and choices behind the rules (the specification's, unless a rule is broken on purpose). */
  policy: RulePolicy;
  /** Raises an event of the catalogue; the webhook emitter delivers it. */
  emit: RaiseEvent;
  /**
   * The tenant's value of a slot: state a part keeps for this tenant in this process (work in flight,
   * schedules), never what a client can see (that is the store's). Made on first use, kept with the
   * tenant, so it goes when the tenant goes.
   */
  local<T>(slot: TenantSlot<T>): T;
}

/** A kind of per-tenant state a part keeps in this process; `create` makes a tenant's first value. */
export interface TenantSlot<T> {
  readonly name: string;
  readonly create: () => T;
}

/** Declares a slot: a part keeps its per-tenant state in one, never in a module-level map. */
export const tenantSlot = <T>(name: string, create: () => T): TenantSlot<T> =>
  Object.freeze({ name, create });
