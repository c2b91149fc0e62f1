export type { OfkitClientOptions } from './create-client.js';
export { createOfkitClient, withRetries } from './create-client.js';
export {
  isTooManySessions,
  RETRY_WAITS_SECONDS,
  retryWaitSeconds,
  TOO_MANY_SESSIONS_CODE,
} from './retry-policy.js';
export type {
  HttpMethod,
  MfaPause,
  OfkitClient,
  OfkitMethod,
  OfkitResult,
  PathsWith,
  ResumablePath,
} from './typed-result.js';
