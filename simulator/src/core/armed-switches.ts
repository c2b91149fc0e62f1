/**
 * What the control API arms for a tenant, kept in its store so that one replica arms and any replica
 * answers: faults (ERR-500-408, CLIENT-TOO-MANY-SESSIONS) and scenario switches. Each is used up by the
 * store's atomic `consume`: a fault armed for N requests fails exactly N, however many replicas serve.
 */
import type { StoredRecord } from '../store/store.js';
import { type TenantRuntime, tenantSlot } from './tenant.js';

export const FAULTS = '_faults';
export const SCENARIOS = '_scenarios';

export interface Fault {
  id: string;
  operation_id: string;
  /** 400 is the Too Many Sessions error (CLIENT-TOO-MANY-SESSIONS). */
  status: 400 | 408 | 500;
  remaining: number;
}

export type ScenarioName =
  | 'institution_requires_token'
  | 'institution_requires_another_token'
  | 'institution_refuses_credentials'
  | 'next_refresh_invalid_credentials'
  | 'next_refresh_token_required'
  | 'next_charge_fails';

export interface ScenarioSwitch {
  id: string;
  scenario: ScenarioName;
  institution: string | null;
  link: string | null;
  /** Uses left; null means until cleared. */
  remaining: number | null;
}

type Armed = { faults: Fault; scenarios: ScenarioSwitch };
const COLLECTION = { faults: FAULTS, scenarios: SCENARIOS } as const;

export async function listArmed<K extends keyof Armed>(tenant: TenantRuntime, kind: K): Promise<Armed[K][]> {
  return (await tenant.store.list(COLLECTION[kind])) as unknown as Armed[K][];
}

export async function arm<K extends keyof Armed>(
  tenant: TenantRuntime,
  kind: K,
  item: Armed[K],
): Promise<void> {
  await tenant.store.put(COLLECTION[kind], item as unknown as StoredRecord);
}

export function disarm(tenant: TenantRuntime, kind: keyof Armed, id: string): Promise<boolean> {
  return tenant.store.delete(COLLECTION[kind], id);
}

export async function disarmAll(tenant: TenantRuntime, kind: keyof Armed): Promise<void> {
  for (const item of await tenant.store.list(COLLECTION[kind]))
    await tenant.store.delete(COLLECTION[kind], item.id);
}

/** Per tenant and kind, the list read that callers arriving before it starts share (sharedArmed). */
const PENDING_READS = tenantSlot('armed-reads', (): Partial<Record<keyof Armed, Promise<unknown[]>>> => ({}));

/**
 * The armed items as a read that starts after the callers sharing it came: a read queued and not yet
 * started serves every caller that arrives before it starts, so it sees everything armed before any of
 * them came. Every request of a tenant asks for its faults: the concurrent ones (all those that waited
 * for the same run of due jobs) make one store round trip instead of one each. The list is shared:
 * callers only read it (the store's lists are shared the same way).
 */
function sharedArmed<K extends keyof Armed>(tenant: TenantRuntime, kind: K): Promise<Armed[K][]> {
  const pending = tenant.local(PENDING_READS);
  const queued = pending[kind];
  if (queued !== undefined) return queued as Promise<Armed[K][]>;
  const read = Promise.resolve().then(() => {
    delete pending[kind];
    return listArmed(tenant, kind);
  });
  pending[kind] = read;
  return read;
}

/**
 * Uses up one of the first armed item that `matches`; when another replica used the last use of a
 * candidate between the list and the consume, the next candidate is tried. Only the consume decides:
 * the list only names the candidates.
 */
export async function useFirst<K extends keyof Armed>(
  tenant: TenantRuntime,
  kind: K,
  matches: (item: Armed[K]) => boolean,
): Promise<Armed[K] | undefined> {
  for (const item of await sharedArmed(tenant, kind)) {
    if (!matches(item)) continue;
    const used = await tenant.store.consume(COLLECTION[kind], item.id);
    if (used) return used as unknown as Armed[K];
  }
  return undefined;
}

/**
 * True when a switch of `scenario` applies to the institution or link, using it up once (a switch
 * without an institution or link applies to every one): the scenario switches of the control API
 * (`/_ofkit/scenarios/`), the same effects as the scenario triggers.
 */
export async function takeScenario(
  tenant: TenantRuntime,
  scenario: ScenarioName,
  target: { institution?: string; link?: string },
): Promise<boolean> {
  const used = await useFirst(
    tenant,
    'scenarios',
    (s) =>
      s.scenario === scenario &&
      (s.institution === null || s.institution === target.institution) &&
      (s.link === null || s.link === target.link),
  );
  return used !== undefined;
}
