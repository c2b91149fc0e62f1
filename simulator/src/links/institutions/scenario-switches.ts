/**
 * Scenario switches of the control API (`/_ofkit/scenarios/`): the same effects as the scenario
 * triggers, switched on for an institution or a link, for a number of uses or until cleared.
 */
import { type ScenarioName, useFirst } from '../../core/armed-switches.js';
import type { TenantRuntime } from '../../core/tenant.js';

export type { ScenarioName, ScenarioSwitch } from '../../core/armed-switches.js';

/**
 * True when a switch of `scenario` applies to the institution or link, using it up once (a switch
 * without an institution or link applies to every one).
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
