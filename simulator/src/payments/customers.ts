/**
 * Customers (payers): PAY-VERSION-HEADER (V1 flat, V2 nested identifier with address) and validated
 * CPF/CNPJ check digits. (choice) Customers are not deduplicated: the spec names no such rule.
 */

import type { ApiErrors } from '../core/api-error.js';
import { type Handler, json } from '../core/handler.js';
import { ok, type Result } from '../core/result.js';
import type { TenantRuntime } from '../core/tenant.js';
import { nowIso } from '../pipeline/records.js';
import type { StoredRecord } from '../store/store.js';
import { checkDocument, documentTypeOf } from './brazilian-documents.js';
import type { CustomerRecord, CustomerType } from './payment-records.js';
import { CUSTOMERS, findRecord, listRecords, pageOf, putRecord } from './payment-store.js';
import { type Body, failure, type ResourceVersion, versionMismatch, versionOf } from './payment-support.js';

/** PAY-VERSION-HEADER: the customer in the format the request's header selects. */
export function customerView(customer: CustomerRecord, version: ResourceVersion): Record<string, unknown> {
  const common = {
    name: customer.name,
    email: customer.email,
    phone: customer.phone,
    customer_type: customer.customer_type,
  };
  if (version === 'V1')
    return { id: customer.id, created_at: customer.created_at, identifier: customer.identifier, ...common };
  return {
    id: customer.id,
    created_at: customer.created_at,
    updated_at: customer.updated_at,
    identifier: { type: documentTypeOf(customer.identifier), number: customer.identifier },
    ...common,
    address: customer.address,
  };
}

/** The body's format: V2 nests the identifier as `{type, number}`. */
const bodyVersion = (body: Body): ResourceVersion => (typeof body.identifier === 'object' ? 'V2' : 'V1');

/**
 * A customer from a create request (V1 or V2 body, already schema-valid), not stored yet; `prefix`
 * places the fields of a customer nested in another request (`customer.`).
 */
export function customerFromRequest(
  tenant: TenantRuntime,
  body: Body,
  prefix = '',
): Result<CustomerRecord, ApiErrors> {
  const identifier =
    typeof body.identifier === 'string' ? body.identifier : String((body.identifier as Body).number);
  const type = body.customer_type as CustomerType;
  // (choice) INDIVIDUAL goes with a CPF, BUSINESS with a CNPJ.
  if ((type === 'BUSINESS') !== (documentTypeOf(identifier) === 'CNPJ')) {
    const message = `A${type === 'BUSINESS' ? ' BUSINESS customer needs a CNPJ' : 'n INDIVIDUAL customer needs a CPF'}.`;
    return failure('invalid', `${prefix}customer_type`, message);
  }
  const wrong = checkDocument(identifier, `${prefix}identifier`);
  if (wrong) return { ok: false, error: wrong };
  const now = nowIso(tenant);
  return ok({
    id: tenant.ids.uuid(),
    created_at: now,
    updated_at: now,
    identifier,
    name: String(body.name),
    email: (body.email as string | undefined) ?? null,
    phone: (body.phone as string | undefined) ?? null,
    customer_type: type,
    // (choice) A customer created with a V1 request reads `address: null` in V2.
    address: (body.address as Record<string, unknown> | undefined) ?? null,
  });
}

const createCustomer: Handler = async ({ input, tenant }) => {
  const version = versionOf(input);
  const body = input.body as Body;
  const mismatch = versionMismatch(bodyVersion(body), version, 'identifier');
  if (mismatch) return mismatch;
  const customer = customerFromRequest(tenant, body);
  if (!customer.ok) return customer;
  await putRecord(tenant, CUSTOMERS, customer.value);
  return ok(json(201, customerView(customer.value, version)));
};

const listCustomers: Handler = async ({ input, tenant, request }) => {
  const version = versionOf(input);
  const customers = await listRecords<CustomerRecord>(tenant, CUSTOMERS);
  const view = (record: StoredRecord) => customerView(record as CustomerRecord, version);
  return ok(pageOf(customers, input.query, request, view));
};

const getCustomer: Handler = async ({ input, tenant }) => {
  const customer = await findRecord<CustomerRecord>(tenant, CUSTOMERS, input.path.id!);
  return customer.ok ? ok(json(200, customerView(customer.value, versionOf(input)))) : customer;
};

export const customerHandlers: [string, Handler][] = [
  ['createCustomer', createCustomer],
  ['listCustomers', listCustomers],
  ['getCustomer', getCustomer],
];
