/** The data-area rules of the rule catalogue (openapi/rules.yaml), in its's order. */
import type { Rule } from '../rule.js';
import { accountDeleteCascade } from './ACCOUNT-DELETE-CASCADE.property.js';
import { dataDelete } from './DATA-DELETE.property.js';
import { dataDetail } from './DATA-DETAIL.property.js';
import { dataRetrieve } from './DATA-RETRIEVE.property.js';
import { employmentMetricsPrereq } from './EMPLOYMENT-METRICS-PREREQ.property.js';
import { exchangeHistory } from './EXCHANGE-HISTORY.property.js';
import { invoiceCancelled } from './INVOICE-CANCELLED.property.js';
import { range365 } from './RANGE-365.property.js';
import { taxRetentions500 } from './TAX-RETENTIONS-500.property.js';
import { taxReturnsMixed } from './TAX-RETURNS-MIXED.property.js';

export const dataRules: readonly Rule[] = [
  dataRetrieve,
  dataDetail,
  dataDelete,
  accountDeleteCascade,
  exchangeHistory,
  range365,
  taxRetentions500,
  taxReturnsMixed,
  employmentMetricsPrereq,
  invoiceCancelled,
];
