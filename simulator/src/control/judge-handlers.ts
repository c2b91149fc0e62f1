/**
 * The judge's control API (admin.yaml, tag Judge): the request log (`GET /_ofkit/requests/`), the
 * report (`GET /_ofkit/judge/`) and the probes of the webhook receiver (`POST /_ofkit/judge/probes/`).
 * Without the judge (`--no-judge`) each answers 409 `judge_off`: an empty log or verdict would pass for
 * a client that did nothing wrong.
 */

import { apiError } from '../core/api-error.js';
import { type Handler, json } from '../core/handler.js';
import { err, ok } from '../core/result.js';
import type { Timing } from '../judge/client-rules.js';
import { judge } from '../judge/judge.js';
import type { JudgeLog } from '../judge/judge-log.js';
import { type ProbeKind, sendProbe } from '../judge/webhook-probes.js';
import { settled, webhookState } from '../webhooks/webhook-state.js';

/** `limit` of `GET /_ofkit/requests/`: default and maximum (the contract with the dashboard). */
export const REQUESTS_PAGE = { default: 100, max: 1000 } as const;

const listRequests =
  (log: JudgeLog): Handler =>
  async ({ input, tenant }) => {
    const after = typeof input.query.after === 'number' ? input.query.after : 0;
    const limit =
      typeof input.query.limit === 'number'
        ? Math.min(input.query.limit, REQUESTS_PAGE.max)
        : REQUESTS_PAGE.default;
    return ok(json(200, await log.requests(tenant.id, after, limit)));
  };

const getJudgeReport =
  (log: JudgeLog): Handler =>
  async ({ input, tenant }) => {
    // Deliveries in flight are part of what is judged.
    const state = webhookState(tenant);
    await settled(state.inFlight);
    const timing: Timing = input.query.timing === 'order-only' ? 'order-only' : 'real';
    return ok(json(200, judge(tenant.id, await log.observations(tenant.id), timing)));
  };

const sendJudgeProbe =
  (log: JudgeLog): Handler =>
  async ({ input, tenant }) => {
    const { probe } = input.body as { probe: ProbeKind };
    const sent = await sendProbe(tenant, probe, log);
    if (!sent.ok) return sent;
    const { kind, webhook_id, status, error, duration_ms } = sent.value;
    return ok(json(201, { probe, kind, webhook_id, status, error, duration_ms }));
  };

const judgeOff: Handler = async () =>
  err(
    apiError('judge_off', {
      message:
        'The client judge is off: this simulator was started with --no-judge (judge: false), so it neither logs nor judges requests.',
    }),
  );

/** The judge's operations; `log` null: the simulator runs without the judge. */
export function judgeControlHandlers(log: JudgeLog | null): [string, Handler][] {
  return [
    ['listRequests', log ? listRequests(log) : judgeOff],
    ['getJudgeReport', log ? getJudgeReport(log) : judgeOff],
    ['sendJudgeProbe', log ? sendJudgeProbe(log) : judgeOff],
  ];
}
