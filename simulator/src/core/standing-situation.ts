/**
 * A situation that stands for a whole run (`ofkit golive`, `ofkit/golive`): faults, scenario switches and
 * a clock script, armed on every tenant of the simulator's keys at start and again after every reset
 * (`POST /_ofkit/reset/` forgets what is armed and lets the clock follow real time). A client whose tests
 * reset the simulator between their cases meets the situation in every case, not only in the first.
 * Configuration of the simulator (given when it is created), kept with each tenant in this process.
 */
import { arm, type Fault, type ScenarioName } from './armed-switches.js';
import { type TenantRuntime, tenantSlot } from './tenant.js';

/** One step of the clock script, in order: stop the clock, or move it forward (running what falls due). */
export type ClockStep = { readonly freeze: true } | { readonly advance_seconds: number };

export interface StandingSituation {
  /** The next `count` requests of `operation_id` answer `status` (400: Too Many Sessions). */
  readonly faults: readonly {
    readonly operation_id: string;
    readonly status: Fault['status'];
    readonly count: number;
  }[];
  /** Scenario switches on every institution and link; `count` null: until cleared. */
  readonly scenarios: readonly { readonly scenario: ScenarioName; readonly count: number | null }[];
  readonly clock: readonly ClockStep[];
}

const STANDING = tenantSlot('standing situation', (): { situation: StandingSituation | null } => ({
  situation: null,
}));

/** Arms the tenant's standing situation, if it has one: at start, and after each reset. */
export async function armStanding(tenant: TenantRuntime): Promise<void> {
  const { situation } = tenant.local(STANDING);
  if (situation === null) return;
  for (const fault of situation.faults)
    await arm(tenant, 'faults', { id: tenant.ids.uuid(), ...fault, remaining: fault.count });
  for (const { scenario, count } of situation.scenarios)
    await arm(tenant, 'scenarios', {
      id: tenant.ids.uuid(),
      scenario,
      institution: null,
      link: null,
      remaining: count,
    });
  for (const step of situation.clock) {
    if ('freeze' in step) await tenant.clock.freeze();
    else await tenant.clock.advance(step.advance_seconds * 1000);
  }
}

/** Makes `situation` the tenant's standing one and arms it. */
export async function standOn(tenant: TenantRuntime, situation: StandingSituation): Promise<void> {
  tenant.local(STANDING).situation = situation;
  await armStanding(tenant);
}
