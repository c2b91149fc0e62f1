/**
 * Scenario switches of the control API (`/_ofkit/scenarios/`): the same effects as the scenario
 * triggers, switched on for an institution or a link, for a number of uses or until cleared.
 */
import type { TenantRuntime } from '../tenants/tenant-runtime.js';

export type ScenarioName =
  | 'institution_requires_token'
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

/**
 * True when a switch of `scenario` applies to the institution or link, using it up once (a switch
 * without an institution or link applies to every one).
 */
export function takeScenario(
  tenant: TenantRuntime,
  scenario: ScenarioName,
  target: { institution?: string; link?: string },
): boolean {
  const found = tenant.scenarios.find(
    (s) =>
      s.scenario === scenario &&
      (s.institution === null || s.institution === target.institution) &&
      (s.link === null || s.link === target.link),
  );
  if (!found) return false;
  if (found.remaining !== null) {
    found.remaining -= 1;
    if (found.remaining <= 0) tenant.scenarios = tenant.scenarios.filter((s) => s !== found);
  }
  return true;
}
