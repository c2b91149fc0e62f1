/**
 * The forward-compatibility storm's switch, per tenant: on by the simulator's default (`--storm`,
 * `createSimulator({ storm: true })`) or as the control API set it (`PUT /_ofkit/storm/`), kept in the
 * tenant's store so that every replica storms alike; a reset returns to the default. Storm answers and
 * deliveries carry STORM_HEADER, so that the document checks of ofkit's own test harnesses skip them (a
 * newer API version's answers need not match this version's document).
 */
import { type TenantRuntime, tenantSlot } from '../core/tenant.js';

/** The header of every storm answer and delivery, and its value. */
export const STORM_HEADER = 'x-ofkit-storm';
export const STORM_MARK = 'forward-compatibility';

/** Whether headers mark a storm answer or delivery (the test harnesses skip their document checks). */
export const isStormAnswer = (headers: Readonly<Record<string, string | undefined>>): boolean =>
  headers[STORM_HEADER] === STORM_MARK;

const STORM_COLLECTION = '_ofkit/storm';
const SETTING_ID = 'storm';

export interface StormSwitch {
  /** The simulator's default for a tenant that set nothing. */
  readonly byDefault: boolean;
  /** Whether the tenant's answers and deliveries storm now. */
  isOn(tenant: TenantRuntime): Promise<boolean>;
  /**
   * The same, told at once when the tenant's store is held by this process alone (the memory store);
   * undefined when only `isOn`'s read can tell (a store replicas share). Every API answer asks, and the
   * read's promises were a measurable part of the cheapest answer.
   */
  isOnNow(tenant: TenantRuntime): boolean | undefined;
}

/** Per tenant, the read that callers arriving before it starts share (every API answer asks). */
const PENDING_READ = tenantSlot('storm-read', (): { read?: Promise<boolean | undefined> } => ({}));

/** A stored setting's value, or undefined for none. */
const settingOf = (stored: Readonly<Record<string, unknown>> | undefined) =>
  typeof stored?.enabled === 'boolean' ? stored.enabled : undefined;

/** The tenant's own setting, or undefined when it set none (the default applies). */
export async function storedStorm(tenant: TenantRuntime): Promise<boolean | undefined> {
  return settingOf(await tenant.store.get(STORM_COLLECTION, SETTING_ID));
}

/** Sets the tenant's storm on or off; null forgets the setting (the default applies). */
export async function setStorm(tenant: TenantRuntime, enabled: boolean | null): Promise<void> {
  if (enabled === null) await tenant.store.delete(STORM_COLLECTION, SETTING_ID);
  else await tenant.store.put(STORM_COLLECTION, { id: SETTING_ID, enabled });
}

export function stormSwitch(byDefault: boolean): StormSwitch {
  return {
    byDefault,
    async isOn(tenant) {
      const pending = tenant.local(PENDING_READ);
      let read = pending.read;
      if (read === undefined) {
        read = Promise.resolve().then(() => {
          pending.read = undefined;
          return storedStorm(tenant);
        });
        pending.read = read;
      }
      return (await read) ?? byDefault;
    },
    isOnNow(tenant) {
      const { store } = tenant;
      if (store.peek === undefined) return undefined;
      return settingOf(store.peek(STORM_COLLECTION, SETTING_ID)) ?? byDefault;
    },
  };
}
