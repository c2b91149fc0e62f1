/**
 * Reads the situations and the checklist golive ships (situations.yaml, checklist.yaml beside this file,
 * copied to dist/ by the build): every member checked for its shape and defaulted once, then frozen. A
 * file that does not hold its shape is a mistake of ours, said member by member (CatalogueError).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import type {
  Catalogue,
  ChecklistItem,
  FaultConfig,
  MetCondition,
  ScenarioConfig,
  Situation,
  SituationConfig,
} from './catalogue-types.js';

export const SITUATIONS_FORMAT = 'ofkit-golive-situations/1';
export const CHECKLIST_FORMAT = 'ofkit-golive-checklist/1';

export class CatalogueError extends Error {
  override name = 'CatalogueError';
}

type Json = Record<string, unknown>;

/** One member's reader: the value at `where`, or a CatalogueError naming it. */
function fail(where: string, wants: string): never {
  throw new CatalogueError(`${where}: wants ${wants}`);
}
const object = (value: unknown, where: string): Json =>
  value !== null && typeof value === 'object' && !Array.isArray(value)
    ? (value as Json)
    : fail(where, 'an object');
const text = (value: unknown, where: string): string =>
  typeof value === 'string' && value.trim() !== '' ? value : fail(where, 'a string');
const list = (value: unknown, where: string): unknown[] =>
  value === undefined ? [] : Array.isArray(value) ? value : fail(where, 'a list');
const texts = (value: unknown, where: string): string[] =>
  list(value, where).map((item, index) => text(item, `${where}[${index}]`));
const count = (value: unknown, where: string): number =>
  Number.isInteger(value) && (value as number) >= 1 ? (value as number) : fail(where, 'a count of 1 or more');

function fault(value: unknown, where: string): FaultConfig {
  const entry = object(value, where);
  const status = entry.status;
  if (status !== 400 && status !== 408 && status !== 500) fail(`${where}.status`, '400, 408 or 500');
  return {
    operation: text(entry.operation, `${where}.operation`),
    status,
    count: count(entry.count, `${where}.count`),
  };
}

function scenario(value: unknown, where: string): ScenarioConfig {
  const entry = object(value, where);
  const times = entry.count === null ? null : count(entry.count, `${where}.count`);
  return { scenario: text(entry.scenario, `${where}.scenario`), count: times };
}

function clockStep(value: unknown, where: string): SituationConfig['clock'][number] {
  const step = object(value, where);
  if (step.freeze === true && Object.keys(step).length === 1) return { freeze: true };
  const seconds = step.advance_seconds;
  if (typeof seconds === 'number' && seconds > 0 && Object.keys(step).length === 1)
    return { advance_seconds: seconds };
  return fail(where, '{ freeze: true } or { advance_seconds: N }');
}

/** The probes, and the deliveries' hold and order (the simulator's bounds: 0 to 86400 s, interleaved held). */
function webhooksConfig(value: unknown, where: string): SituationConfig['webhooks'] {
  const webhooks = object(value ?? {}, where);
  const delay = webhooks.delivery_delay_seconds;
  const order = webhooks.delivery_order;
  if (delay !== undefined && !(typeof delay === 'number' && delay >= 0 && delay <= 86_400))
    fail(`${where}.delivery_delay_seconds`, 'seconds from 0 to 86400');
  if (order !== undefined && order !== 'raised' && order !== 'interleaved')
    fail(`${where}.delivery_order`, 'raised or interleaved');
  if (order === 'interleaved' && !delay) fail(`${where}.delivery_order`, 'a delivery_delay_seconds above 0');
  return {
    duplicates: webhooks.duplicates === true,
    forged: webhooks.forged === true,
    ...(delay !== undefined && { delivery_delay_seconds: delay as number }),
    ...(order !== undefined && { delivery_order: order as 'raised' | 'interleaved' }),
  };
}

/** `recurrent_life: { days: N }`: the bounds of `POST /_ofkit/recurrent-lives/` (4 to 90 days). */
function recurrentLife(value: unknown, where: string): { recurrent_life?: { days: number } } {
  if (value === undefined) return {};
  const days = object(value, where).days;
  if (!(Number.isInteger(days) && (days as number) >= 4 && (days as number) <= 90))
    fail(`${where}.days`, 'a number of days from 4 to 90');
  return { recurrent_life: { days: days as number } };
}

function simulatorConfig(value: unknown, where: string): SituationConfig {
  const config = object(value, where);
  const environment = config.environment;
  if (environment !== 'production' && environment !== 'sandbox')
    fail(`${where}.environment`, 'production or sandbox');
  return {
    seed: text(config.seed, `${where}.seed`),
    environment,
    faults: list(config.faults, `${where}.faults`).map((f, i) => fault(f, `${where}.faults[${i}]`)),
    scenarios: list(config.scenarios, `${where}.scenarios`).map((s, i) =>
      scenario(s, `${where}.scenarios[${i}]`),
    ),
    webhooks: webhooksConfig(config.webhooks, `${where}.webhooks`),
    clock: list(config.clock, `${where}.clock`).map((step, i) => clockStep(step, `${where}.clock[${i}]`)),
    ...(config.storm === true && { storm: true }),
    ...recurrentLife(config.recurrent_life, `${where}.recurrent_life`),
  };
}

/** The conditions that are a flag alone, each as read. */
const FLAG_CONDITIONS: Readonly<Record<string, MetCondition>> = {
  list_read_to_the_end: { list_read_to_the_end: true },
  held_deliveries_delivered: { held_deliveries_delivered: true },
  life_played_to_the_end: { life_played_to_the_end: true },
};

function condition(value: unknown, where: string): MetCondition {
  const entry = object(value, where);
  if (entry.exercised !== undefined) return { exercised: text(entry.exercised, `${where}.exercised`) };
  for (const [flag, read] of Object.entries(FLAG_CONDITIONS))
    if (entry[flag] !== undefined) {
      if (entry[flag] !== true) fail(`${where}.${flag}`, 'true');
      return { ...read };
    }
  const answered = object(entry.answered, `${where}.answered`);
  const status = list(answered.status, `${where}.answered.status`).map((s, i) =>
    Number.isInteger(s) ? (s as number) : fail(`${where}.answered.status[${i}]`, 'an HTTP status'),
  );
  if (status.length === 0) fail(`${where}.answered.status`, 'one status at least');
  return {
    answered: {
      status,
      ...(answered.operation !== undefined && {
        operation: text(answered.operation, `${where}.answered.operation`),
      }),
      ...(answered.code !== undefined && { code: text(answered.code, `${where}.answered.code`) }),
    },
  };
}

function situation(value: unknown, index: number): Situation {
  const entry = object(value, `situations[${index}]`);
  const where = `situation ${text(entry.id, `situations[${index}].id`)}`;
  const met = list(entry.met_when, `${where}.met_when`).map((c, i) =>
    condition(c, `${where}.met_when[${i}]`),
  );
  if (met.length === 0) fail(`${where}.met_when`, 'one condition at least');
  return {
    id: entry.id as string,
    title: text(entry.title, `${where}.title`),
    description: text(entry.description, `${where}.description`),
    simulator: simulatorConfig(entry.simulator, `${where}.simulator`),
    bears_on: texts(entry.bears_on, `${where}.bears_on`),
    met_when: met,
    client_must: text(entry.client_must, `${where}.client_must`),
    to_meet: text(entry.to_meet, `${where}.to_meet`),
  };
}

function item(value: unknown, index: number): ChecklistItem {
  const entry = object(value, `items[${index}]`);
  const where = `item ${text(entry.id, `items[${index}].id`)}`;
  return {
    id: entry.id as string,
    title: text(entry.title, `${where}.title`),
    asks: text(entry.asks, `${where}.asks`),
    rules: texts(entry.rules, `${where}.rules`),
    situations: texts(entry.situations, `${where}.situations`),
    ...(entry.needs !== undefined && { needs: text(entry.needs, `${where}.needs`) }),
    ...(entry.compared_with !== undefined && {
      compared_with: text(entry.compared_with, `${where}.compared_with`),
    }),
  };
}

/** The entries of one data file, after its `format` line. */
function entries(path: string, format: string, member: string): unknown[] {
  const document = object(parse(readFileSync(path, 'utf8')), path);
  if (document.format !== format) fail(`${path}: format`, format);
  return list(document[member], `${path}: ${member}`);
}

/** Ids given twice in one file. */
function unique<T extends { id: string }>(values: T[], what: string): T[] {
  const seen = new Set<string>();
  for (const { id } of values) {
    if (seen.has(id)) throw new CatalogueError(`${what} ${id} is given twice`);
    seen.add(id);
  }
  return values;
}

/** The catalogue in `folder` (default: the one shipped beside this file), checked and frozen. */
export function readCatalogue(folder = import.meta.dirname): Catalogue {
  const situations = entries(join(folder, 'situations.yaml'), SITUATIONS_FORMAT, 'situations').map(situation);
  const items = entries(join(folder, 'checklist.yaml'), CHECKLIST_FORMAT, 'items').map(item);
  return deepFreeze({ situations: unique(situations, 'situation'), items: unique(items, 'item') });
}

function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object') {
    for (const inner of Object.values(value)) deepFreeze(inner);
    Object.freeze(value);
  }
  return value;
}
