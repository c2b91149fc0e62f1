/**
 * LINK-TOKEN-REQUIRED: a recurrent link of a generated kind, switched to need a token at its next daily
 * refresh (control API scenario), refreshed through the control API or the clock: the link reads
 * `token_required` and LINK `token_required` arrives without a `webhook_id`, with `data` `error_code`,
 * `error_message`, `status` 428, `session`, `expiry` and `token_generation_data` {instructions, type,
 * value} (failed-login.ts).
 */
import { defineRule } from '../rule.js';
import { checkFailedLogin, type FailedLoginInput, failedLoginInputs } from './failed-login.js';

export const linkTokenRequired = defineRule<FailedLoginInput>({
  id: 'LINK-TOKEN-REQUIRED',
  area: 'webhooks',
  operations: ['registerLink'],
  tenantWide: 'clock',
  needs: ['control-api'],
  runs: 3,
  arbitrary: failedLoginInputs,
  check: (input, run) =>
    checkFailedLogin(run, input, {
      scenario: 'next_refresh_token_required',
      code: 'token_required',
      status: 428,
      linkStatus: 'token_required',
      webhookId: false,
    }),
});
