/**
 * Enrollments (PAY-ENROLLMENT): begun for an existing customer (PENDING, `redirect_url` carrying an
 * OAuth `state`), completed or failed by complete-redirection with the callback's parameters, EXPIRED
 * at `expires_at` (a clock job); lists filter by `customer__identifier`, `customer`, `institution`,
 * `status`.
 */

import { type Handler, json } from '../core/handler.js';
import type { JobRunner } from '../core/job-kinds.js';
import { ok } from '../core/result.js';
import type { TenantRuntime } from '../core/tenant.js';
import { MINUTE_MS } from '../core/time.js';
import { nowIso } from '../pipeline/records.js';
import { paymentInstitution } from './payment-institutions.js';
import type { CustomerRecord, EnrollmentRecord } from './payment-records.js';
import {
  CUSTOMERS,
  ENROLLMENTS,
  findRecord,
  getRecord,
  listRecords,
  namedIdView,
  pageOf,
  putRecord,
  putTransition,
} from './payment-store.js';
import { type Body, failure, refuseInSandbox } from './payment-support.js';

/** (choice) The user has 30 minutes to approve the device at the institution. */
const ENROLLMENT_WINDOW_MS = 30 * MINUTE_MS;

function newEnrollment(tenant: TenantRuntime, body: Body, institutionName: string): EnrollmentRecord {
  const id = tenant.ids.uuid();
  const state = tenant.ids.hex(16);
  const now = tenant.clock.now();
  return {
    id,
    enrollment_id: id,
    created_at: new Date(now).toISOString(),
    updated_at: new Date(now).toISOString(),
    status: 'PENDING',
    customer: String(body.customer),
    institution: String(body.institution),
    platform: String(body.platform),
    redirect_url: `https://${institutionName.replaceAll('_', '-')}.ofkit.test/enroll?enrollment=${id}&state=${state}`,
    callback_url: String(body.callback_url),
    expires_at: new Date(now + ENROLLMENT_WINDOW_MS).toISOString(),
    failure: null,
    _state: state,
  };
}

/** PAY-ENROLLMENT: the customer must exist first (404, choice); so must the institution. */
const createEnrollment: Handler = async ({ input, tenant }) => {
  const refused = refuseInSandbox(tenant);
  if (refused) return refused;
  const body = input.body as Body;
  const customer = await findRecord(tenant, CUSTOMERS, String(body.customer), 'customer');
  if (!customer.ok) return customer;
  const institution = paymentInstitution(String(body.institution));
  if (!institution)
    return failure('not_found', 'institution', `No payment institution ${String(body.institution)}.`);
  const enrollment = newEnrollment(tenant, body, institution.name);
  await putRecord(tenant, ENROLLMENTS, enrollment);
  await tenant.clock.schedule(Date.parse(enrollment.expires_at), ENROLLMENT_EXPIRY, { id: enrollment.id });
  return ok(json(201, namedIdView(enrollment)));
};

/** PAY-ENROLLMENT: success parameters complete it (SUCCEEDED), error parameters fail it (FAILED). */
const completeEnrollmentRedirection: Handler = async ({ input, tenant }) => {
  const body = input.body as Body;
  const found = await findRecord<EnrollmentRecord>(
    tenant,
    ENROLLMENTS,
    String(body.enrollment_id),
    'enrollment_id',
  );
  if (!found.ok) return found;
  if (found.value.status !== 'PENDING')
    return failure('invalid_status', undefined, `The enrollment is already ${found.value.status}.`);
  if (body.state !== found.value._state)
    return failure('invalid_state', 'state', 'The state does not match the one issued in redirect_url.');
  const failed = body.error !== undefined;
  const completed: EnrollmentRecord = {
    ...found.value,
    status: failed ? 'FAILED' : 'SUCCEEDED',
    redirect_url: null,
    failure: failed ? { error: String(body.error), error_description: String(body.error_description) } : null,
    updated_at: nowIso(tenant),
  };
  // Completed once: an expiry on another replica at the same instant wins or loses as a whole.
  if (!(await putTransition(tenant, ENROLLMENTS, completed, 'PENDING')))
    return failure('invalid_status', undefined, 'The enrollment is no longer PENDING.');
  return ok(json(200, namedIdView(completed)));
};

/** PAY-ENROLLMENT: `customer__identifier` names customers by CPF or CNPJ; the rest are record fields. */
const listEnrollments: Handler = async ({ input, tenant, request }) => {
  const { customer__identifier: identifier, ...query } = input.query;
  let enrollments = await listRecords<EnrollmentRecord>(tenant, ENROLLMENTS);
  if (identifier !== undefined) {
    const customers = await listRecords<CustomerRecord>(tenant, CUSTOMERS);
    const ids = new Set(customers.filter((c) => c.identifier === String(identifier)).map((c) => c.id));
    enrollments = enrollments.filter((enrollment) => ids.has(enrollment.customer));
  }
  return ok(pageOf(enrollments, query, request, namedIdView));
};

const getEnrollment: Handler = async ({ input, tenant }) => {
  const found = await findRecord(tenant, ENROLLMENTS, input.path.enrollment_id!);
  return found.ok ? ok(json(200, namedIdView(found.value))) : found;
};

export const ENROLLMENT_EXPIRY = 'enrollment expiry';

/** The job kind of an enrollment's expiry: still PENDING at `expires_at`, it is EXPIRED. */
export const enrollmentJobs: [string, JobRunner][] = [
  [
    ENROLLMENT_EXPIRY,
    async (tenant, args) => {
      const current = await getRecord<EnrollmentRecord>(tenant, ENROLLMENTS, String(args.id));
      // Expired once: a redirection completed meanwhile on another replica wins.
      if (current?.status === 'PENDING')
        await putTransition(
          tenant,
          ENROLLMENTS,
          { ...current, status: 'EXPIRED', redirect_url: null, updated_at: nowIso(tenant) },
          'PENDING',
        );
    },
  ],
];

export const enrollmentHandlers: [string, Handler][] = [
  ['createEnrollment', createEnrollment],
  ['completeEnrollmentRedirection', completeEnrollmentRedirection],
  ['listEnrollments', listEnrollments],
  ['getEnrollment', getEnrollment],
];
