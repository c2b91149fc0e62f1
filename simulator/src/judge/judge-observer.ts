/**
 * The simulator's hook for the client judge: wraps the pipeline's `handle` to log every API request of
 * a tenant (never the control API's, `/_ofkit/`), hears of every webhook delivery attempt, and clears a
 * tenant's log when the tenant is reset.
 */
import type { SimRequest, SimResponse } from '../core/http-types.js';
import type { ExchangeMeta } from '../pipeline/pipeline.js';
import type { TenantRuntime } from '../tenants/tenant-runtime.js';
import type { AttemptReport } from '../webhooks/retrying-delivery.js';
import { track, webhookState } from '../webhooks/webhook-state.js';
import { observeRequest } from './observe-request.js';
import { appendDelivery, appendRequest, clearObservations, nextSeq, observationsOf } from './request-log.js';
import { sendProbe } from './webhook-probes.js';

const CONTROL_PREFIX = '/_ofkit/';
/** Control operations after which the tenant's log starts afresh (resetTenant's description). */
const CLEARING_OPERATIONS = new Set(['resetTenant', 'importSnapshot']);

/** Probes sent on their own (`ofkit simulate --webhook-duplicates --webhook-forged`). */
export interface AutomaticProbes {
  /** Every acknowledged delivery is delivered once more, same `webhook_id` (CLIENT-WEBHOOK-DUPLICATE). */
  duplicates?: boolean;
  /** After a tenant's first acknowledged delivery, one forged delivery (CLIENT-WEBHOOK-BEARER). */
  forged?: boolean;
}

export interface JudgeObserverOptions {
  realTime: () => number;
  tenantFor: (id: string) => TenantRuntime;
  probes?: AutomaticProbes;
}

export interface JudgeObserver {
  wrap(
    handle: (request: SimRequest, meta: ExchangeMeta) => Promise<SimResponse>,
  ): (request: SimRequest) => Promise<SimResponse>;
  onAttempt(report: AttemptReport): void;
}

export function createJudgeObserver(options: JudgeObserverOptions): JudgeObserver {
  const forgedFor = new WeakSet<TenantRuntime>();
  /** The probes a delivery acknowledged with a 2xx sets off; `idle()` waits for them. */
  function probeAfter(tenant: TenantRuntime, report: AttemptReport): void {
    const status = report.attempt.status;
    if (status === null || status < 200 || status > 299) return;
    const inFlight = webhookState(tenant).inFlight;
    if (options.probes?.duplicates) track(inFlight, sendProbe(tenant, 'duplicate_delivery'));
    if (options.probes?.forged && !forgedFor.has(tenant)) {
      forgedFor.add(tenant);
      track(inFlight, sendProbe(tenant, 'forged_delivery'));
    }
  }
  return {
    wrap: (handle) => async (request) => {
      const meta: ExchangeMeta = {};
      const startedRealMs = options.realTime();
      const response = await handle(request, meta);
      if (meta.tenantId === undefined) return response;
      const tenant = options.tenantFor(meta.tenantId);
      if (request.path.startsWith(CONTROL_PREFIX)) {
        if (response.status < 300 && CLEARING_OPERATIONS.has(meta.operationId ?? ''))
          clearObservations(tenant);
        return response;
      }
      const log = observationsOf(tenant);
      const observed = observeRequest(
        request,
        response,
        { operationId: meta.operationId ?? null, rule: meta.rule ?? null, seq: nextSeq(log) },
        { atMs: tenant.clock.now(), startedRealMs, endedRealMs: options.realTime() },
      );
      appendRequest(log, observed);
      return response;
    },
    onAttempt(report) {
      const tenant = options.tenantFor(report.tenant);
      const log = observationsOf(tenant);
      const { payload, attempt } = report;
      appendDelivery(log, {
        seq: nextSeq(log),
        at: attempt.at,
        kind: 'delivery',
        webhook_id: payload.webhook_id ?? null,
        webhook_type: payload.webhook_type,
        webhook_code: payload.webhook_code,
        link_id: payload.link_id,
        data: payload.data,
        attempt: report.number,
        status: attempt.status,
        error: attempt.error,
        duration_ms: attempt.duration_ms,
      });
      probeAfter(tenant, report);
    },
  };
}
