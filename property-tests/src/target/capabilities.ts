/**
 * What the target offers beyond the API, detected once before the rules run. A rule declares what it
 * needs; when the target lacks it the rule is reported skipped with the reason (issue 6).
 */
import type { HttpClient } from '../http/http-client.js';
import type { TargetConfig } from './target-config.js';

export type Capability = 'control-api' | 'second-key' | 'other-environment-key';

export interface Capabilities {
  /** The control API (openapi/admin.yaml): clock, scenarios, faults, reset, webhooks, events. */
  controlApi: boolean;
  secondKey: boolean;
  otherEnvironmentKey: boolean;
  /** How each capability was decided, for the report. */
  notes: Record<Capability, string>;
}

const CLOCK = '/_ofkit/clock/';

async function detectControlApi(client: HttpClient, config: TargetConfig): Promise<[boolean, string]> {
  if (config.controlApi === 'off') return [false, 'switched off by the config (controlApi: off)'];
  try {
    const answer = await client.session().request({ method: 'GET', url: CLOCK });
    const json = answer.contentType.includes('json') && answer.json !== undefined;
    if (answer.status === 200 && json) return [true, `GET ${CLOCK} answered 200 JSON`];
    return [false, `GET ${CLOCK} answered ${answer.status}${json ? '' : ' without JSON'}`];
  } catch (error) {
    return [false, `GET ${CLOCK} failed: ${(error as Error).message}`];
  }
}

export async function detectCapabilities(client: HttpClient, config: TargetConfig): Promise<Capabilities> {
  const [controlApi, controlNote] = await detectControlApi(client, config);
  const secondKey = config.keys.second !== null;
  const otherEnvironmentKey = config.keys.otherEnvironment !== null;
  return {
    controlApi,
    secondKey,
    otherEnvironmentKey,
    notes: {
      'control-api': controlNote,
      'second-key': secondKey ? 'keys.second is configured' : 'no keys.second in the config',
      'other-environment-key': otherEnvironmentKey
        ? 'keys.otherEnvironment is configured'
        : 'no keys.otherEnvironment in the config',
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
