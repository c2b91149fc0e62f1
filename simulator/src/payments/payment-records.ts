/**
 * The stored shapes of the Brazil payment objects. The store's `id` is the object's id; objects whose
 * API id has another name (`payment_authorization_id`, `charge_id`, `enrollment_id`) carry both, and
 * their views drop `id`. Members starting with `_` are private (never shown). Statuses and other
 * values the document enumerates come from its generated types.
 */
import type { components } from '../../../openapi/generated/openapi.js';

type Schemas = components['schemas'];

export type CustomerType = Schemas['CustomerType'];

export type CustomerRecord = {
  id: string;
  created_at: string;
  updated_at: string;
  /** CPF (11 digits) or CNPJ (14 digits), the flat V1 form; V2 nests it as `{type, number}`. */
  identifier: string;
  name: string;
  email: string | null;
  phone: string | null;
  customer_type: CustomerType;
  address: Record<string, unknown> | null;
};

export type BankAccountRecord = {
  id: string;
  created_at: string;
  updated_at: string;
  type: CustomerType;
  customer: string | null;
  institution: string;
  agency: string;
  number: string;
  account_type: string;
  holder_name: string;
  /** The holder's CPF or CNPJ digits. */
  holder_identifier: string;
  active: boolean;
};

export type Schedule = {
  frequency: Schemas['ScheduleFrequency'];
  start_date: string;
  end_date: string | null;
  occurrences: number | null;
  amount: string;
};

export type AuthorizationStatus = Schemas['PaymentAuthorizationStatus'];

export type AuthorizationRecord = {
  id: string;
  payment_authorization_id: string;
  created_at: string;
  updated_at: string;
  status: AuthorizationStatus;
  status_reason: string | null;
  customer: string;
  beneficiary: string;
  institution: string;
  description: string;
  external_id: string | null;
  schedule: Schedule;
  currency: 'BRL';
  authorization_url: string | null;
  callback_url: string;
  expires_at: string;
  authorized_at: string | null;
  cancelled_at: string | null;
  next_charge_date: string | null;
};

export type ChargeStatus = Schemas['ChargeStatus'];

export type ChargeFailure = { code: string; message: string };

export type ChargeRecord = {
  id: string;
  charge_id: string;
  created_at: string;
  updated_at: string;
  payment_authorization: string | null;
  payment_intent: string | null;
  amount: string;
  currency: 'BRL';
  date: string;
  status: ChargeStatus;
  failure: ChargeFailure | null;
  /** PAY-CHARGE-RETRY: authorization charges only (IntentCharge has no `retries`). */
  retries?: number;
  paid_at: string | null;
  end_to_end_id: string | null;
  /** Which occurrence of the authorization's schedule (0 for the first, and for intent charges). */
  _occurrence: number;
  /** Attempts sent to the Pix system (the first one and each retry). */
  _attempts: number;
};

export type IntentStatus = Schemas['PaymentIntentStatus'];

export type IntentRecord = {
  id: string;
  created_at: string;
  updated_at: string;
  status: IntentStatus;
  amount: string;
  currency: 'BRL';
  description: string;
  provider: 'PIX';
  customer: string;
  beneficiary: string | null;
  pix_key: { type: string; value: string } | null;
  scheduled_date: string | null;
  authorization_url: string | null;
  external_id: string | null;
  cancelled_at: string | null;
  /** The intent's one charge, once the payer authorized it (choice). */
  _charge: string | null;
};

export type EnrollmentRecord = {
  id: string;
  enrollment_id: string;
  created_at: string;
  updated_at: string;
  status: Schemas['EnrollmentStatus'];
  customer: string;
  institution: string;
  platform: string;
  redirect_url: string | null;
  callback_url: string;
  expires_at: string;
  failure: { error: string; error_description: string } | null;
  /** The OAuth `state` issued in `redirect_url`, which complete-redirection must echo. */
  _state: string;
};

export type TransactionParty = {
  name: string;
  identifier: string;
  institution: string;
  agency: string;
  number: string;
};

export type TransactionRecord = {
  id: string;
  created_at: string;
  charge: string;
  type: 'INFLOW';
  amount: string;
  currency: 'BRL';
  status: 'SUCCEEDED' | 'RETURNED';
  beneficiary: TransactionParty & { bank_account: string };
  payer: TransactionParty;
  end_to_end_id: string;
};
