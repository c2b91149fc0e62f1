/**
 * The payments objects as the API served them, turned back into the shapes the store keeps
 * (payment-records.ts): the inverse of the views (customerView, bankAccountView, namedIdView,
 * publicView), so that a snapshot built from a recording of the API answers its GETs as recorded. The
 * private members are derived from what the views show, so every rule runs on top: a charge's
 * occurrence from its authorization's schedule (the schedule moves on from there), its attempts from
 * its retries and end-to-end id (PAY-CHARGE-RETRY's trigger counts attempts), an intent's charge from
 * the charge naming it, an enrollment's `state` from its `redirect_url`.
 */
import type { StoredRecord } from '../store/store.js';
import type { AuthorizationRecord, ChargeRecord } from './payment-records.js';
import {
  AUTHORIZATIONS,
  BANK_ACCOUNTS,
  CHARGES,
  CUSTOMERS,
  ENROLLMENTS,
  INTENTS,
  TRANSACTIONS,
} from './payment-store.js';
import { hasOccurrence, occurrenceDate } from './schedule-dates.js';

type Served = Record<string, unknown>;

/** The collections of the payments objects the store keeps, in the order their records depend. */
export const PAYMENT_COLLECTIONS = [
  CUSTOMERS,
  BANK_ACCOUNTS,
  AUTHORIZATIONS,
  INTENTS,
  CHARGES,
  TRANSACTIONS,
  ENROLLMENTS,
] as const;

export interface RefusedPaymentRecord {
  collection: string;
  id: string;
  reason: string;
}

export interface StoredPayments {
  collections: Record<string, StoredRecord[]>;
  refused: RefusedPaymentRecord[];
}

/** A document number shown flat (V1) or nested as `{type, number}` (V2). */
const documentNumber = (value: unknown): string =>
  typeof value === 'object' && value !== null ? String((value as Served).number) : String(value);

/** V1 views show no `updated_at`: the creation's instant stands for it. */
const updatedAt = (served: Served) => (served.updated_at ?? served.created_at) as string;

function storedCustomer(served: Served): StoredRecord {
  return {
    id: String(served.id),
    created_at: served.created_at as string,
    updated_at: updatedAt(served),
    identifier: documentNumber(served.identifier),
    name: String(served.name),
    email: (served.email as string | undefined) ?? null,
    phone: (served.phone as string | undefined) ?? null,
    customer_type: served.customer_type,
    // (choice) as for a customer created with a V1 request: V2 reads `address: null`.
    address: (served.address as Served | undefined) ?? null,
  };
}

function storedBankAccount(served: Served): StoredRecord {
  const { holder, updated_at: _updated, ...rest } = served as Served & { holder: Served };
  return {
    ...rest,
    id: String(served.id),
    updated_at: updatedAt(served),
    holder_name: String(holder.name),
    holder_identifier: documentNumber(holder.identifier),
  };
}

/** The views of objects whose API id is not `id` drop the store's `id`, which is that same id. */
const withStoreId = (served: Served, name: string): StoredRecord => ({ id: String(served[name]), ...served });

/** The occurrence of the schedule whose date is the charge's (a charge keeps its date through retries). */
function occurrenceOf(charge: Served, authorization: AuthorizationRecord | undefined, order: number): number {
  if (authorization === undefined) return order;
  for (let n = 0; hasOccurrence(authorization.schedule, n) && n <= 10_000; n++) {
    if (occurrenceDate(authorization.schedule, n) === charge.date) return n;
    if (occurrenceDate(authorization.schedule, n) > String(charge.date)) break;
  }
  return order;
}

/** Sent once when it got an end-to-end id, and once more for each retry; never when still SCHEDULED. */
const attemptsOf = (charge: Served): number =>
  charge.end_to_end_id === null || charge.end_to_end_id === undefined ? 0 : 1 + Number(charge.retries ?? 0);

function storedCharges(served: Served[], authorizations: Map<string, AuthorizationRecord>): StoredRecord[] {
  const seen = new Map<string, number>();
  return served.map((charge) => {
    const owner = charge.payment_authorization as string | null;
    // Without the authorization's schedule, the order the recording showed its charges in.
    const order = owner === null ? 0 : (seen.get(owner) ?? 0);
    if (owner !== null) seen.set(owner, order + 1);
    const stored: ChargeRecord = {
      ...(withStoreId(charge, 'charge_id') as unknown as ChargeRecord),
      _occurrence: owner === null ? 0 : occurrenceOf(charge, authorizations.get(owner), order),
      _attempts: attemptsOf(charge),
    };
    return stored as unknown as StoredRecord;
  });
}

/** The `state` the enrollment's `redirect_url` issued; a derived one when the URL is gone (it has ended). */
function enrollmentState(served: Served): string {
  let state: string | null = null;
  try {
    state = new URL(String(served.redirect_url)).searchParams.get('state');
  } catch {
    // No URL (null once the enrollment ended): nothing can echo its state any more.
  }
  return state ?? `replayed-${String(served.enrollment_id)}`;
}

/** Why a served record cannot be stored (its id missing), or undefined. */
function missingId(collection: string, served: Served): string | undefined {
  const name =
    collection === AUTHORIZATIONS
      ? 'payment_authorization_id'
      : collection === CHARGES
        ? 'charge_id'
        : collection === ENROLLMENTS
          ? 'enrollment_id'
          : 'id';
  const id = served[name];
  return typeof id === 'string' && id !== '' && !id.includes('/') ? undefined : `it has no ${name}`;
}

/** The served records that can be stored, by collection, and the others with the reason. */
function storable(records: Record<string, Served[]>) {
  const refused: RefusedPaymentRecord[] = [];
  const valid: Record<string, Served[]> = {};
  for (const [collection, served] of Object.entries(records)) {
    const kept: Served[] = [];
    valid[collection] = kept;
    for (const record of served) {
      const reason = (PAYMENT_COLLECTIONS as readonly string[]).includes(collection)
        ? missingId(collection, record)
        : 'the simulator keeps no payments objects of this collection';
      if (reason === undefined) kept.push(record);
      else refused.push({ collection, id: String(record.id ?? '(no id)'), reason });
    }
  }
  return { valid, refused };
}

/**
 * The stored shapes of the served `records` (by collection, in the order the API listed them);
 * records of unknown collections or without their id are refused with the reason.
 */
export function storedPayments(records: Record<string, Served[]>): StoredPayments {
  const { valid, refused } = storable(records);
  const authorizations = (valid[AUTHORIZATIONS] ?? []).map((served) =>
    withStoreId(served, 'payment_authorization_id'),
  );
  const charges = storedCharges(
    valid[CHARGES] ?? [],
    new Map(authorizations.map((stored) => [stored.id, stored as unknown as AuthorizationRecord])),
  );
  const chargeOf = new Map(charges.map((charge) => [charge.payment_intent, charge.id]));
  const collections: Record<string, StoredRecord[]> = {
    [CUSTOMERS]: (valid[CUSTOMERS] ?? []).map(storedCustomer),
    [BANK_ACCOUNTS]: (valid[BANK_ACCOUNTS] ?? []).map(storedBankAccount),
    [AUTHORIZATIONS]: authorizations,
    [INTENTS]: (valid[INTENTS] ?? []).map((served) => ({
      ...(served as StoredRecord),
      _charge: chargeOf.get(served.id) ?? null,
    })),
    [CHARGES]: charges,
    [TRANSACTIONS]: (valid[TRANSACTIONS] ?? []) as StoredRecord[],
    [ENROLLMENTS]: (valid[ENROLLMENTS] ?? []).map((served) => ({
      ...withStoreId(served, 'enrollment_id'),
      _state: enrollmentState(served),
    })),
  };
  for (const name of Object.keys(collections)) if (collections[name]!.length === 0) delete collections[name];
  return { collections, refused };
}
