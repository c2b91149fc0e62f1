/**
 * Every rule of the suite, in report order: the cross-cutting rules, then one area after the other
 * (links, data, webhooks, payments: each area's index.ts lists its rule files), then the schema
 * conformance rows, one per operation.
 */
import type { ApiDocument } from '../../../openapi/document/api-document.js';
import { crossCuttingRules } from './cross-cutting/index.js';
import { dataRules } from './data/index.js';
import { linkRules } from './links/index.js';
import { modelRules } from './model/index.js';
import { paymentRules } from './payments/index.js';
import type { Rule } from './rule.js';
import { schemaConformanceRules } from './schema/operation-conformance.js';
import { webhookRules } from './webhooks/index.js';

export function allRules(document: ApiDocument): Rule[] {
  return [
    ...crossCuttingRules,
    ...linkRules,
    ...dataRules,
    ...modelRules,
    ...webhookRules,
    ...paymentRules,
    ...schemaConformanceRules(document),
  ];
}
