/**
 * `npm run check:openapi`: the project's checks of the bundled document (openapi/generated/), beyond
 * Redocly's lint: operations against the specification's list, rule IDs against the catalogue
 * (openapi/rules.yaml), project rules, examples, and no answer or request stricter than the provider's
 * published schema without a reason the spec gives (openapi/checks/provider-facts.json and
 * provider-differences.yaml).
 */
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { checkExamples } from '../openapi/checks/example-check.js';
import {
  checkOperations,
  parseOperationsTsv,
  SPECIFIED_OPERATIONS_PATH,
} from '../openapi/checks/operations-check.js';
import { checkProjectRules } from '../openapi/checks/project-rules-check.js';
import { loadDifferenceReasons, loadSpecSections } from '../openapi/checks/provider-differences.js';
import { loadProviderFacts } from '../openapi/checks/provider-facts.js';
import { checkProviderStrictness, strictnessFailures } from '../openapi/checks/provider-strictness-check.js';
import { checkRuleReferences } from '../openapi/checks/rule-references-check.js';
import type { JsonObject } from '../openapi/document/json.js';
import { RULES } from '../openapi/generated/rules.js';

const root = resolve(import.meta.dirname, '..');
const read = (path: string) => readFileSync(path, 'utf8');
const api = JSON.parse(read(join(root, 'openapi/generated/openapi.json'))) as JsonObject;
const admin = JSON.parse(read(join(root, 'openapi/generated/admin.json'))) as JsonObject;

const failures: string[] = [];
const operations = checkOperations(api, parseOperationsTsv(read(SPECIFIED_OPERATIONS_PATH)));
for (const key of operations.missing) failures.push(`operation missing from the document: ${key}`);
for (const key of operations.unexpected) failures.push(`operation not in the specification's list: ${key}`);
const rules = checkRuleReferences(
  [api, admin],
  RULES.map((rule) => rule.id),
);
for (const id of rules.unreferenced) failures.push(`rule never referenced by the document: ${id}`);
for (const { id, location } of rules.unknown) failures.push(`unknown rule ID ${id} at ${location}`);
for (const v of [
  ...checkProjectRules(api),
  ...checkProjectRules(admin).filter((x) => x.rule !== 'error-responses'),
]) {
  failures.push(`${v.operation}: ${v.rule}: ${v.detail}`);
}
let examplesChecked = 0;
for (const document of [api, admin]) {
  const examples = checkExamples(document);
  examplesChecked += examples.checked;
  for (const f of examples.failures) failures.push(`invalid example ${f.location}: ${f.problems.join('; ')}`);
}
const strictness = checkProviderStrictness(api, loadProviderFacts(), loadDifferenceReasons(), {
  rules: RULES.map(({ id, choice }) => ({ id, choice })),
  sections: loadSpecSections(),
});
failures.push(...strictnessFailures(strictness));
const schemaCount = Object.keys((api.components as { schemas?: object } | undefined)?.schemas ?? {}).length;
console.log(
  `openapi.yaml: ${operations.documented} operations, ${schemaCount} schemas, ${Object.keys(api.webhooks ?? {}).length} webhooks; ` +
    `rules referenced ${rules.referenced}/${rules.catalogued}; ${examplesChecked} examples validated (Ajv 2020-12, strict).`,
);
console.log(
  `Against the provider's facts (${strictness.operations} shared operations): ${strictness.stricter} members stricter, ` +
    `${strictness.cited} with a cited reason, ${strictness.pending} allowed only until the simulator's output changes, ` +
    `${strictness.unexplained.length} unexplained.`,
);
for (const failure of failures) console.error(`  ✗ ${failure}`);
console.log(failures.length === 0 ? 'OpenAPI checks passed.' : `${failures.length} OpenAPI check failures.`);
process.exitCode = failures.length === 0 ? 0 : 1;
