/** Provider verification: any base URL against pacts from files or a Pact Broker. */
export type { ControlApiSupport, ProviderKey } from './provider-api.js';
export type { LinkCredentials } from './provider-states.js';
export { PROVIDER_STATES } from './provider-states.js';
export type { InteractionOutcome, OutcomeStatus, VerificationReport } from './verification-report.js';
export { describeVerification, verificationJUnit } from './verification-report.js';
export type { BrokerOptions, VerifyOptions } from './verify-pacts.js';
export {
  DEFAULT_CREDENTIALS,
  DEFAULT_KEY,
  DEFAULT_PROVIDER_NAME,
  DEFAULT_SELECTORS,
  REFERENCE_PACTS,
  VerificationError,
  verifyPacts,
} from './verify-pacts.js';
