/** The payments (Brazil) rules of the rule catalogue (openapi/rules.yaml), in its's order: one file per rule ID. */
import type { Rule } from '../rule.js';
import { payAuthAuthorized } from './PAY-AUTH-AUTHORIZED.property.js';
import { payAuthCancelCutoff } from './PAY-AUTH-CANCEL-CUTOFF.property.js';
import { payAuthChargeCancelCutoff } from './PAY-AUTH-CHARGE-CANCEL-CUTOFF.property.js';
import { payAuthV2Required } from './PAY-AUTH-V2-REQUIRED.property.js';
import { payBankAccountDup } from './PAY-BANK-ACCOUNT-DUP.property.js';
import { payChargeRetry } from './PAY-CHARGE-RETRY.property.js';
import { payEnrollment } from './PAY-ENROLLMENT.property.js';
import { payIntentCancelCutoff } from './PAY-INTENT-CANCEL-CUTOFF.property.js';
import { payIntentConfigs } from './PAY-INTENT-CONFIGS.property.js';
import { payIntentPixPatch } from './PAY-INTENT-PIX-PATCH.property.js';
import { paySandbox } from './PAY-SANDBOX.property.js';
import { payVersionHeader } from './PAY-VERSION-HEADER.property.js';

export const paymentRules: readonly Rule[] = [
  payVersionHeader,
  payAuthV2Required,
  payAuthAuthorized,
  payAuthCancelCutoff,
  payAuthChargeCancelCutoff,
  payChargeRetry,
  payIntentConfigs,
  payIntentPixPatch,
  payIntentCancelCutoff,
  payBankAccountDup,
  payEnrollment,
  paySandbox,
];
