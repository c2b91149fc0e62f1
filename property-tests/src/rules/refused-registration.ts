/**
 * A registration the target refused (400) that the config did not give (a default, or one made from the
 * target's own institutions): no violation and nothing asserted; the run ends (unmet) naming where the
 * registration came from and how to give one that works. A refusal of the config's own registration
 * stays the caller's to judge.
 */
import type { HttpResponse } from '../http/http-client.js';
import { registrationHint } from '../target/registrations.js';
import type { Registration } from '../target/target-config.js';
import { describeAnswer } from './expect-response.js';
import { type SuiteContext, unmet } from './rule.js';

export function refusedRegistration(suite: SuiteContext, registration: Registration, response: HttpResponse) {
  if (response.status !== 400 || suite.fixtures.given(registration)) return;
  const kind = suite.fixtures.kindOf(registration) ?? 'link';
  unmet(
    `registering a link at ${suite.fixtures.describe(registration)} answered ${describeAnswer(response)}: ${registrationHint(kind)}`,
  );
}
