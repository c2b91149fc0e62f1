/** The links-area rules of the rule catalogue (openapi/rules.yaml), in its's order. */

import type { Rule } from '../rule.js';
import { deleteRateLimit } from './DELETE-RATE-LIMIT.property.js';
import { linkDeleteAsync } from './LINK-DELETE-ASYNC.property.js';
import { linkDeleteSync } from './LINK-DELETE-SYNC.property.js';
import { linkMfa428 } from './LINK-MFA-428.property.js';
import { linkPutCredentials } from './LINK-PUT-CREDENTIALS.property.js';
import { linkRefresh202 } from './LINK-REFRESH-202.property.js';
import { linkRefreshCooldown } from './LINK-REFRESH-COOLDOWN.property.js';
import { linkRegister } from './LINK-REGISTER.property.js';
import { tokenWidget } from './TOKEN-WIDGET.property.js';

export const linkRules: readonly Rule[] = [
  linkRegister,
  linkMfa428,
  linkPutCredentials,
  linkDeleteSync,
  linkDeleteAsync,
  linkRefresh202,
  linkRefreshCooldown,
  deleteRateLimit,
  tokenWidget,
];
