/**
 * The simulator's hook for the client judge: wraps the pipeline's `handle` to log every API request of
 * a tenant (never the control API's, `/_ofkit/`), hears of every webhook delivery attempt, and clears a
 * tenant's log when the tenant is reset. Only extraction and masking happen here, on the request path;
 * the entry goes to the store without waiting (judge-log.ts), and judging waits until someone reads.
 */
import { basicAuthorization, parseBasic } from '../../../openapi/config/api-keys.js';
import type { SimRequest, SimResponse } from '../core/http-types.js';
import type { ApiKey } from '../core/keys.js';
import { isDashboardCall } from '../core/observer-requests.js';
import type { TenantRuntime } from '../core/tenant.js';
import type { ExchangeMeta } from '../pipeline/pipeline.js';
import type { AttemptReport } from '../webhooks/retrying-delivery.js';
import { track, webhookState } from '../webhooks/webhook-state.js';
import { AUTH_REFUSALS } from './auth-refusals.js';
import type { JudgeLog } from './judge-log.js';
import { KNOWN_PASSWORDS } from './known-passwords.js';
import { observedRequest } from './logged-request.js';
import { credentialForms, type KeyForms, keyForms, observeRequest } from './observe-request.js';
import { sendProbe } from './webhook-probes.js';

const CONTROL_PREFIX = '/_ofkit/';

/**
 * The rule behind an error code that only one rule produces, for errors whose value carries none
 * (the error values carry theirs where the handler knows it: LINK-REFRESH-COOLDOWN, DELETE-RATE-LIMIT...).
 */
const RULE_OF_CODE: Readonly<Record<string, string>> = {
  required: 'ERR-REQUIRED',
  not_found: 'ERR-404',
  method_not_allowed: 'ERR-405',
  authentication_failed: 'AUTH-BASIC',
  token_required: 'LINK-MFA-428',
  invalid_token: 'LINK-MFA-428',
  session_expired: 'LINK-MFA-428',
  refresh_cooldown: 'LINK-REFRESH-COOLDOWN',
  too_many_requests: 'DELETE-RATE-LIMIT',
  prerequisite_missing: 'EMPLOYMENT-METRICS-PREREQ',
  payment_initiation_unavailable: 'PAY-SANDBOX',
  charge_not_failed: 'PAY-CHARGE-RETRY',
  retry_limit_reached: 'PAY-CHARGE-RETRY',
};

function ruleOf(meta: ExchangeMeta, response: SimResponse): string | null {
  if (meta.rule) return meta.rule;
  if (response.status < 400 || !Array.isArray(response.body)) return null;
  return RULE_OF_CODE[String((response.body[0] as { code?: unknown } | undefined)?.code)] ?? null;
}
/** Observing must never change an answer: what the judge cannot take of an exchange is left out. */
function guarded(observe: () => void): void {
  try {
    observe();
  } catch {
    // Left out of the judge's evidence.
  }
}

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
  log: JudgeLog;
  /** The simulator's keys: the forms of their credentials are made once, not on every request. */
  keys: readonly ApiKey[];
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

/**
 * The forms of the credentials of a request's Authorization header: a configured key's, made once, when
 * the header is that key's exact Basic value; otherwise read from the header (a broken AUTH-BASIC may
 * let another secret in, and the log must mask the one the client sent).
 */
function knownCredentials(
  keys: readonly ApiKey[],
): (tenant: string, header: string | undefined) => KeyForms | undefined {
  const known = new Map(
    keys.map((key) => [
      key.secretId,
      {
        header: basicAuthorization(key.secretId, key.secretPassword),
        forms: keyForms(key.secretId, key.secretPassword),
      },
    ]),
  );
  return (tenant, header) => {
    const key = known.get(tenant);
    return key !== undefined && header === key.header ? key.forms : credentialForms(header);
  };
}

/** CLIENT-NO-RETRY-4XX: a 401 whose Basic user names a key of this simulator, counted for that key (auth-refusals.ts). */
function countRefusal(
  options: JudgeObserverOptions,
  request: SimRequest,
  response: SimResponse,
  startedRealMs: number,
) {
  const id = parseBasic(request.headers.authorization)?.id;
  if (id === undefined || !options.keys.some((key) => key.secretId === id)) return;
  const tenant = options.tenantFor(id);
  const meta = { operationId: null, rule: 'AUTH-BASIC' };
  const times = { atMs: tenant.clock.now(), startedRealMs, endedRealMs: options.realTime() };
  const logged = observeRequest(request, response, meta, times);
  const { entry } = observedRequest(0, logged);
  const key = `${entry.method} ${entry.path}?${entry.query}`;
  tenant.local(AUTH_REFUSALS).count(key, entry.curl, entry.at, logged.requestId ?? null);
}

export function createJudgeObserver(options: JudgeObserverOptions): JudgeObserver {
  const { log } = options;
  const credentialsOf = knownCredentials(options.keys);
  const forgedFor = new WeakSet<TenantRuntime>();
  /** The probes a delivery acknowledged with a 2xx sets off; `idle()` waits for them. */
  function probeAfter(tenant: TenantRuntime, report: AttemptReport): void {
    const status = report.attempt.status;
    if (status === null || status < 200 || status > 299) return;
    const inFlight = webhookState(tenant).inFlight;
    if (options.probes?.duplicates) track(inFlight, sendProbe(tenant, 'duplicate_delivery', log));
    if (options.probes?.forged && !forgedFor.has(tenant)) {
      forgedFor.add(tenant);
      track(inFlight, sendProbe(tenant, 'forged_delivery', log));
    }
  }
  return {
    wrap: (handle) => async (request) => {
      const meta: ExchangeMeta = {};
      const startedRealMs = options.realTime();
      const response = await handle(request, meta);
      // The dashboard reads the API as the tenant too; its polling is not the client's behaviour.
      const observed = !request.path.startsWith(CONTROL_PREFIX) && !isDashboardCall(request);
      if (meta.tenantId === undefined) {
        if (observed && response.status === 401)
          guarded(() => countRefusal(options, request, response, startedRealMs));
        return response;
      }
      if (request.path.startsWith(CONTROL_PREFIX)) {
        if (response.status < 300 && CLEARING_OPERATIONS.has(meta.operationId ?? '')) {
          log.clear(meta.tenantId);
          options.tenantFor(meta.tenantId).local(AUTH_REFUSALS).clear();
        }
        return response;
      }
      if (!observed) return response;
      try {
        const tenant = options.tenantFor(meta.tenantId);
        const logged = observeRequest(
          request,
          response,
          { operationId: meta.operationId ?? null, rule: ruleOf(meta, response) },
          { atMs: tenant.clock.now(), startedRealMs, endedRealMs: options.realTime() },
          credentialsOf(tenant.id, request.headers.authorization),
          tenant.local(KNOWN_PASSWORDS),
        );
        log.request(tenant.id, logged);
      } catch {
        // Observing must never change an answer: an exchange the log cannot hold is left out of it.
      }
      return response;
    },
    onAttempt(report) {
      const { payload, attempt } = report;
      log.delivery(report.tenant, {
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
        sent_real_ms: report.sentRealMs,
      });
      probeAfter(options.tenantFor(report.tenant), report);
    },
  };
}
