/**
 * LINK-INVALID-CREDENTIALS: a recurrent link of a generated kind, switched to fail its next daily refresh
 * with invalid credentials (control API scenario), refreshed through the control API or the clock: the
 * link reads `invalid` and LINK `invalid_credentials` arrives with a `webhook_id` and `data`
 * `error_code`, `error_message` and `status` 400 (failed-login.ts).
 */
import { defineRule } from '../rule.js';
import { checkFailedLogin, type FailedLoginInput, failedLoginInputs } from './failed-login.js';

export const linkInvalidCredentials = defineRule<FailedLoginInput>({
  id: 'LINK-INVALID-CREDENTIALS',
  area: 'webhooks',
  operations: ['registerLink'],
  tenantWide: 'clock',
  needs: ['control-api'],
  runs: 3,
  arbitrary: failedLoginInputs,
  check: (input, run) =>
    checkFailedLogin(run, input, {
      scenario: 'next_refresh_invalid_credentials',
      code: 'invalid_credentials',
      status: 400,
      linkStatus: 'invalid',
      webhookId: true,
    }),
});
