/** Pacts checked against the OpenAPI document: the client team's gate when no provider is at hand. */
export type { CheckSpecOptions, CheckSpecReport, InteractionVerdict } from './check-pacts.js';
export { checkPacts, DEFAULT_DOCUMENT } from './check-pacts.js';
export { checkSpecJUnit, describeCheckSpec } from './check-spec-report.js';
export type { PactInteraction } from './pact-file.js';
export { loadPacts } from './pact-file.js';
