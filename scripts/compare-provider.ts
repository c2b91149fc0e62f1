/**
 * `npm run compare:provider`: for every operation this document shares with the provider's published
 * schema (same method and path), lists per status each member that differs: present on one side only,
 * another type, format, enum, nullability or requiredness; then the request body members and the query
 * parameters. It reads the provider's facts from `../shared/reference/` when that folder is there (it is
 * not part of the project, and `npm test` never runs this script); without it, it says so and exits 0.
 * Differences kept on purpose are explained in `openapi/checks/provider-differences.yaml` (ours): the
 * unexplained ones are listed first, then the explained ones with their reason, then the counts.
 */
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parse as parseYaml } from 'yaml';

type Json = Record<string, unknown>;
const ROOT = resolve(import.meta.dirname, '..');
const REFERENCE = resolve(ROOT, '../shared/reference/provider-schemas-1.35.0.json');
const OURS = resolve(ROOT, 'openapi/generated/openapi.json');
const EXPLAINED = resolve(ROOT, 'openapi/checks/provider-differences.yaml');
const MAX_DEPTH = 6;

/** One member's facts, flattened: `results[].account.category` -> its type, format, enum... */
interface Member {
  types: string[];
  format?: string;
  enum?: string[];
  required: boolean;
}

const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

function resolver(components: Json, prefix: string) {
  return function deref(schema: unknown, seen = new Set<string>()): Json {
    let current = schema;
    while (isObject(current) && typeof current.$ref === 'string') {
      const ref = current.$ref;
      if (seen.has(ref)) return {};
      seen.add(ref);
      current = components[ref.slice(prefix.length)];
    }
    return isObject(current) ? current : {};
  };
}

function typesOf(schema: Json): string[] {
  const raw = Array.isArray(schema.type) ? schema.type.map(String) : schema.type ? [String(schema.type)] : [];
  if (schema.nullable === true || (Array.isArray(schema.enum) && schema.enum.includes(null)))
    raw.push('null');
  if (schema.const !== undefined && raw.length === 0) raw.push(typeof schema.const);
  return [...new Set(raw.map((type) => (type === 'integer' ? 'number' : type)))].sort();
}

/** Every member of `schema`, by path; branches of oneOf/anyOf/allOf are merged (best effort). */
function flatten(deref: (s: unknown) => Json, root: unknown): Map<string, Member> {
  const members = new Map<string, Member>();
  const walk = (input: unknown, path: string, required: boolean, depth: number) => {
    const schema = deref(input);
    const branches = [schema.allOf, schema.oneOf, schema.anyOf].flatMap((b) => (Array.isArray(b) ? b : []));
    for (const branch of branches) walk(branch, path, required, depth);
    if (path !== '') {
      const before = members.get(path);
      const enumValues = Array.isArray(schema.enum) ? schema.enum.filter((v) => v !== null).map(String) : [];
      const member: Member = {
        types: [...new Set([...(before?.types ?? []), ...typesOf(schema)])].sort(),
        required: (before?.required ?? false) || required,
        ...((schema.format ?? before?.format) && { format: String(schema.format ?? before?.format) }),
        ...((enumValues.length > 0 || before?.enum) && {
          enum: [...new Set([...(before?.enum ?? []), ...enumValues])].sort(),
        }),
      };
      members.set(path, member);
    }
    if (depth >= MAX_DEPTH) return;
    if (isObject(schema.properties)) {
      const needed = new Set(Array.isArray(schema.required) ? schema.required.map(String) : []);
      for (const [name, property] of Object.entries(schema.properties))
        walk(property, path === '' ? name : `${path}.${name}`, needed.has(name), depth + 1);
    }
    if (schema.items !== undefined) walk(schema.items, `${path}[]`, false, depth + 1);
  };
  walk(root, '', false, 0);
  return members;
}

const describe = (m: Member) =>
  `${m.types.join('|') || 'any'}${m.format ? ` (${m.format})` : ''}${m.enum ? ` [${m.enum.join(', ')}]` : ''}${m.required ? ' required' : ''}`;

/** The differences between two flattened schemas, one line each. */
export function differences(ours: Map<string, Member>, theirs: Map<string, Member>): string[] {
  const lines: string[] = [];
  for (const [path, their] of theirs) {
    const our = ours.get(path);
    if (our === undefined) {
      lines.push(`${path}: only the provider's (${describe(their)})`);
      continue;
    }
    const problems: string[] = [];
    const ourTypes = our.types.filter((t) => t !== 'null');
    const theirTypes = their.types.filter((t) => t !== 'null');
    if (ourTypes.length && theirTypes.length && ourTypes.join() !== theirTypes.join())
      problems.push(`type ${ourTypes.join('|')} vs ${theirTypes.join('|')}`);
    if (our.types.includes('null') !== their.types.includes('null'))
      problems.push(`nullable ${our.types.includes('null')} vs ${their.types.includes('null')}`);
    if ((our.format ?? '') !== (their.format ?? ''))
      problems.push(`format ${our.format ?? 'none'} vs ${their.format ?? 'none'}`);
    const missing = (their.enum ?? []).filter((v) => our.enum && !our.enum.includes(v));
    if (missing.length) problems.push(`enum lacks ${missing.join(', ')}`);
    if (our.required !== their.required) problems.push(`required ${our.required} vs ${their.required}`);
    if (problems.length) lines.push(`${path}: ${problems.join('; ')}`);
  }
  for (const [path, our] of ours) if (!theirs.has(path)) lines.push(`${path}: only ours (${describe(our)})`);
  return lines;
}

function queryNames(deref: (s: unknown) => Json, parameters: unknown): Set<string> {
  const list = Array.isArray(parameters) ? parameters : [];
  return new Set(
    list
      .map((p) => deref(p))
      .filter((p) => p.in === 'query')
      .map((p) => String(p.name)),
  );
}

/** One kept difference: a pattern over `METHOD /path/ <status|request|query> <member>: <difference>`. */
interface Explanation {
  readonly pattern: RegExp;
  readonly reason: string;
  used: number;
}

function loadExplanations(): Explanation[] {
  const entries = parseYaml(readFileSync(EXPLAINED, 'utf8')) as { match: string; reason: string }[];
  return entries.map(({ match, reason }) => ({ pattern: new RegExp(match), reason, used: 0 }));
}

function main(): void {
  if (!existsSync(REFERENCE)) {
    console.log(`No provider reference at ${REFERENCE}: nothing to compare.`);
    return;
  }
  const reference = JSON.parse(readFileSync(REFERENCE, 'utf8')) as Json;
  const ours = JSON.parse(readFileSync(OURS, 'utf8')) as Json;
  const theirDeref = resolver(reference.components as Json, '#/components/');
  const ourDeref = resolver((ours.components as Json).schemas as Json, '#/components/schemas/');
  const ourParams = resolver((ours.components as Json).parameters as Json, '#/components/parameters/');
  const explanations = loadExplanations();
  const unexplained: string[] = [];
  const explained = new Map<Explanation, string[]>();
  let total = 0;
  for (const [key, operation] of Object.entries(reference.operations as Record<string, Json>)) {
    const [method, path] = key.split(' ') as [string, string];
    const item = (ours.paths as Json)[path.replaceAll('{}', '{id}')] as Json | undefined;
    const ourOperation = item?.[method.toLowerCase()] as Json | undefined;
    if (ourOperation === undefined) {
      console.log(`\n${key}: not in this document`);
      continue;
    }
    const out: string[] = [];
    const responses = (ourOperation.responses ?? {}) as Json;
    for (const [status, schema] of Object.entries(operation.responses as Json)) {
      const ourResponse = responses[status] as Json | undefined;
      if (ourResponse === undefined) {
        out.push(`  ${status}: only the provider's status`);
        continue;
      }
      const ourSchema = ((ourResponse.content as Json | undefined)?.['application/json'] as Json | undefined)
        ?.schema;
      if (ourSchema === undefined) continue;
      // Error arrays: ours is the one ERR-BODY list for every 4xx/5xx; compare the 2xx bodies only.
      if (Number(status) >= 400) continue;
      for (const line of differences(flatten(ourDeref, ourSchema), flatten(theirDeref, schema)))
        out.push(`  ${status} ${line}`);
    }
    for (const status of Object.keys(responses))
      if (!(status in (operation.responses as Json)) && Number(status) < 400)
        out.push(`  ${status}: only our status`);
    if (operation.requestBody !== undefined) {
      const body = (
        ((ourOperation.requestBody as Json | undefined)?.content as Json | undefined)?.['application/json'] as
          | Json
          | undefined
      )?.schema;
      for (const line of differences(
        flatten(ourDeref, body ?? {}),
        flatten(theirDeref, operation.requestBody),
      ))
        out.push(`  request ${line}`);
    }
    const theirQuery = queryNames(theirDeref, operation.parameters);
    const ourQuery = queryNames(ourParams, ourOperation.parameters);
    for (const name of theirQuery) if (!ourQuery.has(name)) out.push(`  query ${name}: only the provider's`);
    for (const name of ourQuery) if (!theirQuery.has(name)) out.push(`  query ${name}: only ours`);
    total += out.length;
    for (const line of out) {
      const text = `${key} ${line.trim()}`;
      const explanation = explanations.find((e) => e.pattern.test(text));
      if (explanation === undefined) unexplained.push(text);
      else {
        explanation.used++;
        explained.set(explanation, [...(explained.get(explanation) ?? []), text]);
      }
    }
  }
  console.log(`Unexplained differences (${unexplained.length}):`);
  for (const line of unexplained) console.log(`  ${line}`);
  console.log(`\nExplained differences (${total - unexplained.length}), by reason:`);
  for (const [explanation, lines] of explained) {
    console.log(`\n  ${explanation.reason} (${lines.length})`);
    for (const line of lines) console.log(`    ${line}`);
  }
  for (const e of explanations) if (e.used === 0) console.log(`\nUnused explanation: ${e.pattern.source}`);
  const operations = Object.keys(reference.operations as Json).length;
  console.log(`\n${total} differences over ${operations} shared operations.`);
  console.log(`${unexplained.length} unexplained, ${total - unexplained.length} explained.`);
}

main();
