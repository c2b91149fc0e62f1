/**
 * RESP-DEPRECATED: the document marks deprecated members `deprecated: true` on owners, accounts,
 * balances and invoices and never makes them required (they may be absent); in the target's records a
 * deprecated member, when it comes, has the type its schema declares.
 */
import fc from 'fast-check';
import { describeErrors } from '../../../../openapi/document/document-ajv.js';
import { isObject, type JsonObject } from '../../../../openapi/document/json.js';
import { knownValues } from '../known-values.js';
import { defineRule, fail, isSkip, type SuiteContext, unmet } from '../rule.js';

/** The record schema and the list path of each resource the rule names. */
const RESOURCES = [
  { schema: 'Owner', list: '/api/owners/' },
  { schema: 'Account', list: '/api/accounts/' },
  { schema: 'Balance', list: '/api/br/balances/' },
  { schema: 'Invoice', list: '/api/invoices/' },
] as const;

type Resource = (typeof RESOURCES)[number];

function deprecatedMembers(suite: SuiteContext, name: string): [string, JsonObject][] {
  const schema = suite.document.schema(name);
  const properties = isObject(schema) && isObject(schema.properties) ? schema.properties : {};
  return Object.entries(properties).filter(
    (entry): entry is [string, JsonObject] => isObject(entry[1]) && entry[1].deprecated === true,
  );
}

function checkDocument(suite: SuiteContext, resource: Resource): [string, JsonObject][] {
  const members = deprecatedMembers(suite, resource.schema);
  if (members.length === 0) fail(`the document marks no member of ${resource.schema} deprecated`);
  const schema = suite.document.schema(resource.schema);
  const required = isObject(schema) && Array.isArray(schema.required) ? schema.required : [];
  const forced = members.filter(([name]) => required.includes(name)).map(([name]) => name);
  if (forced.length > 0)
    fail(
      `${resource.schema} requires deprecated members ${forced.join(', ')}; clients must not rely on them`,
    );
  return members;
}

export const respDeprecated = defineRule<Resource, Map<string, Record<string, string>>>({
  id: 'RESP-DEPRECATED',
  area: 'cross-cutting',
  over: (operation) => operation.method === 'GET' && RESOURCES.some((r) => r.list === operation.path),
  runs: 8,
  async prepare(suite, note) {
    const queries = new Map<string, Record<string, string>>();
    for (const resource of RESOURCES) {
      const list = suite.operations.find((op) => op.method === 'GET' && op.path === resource.list);
      if (!list) {
        note(`${resource.list} left out by the config: only the document is checked for ${resource.schema}`);
        continue;
      }
      await knownValues(suite, list, note);
      const link = await suite.fixtures.link(resource.list === '/api/invoices/' ? 'fiscalMx' : 'link');
      queries.set(resource.list, isSkip(link) ? {} : { link });
    }
    return queries;
  },
  arbitrary: () => fc.constantFrom(...RESOURCES),
  examples: () => [...RESOURCES],
  async check(resource, run, queries) {
    const members = checkDocument(run, resource);
    const query = queries.get(resource.list);
    if (!query) unmet(`${resource.list} left out by the config`);
    const answer = await run.http.request({ method: 'GET', url: resource.list, query });
    const records = isObject(answer.json) && Array.isArray(answer.json.results) ? answer.json.results : [];
    // A 200 without records (a catch-all `{}`) shows nothing of the deprecated members: not a pass.
    if (records.length === 0) unmet(`GET ${resource.list} answered ${answer.status} without records`);
    for (const record of records.filter(isObject)) {
      for (const [name, schema] of members) {
        if (!(name in record)) continue;
        const validate = run.document.ajv.compile(schema);
        if (!validate(record[name])) {
          fail(
            `${resource.list}: deprecated \`${name}\` came with a value its schema refuses: ${describeErrors(validate).join('; ')}`,
          );
        }
      }
    }
  },
});
