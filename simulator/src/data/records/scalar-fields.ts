/**
 * Generators of single values (strings and numbers) from an example value and its schema: fresh
 * uuids, shifted dates and months, redrawn serial digits, enum picks, scaled money. Each keeps the
 * value valid by construction; anything else keeps the example's value.
 */
import type { JsonObject, JsonValue } from '../../../../openapi/document/json.js';
import { DAY_MS } from '../../core/time.js';
import type { Random } from '../../ids/seeded-ids.js';
import { formatDay, formatMonth, monthIndexOfDay, parseDay, parseMonth } from './calendar.js';
import type { Gen, Site, VariantEnv } from './generator-types.js';
import { COUPLED_FIELDS, KEPT_NUMBER, MONEY_INTEGER, SERIAL_FIELD } from './resource-hints.js';

/** A pattern that is one run of digits (`^[0-9]{9,20}$`, `^\\d{11}$`): any digits of the same length fit. */
const DIGITS_PATTERN = /^\^(\\d|\[0-9\])(\{\d+(,\d*)?\}|\+|\*)\$$/;

/** A string: enum pick, uuid, shifted date, date-time or month, redrawn serial, else the example. */
export function compileString(schema: JsonObject, example: string, env: VariantEnv, site: Site): Gen {
  const choices = enumChoices(schema, example, env, site.name);
  if (choices !== null) return (s) => s.random.pick(choices);
  if (isEnumerated(schema)) return constant(example);
  if (schema.format === 'uuid') return (s) => s.ids.uuid();
  return calendarString(schema, example, env) ?? serialString(schema, example, site) ?? constant(example);
}

/**
 * Dates, date-times and `YYYY-MM` months move with the record. One the example has before its own
 * `collected_at` (a past event) is capped at now; one after it (a due date) may lie in the future.
 */
function calendarString(schema: JsonObject, example: string, env: VariantEnv): Gen | undefined {
  const exampleNow = env.exampleCollectedMs;
  if (schema.format === 'date' && /^\d{4}-\d{2}-\d{2}$/.test(example)) {
    const day = parseDay(example);
    if (day > Math.floor(exampleNow / DAY_MS)) return (s) => formatDay(day + s.days);
    return (s) => formatDay(Math.min(day + s.days, s.collectedDay));
  }
  const ms = schema.format === 'date-time' ? Date.parse(example) : Number.NaN;
  if (ms > exampleNow) return (s) => new Date(ms + s.ms).toISOString();
  if (!Number.isNaN(ms)) return (s) => new Date(Math.min(ms + s.ms, s.collectedMs)).toISOString();
  if (
    typeof schema.pattern !== 'string' ||
    !/^\d{4}-\d{2}$/.test(example) ||
    !isMonthPattern(schema.pattern)
  ) {
    return undefined;
  }
  const month = parseMonth(example);
  if (month > monthIndexOfDay(Math.floor(exampleNow / DAY_MS))) return (s) => formatMonth(month + s.months);
  return (s) => formatMonth(Math.min(month + s.months, s.collectedMonth));
}

/** A serial (`SERIAL_FIELD`) free-form string, or one whose pattern is a plain run of digits. */
function serialString(schema: JsonObject, example: string, site: Site): Gen | undefined {
  if (!SERIAL_FIELD.test(site.name) || schema.format !== undefined || schema.contentEncoding !== undefined) {
    return undefined;
  }
  const pattern = schema.pattern;
  return pattern === undefined || DIGITS_PATTERN.test(String(pattern)) ? redrawDigits(example) : undefined;
}

/** The example with each digit drawn afresh (same length, same letters and separators). */
function redrawDigits(example: string): Gen {
  const runs = [...example.matchAll(/[0-9]+/g)];
  if (runs.length === 0) return constant(example);
  const between = example.split(/[0-9]+/);
  const lengths = runs.map((run) => run[0].length);
  return (s) => {
    let out = between[0] as string;
    for (let i = 0; i < lengths.length; i++)
      out += randomDigits(s.random, lengths[i] as number) + between[i + 1];
    return out;
  };
}

/** `length` random digits, nine per draw (10^9 < 2^32, the generator's resolution). */
function randomDigits(random: Random, length: number): string {
  let out = '';
  for (let left = length; left > 0; left -= 9) {
    const size = Math.min(9, left);
    out += String(Math.floor(random.next() * 10 ** size)).padStart(size, '0');
  }
  return out;
}

/** A number: enum pick, calendar year or month, scaled money, redrawn serial, else the example. */
export function compileNumber(schema: JsonObject, example: number, env: VariantEnv, site: Site): Gen {
  const choices = enumChoices(schema, example, env, site.name);
  if (choices !== null) return (s) => s.random.pick(choices);
  if (isEnumerated(schema) || schema.multipleOf !== undefined) return constant(example);
  const inBounds = boundsOf(schema);
  if (typesOf(schema).includes('integer')) return compileInteger(schema, example, site, inBounds);
  if (example === 0 || KEPT_NUMBER.test(site.name)) return constant(example);
  const scale = 10 ** decimalsOf(example);
  return (s) => {
    const value = Math.round(example * s.factor * scale) / scale;
    return inBounds(value) ? value : example;
  };
}

function compileInteger(
  schema: JsonObject,
  example: number,
  site: Site,
  inBounds: (n: number) => boolean,
): Gen {
  const name = site.name;
  if (name === 'year') return compileYear(example, site.parent, inBounds);
  if (isMonthName(name) && schema.minimum === 1 && schema.maximum === 12) {
    return (s) => ((((example - 1 + s.months) % 12) + 12) % 12) + 1;
  }
  if (MONEY_INTEGER.test(name) && example !== 0) {
    return (s) => {
      const value = Math.round(example * s.factor);
      return inBounds(value) ? value : example;
    };
  }
  if (SERIAL_FIELD.test(name) && example >= 2) {
    const low = Math.ceil(example / 2);
    return (s) => {
      const value = s.random.int(low, example * 2);
      return inBounds(value) ? value : example;
    };
  }
  return constant(example);
}

/** A calendar `year`: moves with its sibling month field (`{year, month}`) or by whole years. */
function compileYear(example: number, parent: JsonObject | null, inBounds: (n: number) => boolean): Gen {
  const monthKey = parent === null ? undefined : Object.keys(parent).find(isMonthName);
  const month = monthKey === undefined ? undefined : parent?.[monthKey];
  if (typeof month === 'number') {
    return (s) => {
      const value = example + Math.floor((month - 1 + s.months) / 12);
      return inBounds(value) ? value : example;
    };
  }
  return (s) => (inBounds(example + s.years) ? example + s.years : example);
}

function isMonthName(name: string): boolean {
  return name === 'month' || name.endsWith('_month');
}

/** Other members of the enum, when the field may vary (not coupled to other fields, not kept). */
function enumChoices<T extends string | number>(
  schema: JsonObject,
  example: T,
  env: VariantEnv,
  name: string,
) {
  if (!Array.isArray(schema.enum) || !schema.enum.includes(example)) return null;
  if (COUPLED_FIELDS.has(name) && !env.vary.has(name)) return null;
  const options = schema.enum.filter((value): value is T => typeof value === typeof example);
  return options.length > 1 ? options : null;
}

/** Whether the schema fixes the value to a list (`enum`) or one value (`const`). */
export function isEnumerated(schema: JsonObject): boolean {
  return schema.const !== undefined || Array.isArray(schema.enum);
}

/** The schema's `type` as a list (empty when absent). */
export function typesOf(schema: JsonObject): string[] {
  if (typeof schema.type === 'string') return [schema.type];
  return Array.isArray(schema.type) ? schema.type.filter((t): t is string => typeof t === 'string') : [];
}

function boundsOf(schema: JsonObject): (value: number) => boolean {
  const bound = (value: JsonValue | undefined, fallback: number) =>
    typeof value === 'number' ? value : fallback;
  const min = bound(schema.minimum, -Infinity);
  const max = bound(schema.maximum, Infinity);
  const above = bound(schema.exclusiveMinimum, -Infinity);
  const below = bound(schema.exclusiveMaximum, Infinity);
  return (value) => value >= min && value <= max && value > above && value < below;
}

/** Decimals of the example (2 to 4): money keeps cents, rates keep their precision. */
function decimalsOf(value: number): number {
  const text = String(value);
  const dot = text.indexOf('.');
  return dot < 0 || text.includes('e') ? 2 : Math.min(4, Math.max(2, text.length - dot - 1));
}

/** Whether a `pattern` is made for `YYYY-MM`: it takes every month of a few years and no month 00 or 13. */
function isMonthPattern(pattern: string): boolean {
  const regex = new RegExp(pattern, 'u');
  if (regex.test('2024-00') || regex.test('2024-13')) return false;
  for (let index = 1999 * 12; index < 2031 * 12; index++) if (!regex.test(formatMonth(index))) return false;
  return true;
}

/** The example itself (objects and arrays are copied for every record). */
export function constant(value: JsonValue): Gen {
  if (value === null || typeof value !== 'object') return () => value;
  const text = JSON.stringify(value);
  return () => JSON.parse(text) as JsonValue;
}
