/**
 * Every error the simulator answers is a value from this catalogue, rendered once by the serializer as
 * the API's error array `[{request_id, message, code, field?}]` (ERR-BODY).
 */
export const ERROR_CATALOGUE = {
  /** What Node's HTTP parser or the adapter refuses before the core sees a request (ERR-BODY still). */
  bad_request: { status: 400, message: 'The HTTP request is malformed.' },
  required: { status: 400, message: 'This field is required.' },
  invalid: { status: 400, message: 'This value is not valid.' },
  unknown_field: { status: 400, message: 'This field is not accepted.' },
  malformed_json: { status: 400, message: 'The request body is not valid JSON.' },
  invalid_range: { status: 400, message: 'The requested range is not valid.' },
  invalid_token: { status: 400, message: 'The MFA token is not valid.' },
  session_expired: { status: 400, message: 'The MFA session is expired or unknown.' },
  invalid_credentials: { status: 400, message: 'Invalid credentials provided to login to the institution.' },
  /** LINK-MFA-428: the link's registration waits for its MFA token. */
  unconfirmed_link: {
    status: 400,
    message: 'The link has not been confirmed: resume its registration first.',
  },
  /** DATA-RETRIEVE: `x-applies-to` of the retrieval does not include the link's institution. */
  unsupported_resource: { status: 400, message: "The link's institution does not offer this resource." },
  /** EMPLOYMENT-METRICS-PREREQ: another retrieval must come first. */
  prerequisite_missing: { status: 400, message: 'A retrieval this one depends on has not been made.' },
  invalid_identifier: { status: 400, message: 'The CPF or CNPJ check digits are not valid.' },
  duplicated: { status: 400, message: 'An active record with these details already exists.' },
  invalid_status: { status: 400, message: 'This operation is not allowed in the current status.' },
  cancel_cutoff_passed: {
    status: 400,
    message: 'The cancellation cutoff for this payment has passed; the payment will be processed.',
  },
  charge_not_failed: { status: 400, message: 'Only a failed charge can be retried.' },
  retry_limit_reached: { status: 400, message: 'This charge has used all its retries.' },
  invalid_state: { status: 400, message: 'The state does not match the one issued for this enrollment.' },
  /** CLIENT-TOO-MANY-SESSIONS (choice: 400, a 40x the spec names as the one retried like a 50x). */
  too_many_sessions: {
    status: 400,
    message:
      'Impossible to log in: the end-user has a session open with the institution from another browser.',
  },
  authentication_failed: { status: 401, message: 'Credentials not valid.' },
  payment_initiation_unavailable: {
    status: 403,
    message: 'Payment initiation is not available in the sandbox environment.',
  },
  not_found: { status: 404, message: 'Not found.' },
  method_not_allowed: { status: 405, message: 'Method not allowed.' },
  request_timeout: { status: 408, message: 'The request timed out and was terminated by the server.' },
  refresh_cooldown: { status: 409, message: 'This link was refreshed recently.' },
  /** The control API's judge operations on a simulator started without the judge (`--no-judge`). */
  judge_off: { status: 409, message: 'The client judge is off.' },
  /** One snapshot import at a time per tenant, across replicas (its body is never read meanwhile). */
  import_in_progress: {
    status: 409,
    message: 'A snapshot import of this tenant is running: retry once it is done.',
  },
  payload_too_large: { status: 413, message: 'The request body is too large.' },
  uri_too_long: { status: 414, message: 'The request target is too long.' },
  /**
   * A `Host` this simulator does not answer for (DNS rebinding): RFC 9110 15.5.20, the request was
   * directed at a server not configured for that authority (not a credentials problem: 403; nor
   * malformed: 400).
   */
  misdirected_request: { status: 421, message: 'This simulator does not answer for that host.' },
  unsupported_media_type: { status: 415, message: 'The request body must be application/json.' },
  token_required: { status: 428, message: 'A MFA token is required by the institution to login.' },
  too_many_requests: { status: 429, message: 'Too many deletions.' },
  request_header_fields_too_large: { status: 431, message: 'The request headers are too large.' },
  internal_server_error: { status: 500, message: 'Internal server error.' },
  /** The simulator's store (Redis) cannot be reached: the step that needed it was not made. */
  store_unavailable: { status: 500, message: "The simulator's store cannot be reached." },
  /** The store did not answer in time: the step was sent and may have happened (core/store-errors.ts). */
  store_effect_unknown: {
    status: 500,
    message: "The simulator's store did not answer in time: this request's effect is unknown.",
  },
} as const satisfies Record<string, { status: number; message: string }>;

export type ErrorCode = keyof typeof ERROR_CATALOGUE;

/** One problem; `message` overrides the catalogue's when the case needs more words. */
export interface ApiError {
  code: ErrorCode;
  message?: string;
  field?: string;
  /** Extra members of the error item (the 428's session, expiry, link, token_generation_data). */
  extra?: Record<string, unknown>;
  /** The rule ID that produced it, for the request log (never rendered; the client judge reads it). */
  rule?: string;
}

/** One or more problems of one request; all share the status of the first. */
export type ApiErrors = readonly [ApiError, ...ApiError[]];

export const apiError = (code: ErrorCode, details: Omit<ApiError, 'code'> = {}): ApiErrors => [
  { code, ...details },
];

export function statusOf(errors: ApiErrors): number {
  return ERROR_CATALOGUE[errors[0].code].status;
}
