/**
 * The payment rules passing traffic shows: PAY-VERSION-HEADER (the records answer in the format the
 * header asked), PAY-CHARGE-RETRY (a retry accepted only on a charge last seen FAILED),
 * PAY-INTENT-PIX-PATCH (an intent completed once), PAY-BANK-ACCOUNT-DUP (only active accounts count as
 * duplicates), PAY-INTENT-CONFIGS (a payer created in the request is not refused as a whole) and
 * PAY-SANDBOX (no payment initiation where GET /api/ said `sandbox`).
 */
import { isObject, type JsonValue } from '../../../../openapi/document/json.js';
import type { BridgeDocument } from '../../document/bridge-document.js';
import { headerOf } from '../../exchange/exchange.js';
import { type ExchangeView, isSuccess, recordsOf } from '../exchange-view.js';
import type { Finding } from '../finding.js';
import { pathIdOf, recordIdOf, ruleFinding, type SessionCheck } from '../session-check.js';
import { recordSchemaOfAnswer } from './record-schema.js';

const V2 = 'Payments-BR.V2';
/** Operations that start a payment (PAY-SANDBOX), besides reading the payment institutions. */
const INITIATING = new Set(['createPaymentAuthorization', 'createPaymentIntent', 'createEnrollment']);

export function createPaymentRulesCheck(document: BridgeDocument): SessionCheck {
  const chargeStatus = new Map<string, string>();
  const intentStatus = new Map<string, string>();
  /** institution|agency|number -> account id -> active. */
  const bankAccounts = new Map<string, Map<string, boolean>>();
  const sandboxTenants = new Set<string>();

  function version(view: ExchangeView): Finding[] {
    if (!view.operation!.rules.includes('PAY-VERSION-HEADER') || !isSuccess(view)) return [];
    const asked =
      headerOf(view.exchange.request.headers, 'x-service-api-resource-version') === V2 ? 'V2' : 'V1';
    const branch = versionBranch(document, recordSchemaOfAnswer(document, view), asked);
    if (branch === undefined) return [];
    const validate = document.ajv.compile(branch);
    const wrong = recordsOf(view).find((record) => !validate(record));
    return wrong === undefined
      ? []
      : [
          ruleFinding(
            view,
            'PAY-VERSION-HEADER',
            `asked for ${asked}, answered ${recordIdOf(wrong) ?? 'a record'} in another format`,
          ),
        ];
  }

  function learn(view: ExchangeView): void {
    for (const record of recordsOf(view)) {
      if (typeof record.charge_id === 'string' && typeof record.status === 'string')
        chargeStatus.set(record.charge_id, record.status);
      if (
        view.operation!.path.startsWith('/payments/br/payment-intents/') &&
        typeof record.id === 'string' &&
        typeof record.status === 'string'
      )
        intentStatus.set(record.id, record.status);
      const key = bankKey(record);
      if (key !== undefined && typeof record.id === 'string' && typeof record.active === 'boolean') {
        const accounts = bankAccounts.get(key) ?? new Map<string, boolean>();
        accounts.set(record.id, record.active);
        bankAccounts.set(key, accounts);
      }
    }
  }

  const handlers: Record<string, (view: ExchangeView) => Finding[]> = {
    retryPaymentAuthorizationCharge: (view) => {
      const status = chargeStatus.get(pathIdOf(view) ?? '');
      return isSuccess(view) && status !== undefined && status !== 'FAILED'
        ? [
            ruleFinding(
              view,
              'PAY-CHARGE-RETRY',
              `a retry was accepted on a charge last seen ${status}, not FAILED`,
            ),
          ]
        : [];
    },
    completePaymentIntent: (view) => {
      const status = intentStatus.get(pathIdOf(view) ?? '');
      return isSuccess(view) && status !== undefined && status !== 'REQUIRES_ACTION'
        ? [ruleFinding(view, 'PAY-INTENT-PIX-PATCH', `an intent last seen ${status} was completed again`)]
        : [];
    },
    createBankAccount: (view) => {
      const key = bankKey(view.requestJson);
      const known = key === undefined ? undefined : bankAccounts.get(key);
      if (known === undefined) return [];
      const active = [...known.values()].some(Boolean);
      const duplicated = (view.responseJson as { code?: unknown }[] | undefined)?.[0]?.code === 'duplicated';
      if (view.status >= 400 && duplicated && !active)
        return [
          ruleFinding(view, 'PAY-BANK-ACCOUNT-DUP', 'refused as a duplicate of deactivated accounts only'),
        ];
      if (isSuccess(view) && active)
        return [
          ruleFinding(view, 'PAY-BANK-ACCOUNT-DUP', 'accepted the banking details of an active account'),
        ];
      return [];
    },
    createPaymentIntent: (view) => {
      const customer = (view.requestJson as { customer?: unknown } | undefined)?.customer;
      const items = Array.isArray(view.responseJson) ? (view.responseJson as { field?: unknown }[]) : [];
      return view.status === 400 &&
        isObject(customer as JsonValue) &&
        items.some((item) => item?.field === 'customer')
        ? [ruleFinding(view, 'PAY-INTENT-CONFIGS', 'a payer created in the request was refused as a whole')]
        : [];
    },
  };

  return {
    observe(view) {
      if (view.control || !view.operation || view.exchange.upstreamFailure) return [];
      if (view.operation.operationId === 'getApiRoot' && isSuccess(view)) {
        const environment = (view.responseJson as { environment?: unknown } | undefined)?.environment;
        if (environment === 'sandbox') sandboxTenants.add(view.tenant);
      }
      const findings = [...version(view), ...(handlers[view.operation.operationId]?.(view) ?? [])];
      if (INITIATING.has(view.operation.operationId) && isSuccess(view) && sandboxTenants.has(view.tenant))
        findings.push(
          ruleFinding(
            view,
            'PAY-SANDBOX',
            'payment initiation answered in the sandbox, where it is not available',
          ),
        );
      if (isSuccess(view)) learn(view);
      return findings;
    },
  };
}

/** The institution, agency and number of a bank account (record or V1 request). */
function bankKey(value: unknown): string | undefined {
  const record = value as { institution?: unknown; agency?: unknown; number?: unknown } | undefined;
  if (typeof record?.agency !== 'string' || typeof record.number !== 'string') return undefined;
  const institution = isObject(record.institution as JsonValue)
    ? (record.institution as { id?: unknown }).id
    : record.institution;
  return `${String(institution)}|${record.agency}|${record.number}`;
}

/** The `oneOf` branch of a versioned record schema named after `version` (`CustomerV2`). */
function versionBranch(
  document: BridgeDocument,
  schema: JsonValue | undefined,
  version: 'V1' | 'V2',
): JsonValue | undefined {
  const resolved = document.resolve(schema);
  if (!isObject(resolved) || !Array.isArray(resolved.oneOf)) return undefined;
  return resolved.oneOf.find(
    (branch) => isObject(branch) && typeof branch.$ref === 'string' && branch.$ref.endsWith(version),
  );
}
