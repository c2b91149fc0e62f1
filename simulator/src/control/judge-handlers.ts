/**
 * The judge's control API (admin.yaml, tag Judge): the request log (`GET /_ofkit/requests/`), the
 * report (`GET /_ofkit/judge/`) and the probes of the webhook receiver (`POST /_ofkit/judge/probes/`).
 */

import { type Handler, json } from '../core/handler.js';
import { ok } from '../core/result.js';
import type { Timing } from '../judge/client-rules.js';
import { judgeTenant } from '../judge/judge-tenant.js';
import { observationsOf, readRequests } from '../judge/request-log.js';
import { type ProbeKind, sendProbe } from '../judge/webhook-probes.js';
import { settled, webhookState } from '../webhooks/webhook-state.js';

/** `limit` of `GET /_ofkit/requests/`: default and maximum (the contract with the dashboard). */
export const REQUESTS_PAGE = { default: 100, max: 1000 } as const;

const listRequests: Handler = async ({ input, tenant }) => {
  const after = typeof input.query.after === 'number' ? input.query.after : 0;
  const limit =
    typeof input.query.limit === 'number'
      ? Math.min(input.query.limit, REQUESTS_PAGE.max)
      : REQUESTS_PAGE.default;
  return ok(json(200, readRequests(observationsOf(tenant), after, limit)));
};

const getJudgeReport: Handler = async ({ input, tenant }) => {
  // Deliveries in flight are part of what is judged.
  const state = webhookState(tenant);
  await settled(state.inFlight);
  const timing: Timing = input.query.timing === 'order-only' ? 'order-only' : 'real';
  return ok(json(200, judgeTenant(tenant, timing)));
};

const sendJudgeProbe: Handler = async ({ input, tenant }) => {
  const { probe } = input.body as { probe: ProbeKind };
  const sent = await sendProbe(tenant, probe);
  if (!sent.ok) return sent;
  const { kind, webhook_id, status, error, duration_ms } = sent.value;
  return ok(json(201, { probe, kind, webhook_id, status, error, duration_ms }));
};

export const judgeControlHandlers: [string, Handler][] = [
  ['listRequests', listRequests],
  ['getJudgeReport', getJudgeReport],
  ['sendJudgeProbe', sendJudgeProbe],
];
