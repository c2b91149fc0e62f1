/**
 * The data resources as the document describes them (the spec's conventions table for `P`): a retrieval
 * POST `P/` that names the institutions serving it (`x-applies-to`), and where the document has them the
 * list GET `P/`, the detail GET `P/{id}/` and the DELETE `P/{id}/`; plus the fixture institution that
 * serves each one and the shape of its retrieval body (DATA-RETRIEVE).
 */
import { isObject, type JsonObject } from '../../../../openapi/document/json.js';
import type { ApiOperation } from '../../../../openapi/document/operation-index.js';
import type { FixtureKind } from '../../target/target-config.js';
import { fixtureKindFor } from '../known-values.js';
import type { SuiteContext } from '../rule.js';

/** The retrieval body's range members: `date_from`/`date_to` (days) or `year_from`/`year_to`. */
export interface RangeMembers {
  from: string;
  to: string;
  unit: 'day' | 'year';
  /** Whether the body must carry them. */
  required: boolean;
}

export interface DataResource {
  path: string;
  retrieve: ApiOperation;
  list: ApiOperation | undefined;
  detail: ApiOperation | undefined;
  remove: ApiOperation | undefined;
  kind: FixtureKind;
  /** Required members of the body other than `link` and the range, with the document's example value. */
  fixed: JsonObject;
  /** Required members with an enum (`type`): each value is a retrieval of its own. */
  enums: [string, string[]][];
  range: RangeMembers | null;
  /** `x-ordered-range`: the members whose `to` before `from` the retrieval refuses with 400. */
  ordered: Omit<RangeMembers, 'required'> | null;
  /** The body has `save_data` (false: the records are returned, not kept). */
  saveData: boolean;
}

const PROTECTED = new Set(['link', 'save_data']);

function bodyShape(suite: SuiteContext, retrieve: ApiOperation) {
  const schema = suite.document.resolve(retrieve.body?.schema);
  const properties = isObject(schema) && isObject(schema.properties) ? schema.properties : {};
  const required = isObject(schema) && Array.isArray(schema.required) ? schema.required.map(String) : [];
  return { properties, required };
}

function rangeMembers(properties: JsonObject, required: string[]): RangeMembers | null {
  for (const prefix of ['date', 'year']) {
    const from = `${prefix}_from`;
    const to = `${prefix}_to`;
    const schema = properties[from];
    if (!isObject(schema) || !(to in properties)) continue;
    const unit = schema.type === 'integer' ? 'year' : 'day';
    return { from, to, unit, required: required.includes(from) || required.includes(to) };
  }
  return null;
}

/** `x-ordered-range: {from, to}` of a retrieval; a `year_*` pair counts years, any other days. */
function orderedMembers(retrieve: ApiOperation): DataResource['ordered'] {
  const declared = retrieve.raw['x-ordered-range'];
  if (!isObject(declared) || typeof declared.from !== 'string' || typeof declared.to !== 'string')
    return null;
  return { from: declared.from, to: declared.to, unit: declared.from.startsWith('year') ? 'year' : 'day' };
}

function describe(suite: SuiteContext, retrieve: ApiOperation): DataResource {
  const path = retrieve.path;
  const item = new RegExp(`^${path.replace(/[.*+?^$()|[\]\\]/g, '\\$&')}\\{[^}]+\\}/$`);
  const find = (method: string) => suite.operations.find((op) => op.method === method && item.test(op.path));
  const { properties, required } = bodyShape(suite, retrieve);
  const range = rangeMembers(properties, required);
  const example = isObject(retrieve.body?.example) ? retrieve.body.example : {};
  const fixed: JsonObject = {};
  const enums: [string, string[]][] = [];
  for (const name of required) {
    if (PROTECTED.has(name) || name === range?.from || name === range?.to) continue;
    const schema = suite.document.resolve(properties[name]);
    // A nullable enum lists null too: the values to draw are its strings (null asks for every value).
    if (isObject(schema) && Array.isArray(schema.enum))
      enums.push([name, schema.enum.filter((value): value is string => typeof value === 'string')]);
    else if (example[name] !== undefined) fixed[name] = example[name];
  }
  return {
    path,
    retrieve,
    list: suite.operations.find((op) => op.method === 'GET' && op.path === path),
    detail: find('GET'),
    remove: find('DELETE'),
    kind: fixtureKindFor(suite, path),
    fixed,
    enums,
    range,
    ordered: orderedMembers(retrieve),
    saveData: 'save_data' in properties,
  };
}

/** A data retrieval: POST on a collection that names the institutions serving it (`x-applies-to`). */
export const isDataRetrieval = (op: ApiOperation) =>
  op.method === 'POST' && !op.path.includes('{') && isObject(op.raw['x-applies-to']);

/** Every data resource of the run's scope. */
export function dataResources(suite: SuiteContext): DataResource[] {
  return suite.operations.filter(isDataRetrieval).map((retrieve) => describe(suite, retrieve));
}

/** A number the document states for a retrieval (`x-max-range-days`...), on the operation or its body. */
export function documentNumber(suite: SuiteContext, operation: ApiOperation, name: string): number | null {
  const body = suite.document.resolve(operation.body?.schema);
  const value = operation.raw[name] ?? (isObject(body) ? body[name] : undefined);
  return typeof value === 'number' ? value : null;
}

/** The retrievals whose operation lists `ruleId` in `x-rules`. */
export function resourcesOfRule(suite: SuiteContext, ruleId: string): DataResource[] {
  return dataResources(suite).filter((resource) => {
    const rules = resource.retrieve.raw['x-rules'];
    return Array.isArray(rules) && rules.includes(ruleId);
  });
}
