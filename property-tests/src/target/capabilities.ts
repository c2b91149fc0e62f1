/**
 * What the target offers beyond the API, detected once before the rules run. A rule declares what it
 * needs; when the target lacks it the rule is reported skipped with the reason.
 */
import type { ValidateFunction } from 'ajv';
import { readBundledDocument } from '../../../openapi/document/bundled-documents.js';
import { createDocumentAjv, describeErrors } from '../../../openapi/document/document-ajv.js';
import { isObject } from '../../../openapi/document/json.js';
import type { HttpClient } from '../http/http-client.js';
import { detectEnvironment } from './environment.js';
import type { Environment, TargetConfig } from './target-types.js';

export type Capability = 'control-api' | 'second-key' | 'other-environment-key';

export interface Capabilities {
  /** The control API (openapi/admin.yaml): clock, scenarios, faults, reset, webhooks, events. */
  controlApi: boolean;
  secondKey: boolean;
  otherEnvironmentKey: boolean;
  /** The target's environment: configured, or named by GET /api/. */
  environment: Environment;
  /**
   * The control API is there but the tenant holds state this run did not create (tenancy.ts): left
   * alone, so `controlApi` is false and the rules that need it are inconclusive, not skipped.
   */
  sharedTenant?: true;
  /** How each capability (and the environment) was decided, for the report. */
  notes: Record<Capability | 'environment', string>;
}

const CLOCK = '/_ofkit/clock/';
let clockSchema: ValidateFunction | undefined;

/** admin.yaml's `Clock` (`{now, frozen, jobs_run?}`, no other member), compiled once. */
function validateClock(): ValidateFunction {
  if (!clockSchema) {
    // The control API's document: its Clock schema is the answer only the control API gives.
    const admin = readBundledDocument('admin');
    const components = isObject(admin.components) ? admin.components : {};
    const schemas = isObject(components.schemas) ? components.schemas : {};
    // Not checked against the meta-schema again here: the control API's document is the package's own,
    // and its tests compile it with that check on.
    clockSchema = createDocumentAjv(admin, { checkSchemas: false }).compile(schemas.Clock ?? false);
  }
  return clockSchema;
}

/**
 * The control API is there when GET /_ofkit/clock/ answers 200 with a body valid against admin.yaml's
 * Clock: a server that answers `200 {}` to everything is no control API.
 */
async function detectControlApi(client: HttpClient, config: TargetConfig): Promise<[boolean, string]> {
  if (config.controlApi === 'off') return [false, 'switched off by the config (controlApi: off)'];
  try {
    const answer = await client.session().request({ method: 'GET', url: CLOCK });
    const json = answer.contentType.includes('json') && answer.json !== undefined;
    if (answer.status !== 200 || !json) {
      return [false, `GET ${CLOCK} answered ${answer.status}${json ? '' : ' without JSON'}`];
    }
    const validate = validateClock();
    if (validate(answer.json)) return [true, `GET ${CLOCK} answered 200 with a control API Clock`];
    const problems = describeErrors(validate).slice(0, 3).join('; ');
    return [false, `GET ${CLOCK} answered 200, but not the control API's Clock (admin.yaml): ${problems}`];
  } catch (error) {
    return [false, `GET ${CLOCK} failed: ${(error as Error).message}`];
  }
}

export async function detectCapabilities(client: HttpClient, config: TargetConfig): Promise<Capabilities> {
  const [controlApi, controlNote] = await detectControlApi(client, config);
  const environment = await detectEnvironment(client, config.environment);
  const secondKey = config.keys.second !== null;
  const otherEnvironmentKey = config.keys.otherEnvironment !== null;
  return {
    controlApi,
    secondKey,
    otherEnvironmentKey,
    environment: environment.environment,
    notes: {
      environment: environment.note,
      'control-api': controlNote,
      'second-key': secondKey ? 'keys.second is configured' : 'no keys.second in the config',
      'other-environment-key': otherEnvironmentKey
        ? 'keys.otherEnvironment is configured'
        : 'no keys.otherEnvironment in the config',
    },
  };
}

/**
 * The capabilities once the tenant is claimed: a tenant the run does not own keeps its control API to
 * itself (controlApi false, the note says why).
 */
export function withTenancy(
  capabilities: Capabilities,
  tenancy: { owned: boolean; note: string },
): Capabilities {
  if (!capabilities.controlApi || tenancy.owned) return capabilities;
  return {
    ...capabilities,
    controlApi: false,
    sharedTenant: true,
    notes: {
      ...capabilities.notes,
      'control-api':
        'present, but left alone: the tenant holds state this run did not create (--reset resets it first)',
    },
  };
}

/** The reason a rule needing `capability` cannot run, or undefined when the target has it. */
export function missingCapability(capabilities: Capabilities, capability: Capability): string | undefined {
  const present = {
    'control-api': capabilities.controlApi,
    'second-key': capabilities.secondKey,
    'other-environment-key': capabilities.otherEnvironmentKey,
  }[capability];
  return present ? undefined : `needs ${capability}: ${capabilities.notes[capability]}`;
}
