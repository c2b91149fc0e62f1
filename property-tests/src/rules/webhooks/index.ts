/**
 * The webhooks-area rules: the event rules of the links area of the rule catalogue (LINK-ACCESS-MODE-*,
 * LINK-PATCH-NO-UPDATE, LINK-INVALID-CREDENTIALS, LINK-TOKEN-REQUIRED), then WEBHOOK-*, in the
 * catalogue's order.
 */
import type { Rule } from '../rule.js';
import { linkAccessModeDown } from './LINK-ACCESS-MODE-DOWN.property.js';
import { linkAccessModeUp } from './LINK-ACCESS-MODE-UP.property.js';
import { linkInvalidCredentials } from './LINK-INVALID-CREDENTIALS.property.js';
import { linkPatchNoUpdate } from './LINK-PATCH-NO-UPDATE.property.js';
import { linkTokenRequired } from './LINK-TOKEN-REQUIRED.property.js';
import { webhookBearer } from './WEBHOOK-BEARER.property.js';
import { webhookDaily } from './WEBHOOK-DAILY.property.js';
import { webhookFollowUp } from './WEBHOOK-FOLLOW-UP.property.js';
import { webhookHistorical } from './WEBHOOK-HISTORICAL.property.js';
import { webhookRecurrentOnly } from './WEBHOOK-RECURRENT-ONLY.property.js';
import { webhookRetry } from './WEBHOOK-RETRY.property.js';
import { webhookSandbox } from './WEBHOOK-SANDBOX.property.js';
import { webhookShape } from './WEBHOOK-SHAPE.property.js';

export const webhookRules: readonly Rule[] = [
  linkAccessModeUp,
  linkAccessModeDown,
  linkPatchNoUpdate,
  linkInvalidCredentials,
  linkTokenRequired,
  webhookShape,
  webhookBearer,
  webhookRetry,
  webhookRecurrentOnly,
  webhookSandbox,
  webhookHistorical,
  webhookDaily,
  webhookFollowUp,
];
