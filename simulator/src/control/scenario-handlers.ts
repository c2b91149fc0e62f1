/**
 * Scenario switches (`/_ofkit/scenarios/`): the tenant's `scenarios`, which the handlers consult with
 * `takeScenario` (registration, credentials update, retrievals and their resumes: LINK-MFA-428; registration:
 * invalid credentials; daily refresh: LINK-INVALID-CREDENTIALS, LINK-TOKEN-REQUIRED).
 */

import { type ApiErrors, apiError } from '../core/api-error.js';
import {
  arm,
  disarm,
  disarmAll,
  listArmed,
  type ScenarioName,
  type ScenarioSwitch,
} from '../core/armed-switches.js';
import { LINKS } from '../core/collections.js';
import { type Handler, json, noContent } from '../core/handler.js';
import { err, ok, type Result } from '../core/result.js';
import type { TenantRuntime } from '../core/tenant.js';
import { institutionByName } from '../links/institutions/catalogue.js';
import { PAYMENT_INSTITUTIONS } from '../payments/payment-institutions.js';

interface ScenarioRequest {
  scenario: ScenarioName;
  institution?: string;
  link?: string;
  count?: number;
}

/** Institution scenarios take `institution`, link scenarios take `link` (ScenarioName's description). */
const TARGET_OF: Record<ScenarioName, 'institution' | 'link'> = {
  institution_requires_token: 'institution',
  institution_requires_another_token: 'institution',
  institution_refuses_credentials: 'institution',
  next_refresh_invalid_credentials: 'link',
  next_refresh_token_required: 'link',
  // PAY-CHARGE-RETRY: the payer's payment institution (id or name), or every one.
  next_charge_fails: 'institution',
};

/** Data institutions by name; payment institutions (for payment scenarios) by id or name. */
function knownInstitution(scenario: ScenarioName, institution: string): boolean {
  if (scenario !== 'next_charge_fails') return institutionByName(institution) !== undefined;
  return PAYMENT_INSTITUTIONS.some((entry) => entry.id === institution || entry.name === institution);
}

/**
 * Refuses a switch that could never apply: the other kind's target, an unknown institution, a link the
 * tenant does not have. Without a target the switch applies to every institution or link (takeScenario).
 */
async function checkTarget(tenant: TenantRuntime, body: ScenarioRequest): Promise<Result<true, ApiErrors>> {
  const wanted = TARGET_OF[body.scenario];
  const other = wanted === 'institution' ? 'link' : 'institution';
  if (body[other] !== undefined) {
    const message = `${body.scenario} applies to ${wanted === 'institution' ? 'an institution' : 'a link'}, not \`${other}\`.`;
    return err(apiError('invalid', { field: other, message }));
  }
  if (body.institution !== undefined && !knownInstitution(body.scenario, body.institution)) {
    const message = `Unknown institution ${body.institution}.`;
    return err(apiError('invalid', { field: 'institution', message }));
  }
  if (body.link !== undefined && !(await tenant.store.get(LINKS, body.link))) {
    return err(apiError('invalid', { field: 'link', message: `This tenant has no link ${body.link}.` }));
  }
  return ok(true);
}

const listScenarios: Handler = async ({ tenant }) => ok(json(200, await listArmed(tenant, 'scenarios')));

const addScenario: Handler = async ({ input, tenant }) => {
  const body = input.body as ScenarioRequest;
  const checked = await checkTarget(tenant, body);
  if (!checked.ok) return checked;
  const scenario: ScenarioSwitch = {
    id: tenant.ids.uuid(),
    scenario: body.scenario,
    institution: body.institution ?? null,
    link: body.link ?? null,
    // ScenarioRequest: an absent `count` means until cleared.
    remaining: body.count ?? null,
  };
  await arm(tenant, 'scenarios', scenario);
  return ok(json(201, { ...scenario }));
};

const clearScenarios: Handler = async ({ tenant }) => {
  await disarmAll(tenant, 'scenarios');
  return ok(noContent());
};

/** Switches one scenario off (the dashboard's per-switch button). */
const removeScenario: Handler = async ({ input, tenant }) => {
  const id = String(input.path.scenario_id);
  if (!(await disarm(tenant, 'scenarios', id)))
    return err(apiError('not_found', { message: `No scenario ${id}.` }));
  return ok(noContent());
};

export const scenarioHandlers: [string, Handler][] = [
  ['removeScenario', removeScenario],
  ['listScenarios', listScenarios],
  ['addScenario', addScenario],
  ['clearScenarios', clearScenarios],
];
