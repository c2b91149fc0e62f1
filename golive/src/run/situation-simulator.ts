/**
 * A fresh simulator set up as one situation says (seed, environment, the faults, scenario switches and
 * clock script standing across resets, the judge's webhook probes), on 127.0.0.1 and a free port. While
 * the client runs against it, it keeps what the evidence needs: the request ids of the error answers (to
 * find them in the client's output) and the first exchanges (to teach the redaction their values). Once
 * the client is done, the first key's log is judged through the judge's door.
 */
import {
  execEnvironment,
  type SimRequest,
  type SimResponse,
  type StartedSimulator,
  startSimulator,
} from '../../../simulator/src/index.js';
import type { ObservedDelivery } from '../../../simulator/src/judge/judge.js';
import {
  type JudgeReport,
  judge,
  type ObservedRequest,
  type Timing,
} from '../../../simulator/src/judge/judge.js';
import type { SituationConfig } from '../catalogue/catalogue-types.js';

/** Exchanges kept for the redaction to learn from: enough for a client's flow, bounded for a long one. */
const KEPT_EXCHANGES = 400;
/** Request ids of error answers kept per situation. */
const KEPT_ERROR_IDS = 1000;

/** One API exchange as the simulator answered it (the response's body as it went out). */
export interface SeenExchange {
  readonly request: SimRequest;
  readonly response: SimResponse;
}

export interface JudgedSituation {
  readonly report: JudgeReport;
  readonly requests: readonly ObservedRequest[];
  readonly deliveries: readonly ObservedDelivery[];
  /** The `request_id` of every error answer of the API, in order. */
  readonly errorRequestIds: readonly string[];
  readonly exchanges: readonly SeenExchange[];
  /** The first key the client was given (what its output may show). */
  readonly key: { readonly id: string; readonly secret: string };
}

export interface SituationSimulator {
  readonly started: StartedSimulator;
  /** What the client's command finds in its environment: `ofkit exec`'s variables. */
  readonly environment: Record<string, string>;
  /**
   * Waits for the deliveries in flight, judges the first key's client (with `clientOutput`, what it
   * printed and logged, where CLIENT-REQUEST-IDS-LOGGED looks for request ids), and stops the simulator.
   */
  finish(timing: Timing, clientOutput?: string): Promise<JudgedSituation>;
}

const isApi = (request: SimRequest) => !request.path.startsWith('/_ofkit/');

function errorRequestId(response: SimResponse): string | undefined {
  if (response.status < 400 || !Array.isArray(response.body)) return undefined;
  const id = (response.body[0] as { request_id?: unknown } | undefined)?.request_id;
  return typeof id === 'string' ? id : undefined;
}

/** Starts the situation's simulator; `finish` judges and stops it. */
export async function startSituationSimulator(config: SituationConfig): Promise<SituationSimulator> {
  const errorRequestIds: string[] = [];
  const exchanges: SeenExchange[] = [];
  const started = await startSimulator({
    seed: config.seed,
    environment: config.environment,
    standing: {
      faults: config.faults.map(({ operation, status, count }) => ({
        operation_id: operation,
        status,
        count,
      })),
      // The catalogue's test keeps every scenario name one the simulator knows.
      scenarios: config.scenarios as never,
      clock: config.clock,
    },
    judgeProbes: config.webhooks,
    storm: config.storm === true,
    onExchange: (request, response) => {
      if (!isApi(request)) return;
      if (exchanges.length < KEPT_EXCHANGES) exchanges.push({ request, response });
      const id = errorRequestId(response);
      if (id !== undefined && errorRequestIds.length < KEPT_ERROR_IDS) errorRequestIds.push(id);
    },
  });
  const [key] = started.keys;
  if (key === undefined) throw new Error(`the simulator has no key of the ${config.environment} environment`);
  return {
    started,
    environment: execEnvironment(started),
    async finish(timing, clientOutput) {
      try {
        await started.simulator.webhooks.idle();
        const log = started.simulator.judge;
        if (log === null) throw new Error('the situation simulator runs without its judge');
        const observed = await log.observations(key.secretId);
        return {
          report: judge(key.secretId, { ...observed, clientOutput }, timing),
          requests: observed.requests,
          deliveries: observed.deliveries,
          errorRequestIds,
          exchanges,
          key: { id: key.secretId, secret: key.secretPassword },
        };
      } finally {
        await started.close();
      }
    },
  };
}
