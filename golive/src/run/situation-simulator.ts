/**
 * A fresh simulator set up as one situation says (seed, environment, the faults, scenario switches and
 * clock script standing across resets, the judge's webhook probes, deliveries held back and interleaved,
 * a recurrent link's life played by golive), on 127.0.0.1 and a free port. While the client runs against
 * it, it keeps what the evidence needs: the request ids of the error answers (to find them in the
 * client's output) and the first exchanges (to teach the redaction their values). Once the client is
 * done, the first key's log is judged through the judge's door, with the facts of the run only the
 * simulator knows (deliveries still held back, the life played to its end).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  execEnvironment,
  type LoggedEventRecord,
  type SimRequest,
  type SimResponse,
  type SimulatorControl,
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
import { LIFE_ENDED_VARIABLE, type LifePlayer, playRecurrentLives } from './life-player.js';

/** Exchanges kept for the redaction to learn from: enough for a client's flow, bounded for a long one. */
const KEPT_EXCHANGES = 400;
/** Request ids of error answers kept per situation. */
const KEPT_ERROR_IDS = 1000;

/** One API exchange as the simulator answered it (the response's body as it went out). */
export interface SeenExchange {
  readonly request: SimRequest;
  readonly response: SimResponse;
}

/** What only the simulator knows of the run, for the situation's `met_when`. */
export interface SituationFacts {
  /** Events held back (`delivery_delay_seconds`) whose first delivery was never attempted. */
  readonly heldUndelivered: number;
  /** A situation with a recurrent life: whether golive played it to its end while the client ran. */
  readonly lifeEnded?: boolean;
}

export interface JudgedSituation {
  readonly report: JudgeReport;
  readonly facts: SituationFacts;
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

/** The receiver's defaults: none, with the situation's hold and order of deliveries. */
function webhookDefaults({ webhooks }: SituationConfig) {
  if (webhooks.delivery_delay_seconds === undefined) return {};
  const { delivery_delay_seconds, delivery_order = 'raised' } = webhooks;
  return { webhook: { url: null, bearer_token: null, delivery_delay_seconds, delivery_order } };
}

/** Events held back whose first delivery never went out (the client ended before their release). */
async function heldUndelivered(control: SimulatorControl): Promise<number> {
  const events = await control.request<LoggedEventRecord[]>('GET', 'events/');
  return events.filter((e) => e.held_until !== undefined && e.status === 'pending' && e.attempts.length === 0)
    .length;
}

/** Starts the situation's simulator; `finish` judges and stops it. */
export async function startSituationSimulator(config: SituationConfig): Promise<SituationSimulator> {
  const errorRequestIds: string[] = [];
  const exchanges: SeenExchange[] = [];
  let lastActivityAt = performance.now();
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
    judgeProbes: { duplicates: config.webhooks.duplicates, forged: config.webhooks.forged },
    ...webhookDefaults(config),
    storm: config.storm === true,
    ...(config.recurrent_life && { recurrentLife: config.recurrent_life.days }),
    onWebhookAttempt: () => {
      lastActivityAt = performance.now();
    },
    onExchange: (request, response) => {
      if (!isApi(request)) return;
      lastActivityAt = performance.now();
      if (exchanges.length < KEPT_EXCHANGES) exchanges.push({ request, response });
      const id = errorRequestId(response);
      if (id !== undefined && errorRequestIds.length < KEPT_ERROR_IDS) errorRequestIds.push(id);
    },
  });
  const [key] = started.keys;
  if (key === undefined) throw new Error(`the simulator has no key of the ${config.environment} environment`);
  const life = config.recurrent_life && startLife(started, () => lastActivityAt);
  return {
    started,
    environment: { ...execEnvironment(started), ...life?.environment },
    async finish(timing, clientOutput) {
      try {
        const lifeEnded = await life?.player.stop();
        await started.simulator.webhooks.idle();
        const log = started.simulator.judge;
        if (log === null) throw new Error('the situation simulator runs without its judge');
        const observed = await log.observations(key.secretId);
        const facts = {
          heldUndelivered: config.webhooks.delivery_delay_seconds
            ? await heldUndelivered(started.control)
            : 0,
          ...(lifeEnded !== undefined && { lifeEnded }),
        };
        return {
          report: judge(key.secretId, { ...observed, clientOutput }, timing),
          facts,
          requests: observed.requests,
          deliveries: observed.deliveries,
          errorRequestIds,
          exchanges,
          key: { id: key.secretId, secret: key.secretPassword },
        };
      } finally {
        await started.close();
        if (life) rmSync(life.folder, { recursive: true, force: true });
      }
    },
  };
}

/** golive playing the recurrent life: the end file in a folder of its own, named in the environment. */
function startLife(
  started: StartedSimulator,
  lastActivityAt: () => number,
): { folder: string; environment: Record<string, string>; player: LifePlayer } {
  const folder = mkdtempSync(join(tmpdir(), 'ofkit-golive-life-'));
  const endFile = join(folder, 'life-ended');
  const player = playRecurrentLives({
    control: started.control,
    endFile,
    lastActivityAt,
    deliveriesIdle: () => started.simulator.webhooks.idle(),
  });
  return { folder, environment: { [LIFE_ENDED_VARIABLE]: endFile }, player };
}
