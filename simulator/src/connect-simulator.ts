/**
 * Tests run under `ofkit exec` attach to exec's simulator explicitly: `connectSimulator()` reads the
 * address, key and control API exec puts in the command's environment, so that their requests reach the
 * simulator exec judges (`ofkit exec --judge`). `startSimulator({ attach: true })` does the same under
 * exec and starts a simulator of its own elsewhere.
 */
import type { ApiKey, Environment } from './core/keys.js';
import {
  type ClientJudgeReport,
  createSimulatorControl,
  type SimulatorControl,
} from './simulator-control.js';

/** A simulator a test talks to: one it started (`startSimulator`) or `ofkit exec`'s (`connectSimulator`). */
export interface SimulatorHandle {
  /** Base URL, e.g. `http://127.0.0.1:53127` (the API under `/api/`, `/payments/`...). */
  readonly url: string;
  /** The keys of the simulator's environment: `{ secretId, secretPassword, environment }`, one tenant each. */
  readonly keys: readonly ApiKey[];
  readonly environment: Environment;
  /** The control API (clock, reset, scenarios...), called as a tenant. */
  readonly control: SimulatorControl;
  /** The seed of ids and data (replays a run); undefined when exec's simulator does not say it. */
  readonly seed: string | undefined;
  /** The client judge's report on a tenant's client (default: the first key's), `GET /_ofkit/judge/`. */
  judge(options?: JudgeOptions): Promise<ClientJudgeReport>;
  /** Stops a simulator the test started; for `ofkit exec`'s, does nothing (exec stops it). */
  close(): Promise<void>;
}

export interface JudgeOptions {
  key?: ApiKey;
  /** `order-only` for clients whose timers are faked (retry waits judged on order and count alone). */
  timing?: 'real' | 'order-only';
}

/** `connectSimulator()` outside `ofkit exec`, or options exec's simulator cannot honour: one line. */
export class SimulatorAttachError extends Error {
  override name = 'SimulatorAttachError';
}

/** The variables `ofkit exec` sets for its command. */
export const EXEC_VARIABLES = {
  url: 'OFKIT_URL',
  key: 'OFKIT_KEY',
  secret: 'OFKIT_SECRET',
  control: 'OFKIT_CONTROL_URL',
  seed: 'OFKIT_SEED',
  environment: 'OFKIT_ENVIRONMENT',
} as const;

/**
 * The environment `ofkit exec` gives its command for a simulator (its address, first key, control API,
 * seed and environment): `ofkit golive` gives the same to the client's command in each situation.
 */
export function execEnvironment(started: SimulatorHandle & { seed: string }): Record<string, string> {
  const [key] = started.keys;
  return {
    [EXEC_VARIABLES.url]: started.url,
    [EXEC_VARIABLES.key]: key?.secretId ?? '',
    [EXEC_VARIABLES.secret]: key?.secretPassword ?? '',
    [EXEC_VARIABLES.control]: started.control.url,
    [EXEC_VARIABLES.seed]: started.seed,
    [EXEC_VARIABLES.environment]: started.environment,
  };
}

/** `judge(options)` of the simulator whose control API is `control`. */
export const judgeThrough =
  (control: SimulatorControl) =>
  ({ key, timing = 'real' }: JudgeOptions = {}): Promise<ClientJudgeReport> =>
    control.request('GET', timing === 'real' ? 'judge/' : `judge/?timing=${timing}`, undefined, key);

/**
 * `ofkit exec`'s simulator, from the command's environment (`OFKIT_URL`, `OFKIT_KEY`, `OFKIT_SECRET`,
 * `OFKIT_CONTROL_URL`, `OFKIT_SEED`, `OFKIT_ENVIRONMENT`). Throws SimulatorAttachError, one line, when
 * they are missing (the tests do not run under `ofkit exec`).
 */
export async function connectSimulator(env: NodeJS.ProcessEnv = process.env): Promise<SimulatorHandle> {
  const url = env[EXEC_VARIABLES.url];
  const secretId = env[EXEC_VARIABLES.key];
  const secretPassword = env[EXEC_VARIABLES.secret];
  if (!url || !secretId || !secretPassword)
    throw new SimulatorAttachError(
      'connectSimulator(): OFKIT_URL, OFKIT_KEY and OFKIT_SECRET are not all set: run the tests under `npx ofkit exec -- <command>`, or start a simulator of their own with startSimulator()',
    );
  const environment = env[EXEC_VARIABLES.environment] === 'sandbox' ? 'sandbox' : 'production';
  const keys = Object.freeze([{ secretId, secretPassword, environment } as const]);
  const control = createSimulatorControl(url, keys, env[EXEC_VARIABLES.control] || undefined);
  return {
    url,
    keys,
    environment,
    control,
    seed: env[EXEC_VARIABLES.seed] || undefined,
    judge: judgeThrough(control),
    close: async () => {},
  };
}
