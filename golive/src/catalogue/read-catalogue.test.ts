/**
 * The catalogue golive ships reads, and every name in it means something: the checklist's ten items of
 * the go-live review, each item's situations and each situation's items known to the other file, every
 * fault's operation one of the document, every scenario switch one the control API takes, every client
 * rule one of the rules (or the item says it is not assessed). A file out of shape is a CatalogueError
 * naming the member.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { bundledApiDocument } from '../../../openapi/document/api-document.js';
import { CLIENT_RULE_IDS, itemGaps } from '../verdicts/item-gaps.js';
import { CatalogueError, readCatalogue } from './read-catalogue.js';

const catalogue = readCatalogue();
const admin = bundledApiDocument('admin', { checkSchemas: false });
const api = bundledApiDocument('api', { checkSchemas: false });

/** The scenario switches `PUT /_ofkit/scenarios/` takes (admin.yaml). */
function scenarioNames(): string[] {
  const found = JSON.stringify(admin.raw).match(/"enum":\["institution_requires_token"[^\]]*\]/);
  return JSON.parse((found?.[0] ?? '"enum":[]').slice('"enum":'.length));
}

describe('the shipped catalogue', () => {
  it('holds the ten items of the go-live review, in order', () => {
    expect(catalogue.items.map((item) => item.id)).toEqual([
      'ERRORS-RETRY',
      'REQUEST-IDS',
      'STATUSES-PAGINATION',
      'NO-DUPLICATES',
      'MFA',
      'LIMITS',
      'WEBHOOKS',
      'BROKEN-LINKS',
      'FORWARD-COMPAT',
      'SECRETS',
    ]);
  });

  it('names between its two files only what the other holds', () => {
    const situations = new Set(catalogue.situations.map((s) => s.id));
    const items = new Set(catalogue.items.map((i) => i.id));
    for (const item of catalogue.items) for (const id of item.situations) expect(situations).toContain(id);
    for (const situation of catalogue.situations)
      for (const id of situation.bears_on) expect(items, situation.id).toContain(id);
    // Every item a situation is required by bears on it too, so its command's failure counts there.
    for (const item of catalogue.items)
      for (const id of item.situations)
        expect(catalogue.situations.find((s) => s.id === id)?.bears_on, `${item.id} ${id}`).toContain(
          item.id,
        );
  });

  it('arms only what the simulator knows, and seeds each situation apart', () => {
    const scenarios = scenarioNames();
    expect(scenarios).toContain('next_charge_fails');
    for (const { id, simulator } of catalogue.situations) {
      for (const fault of simulator.faults) expect(api.operation(fault.operation), id).toBeDefined();
      for (const { scenario } of simulator.scenarios) expect(scenarios, id).toContain(scenario);
    }
    const seeds = catalogue.situations.map((s) => s.simulator.seed);
    expect(new Set(seeds).size).toBe(seeds.length);
  });

  it('names client rules that exist, or says the item is not assessed and what it needs', () => {
    for (const item of catalogue.items) {
      const gaps = itemGaps(item, catalogue);
      for (const rule of item.rules) if (!CLIENT_RULE_IDS.has(rule)) expect(gaps.join(' ')).toContain(rule);
      if (gaps.length > 0) expect(item.needs, item.id).toBeDefined();
    }
    for (const situation of catalogue.situations)
      for (const condition of situation.met_when)
        if ('exercised' in condition) expect(CLIENT_RULE_IDS).toContain(condition.exercised);
  });

  it('reads the hold and order of deliveries and the recurrent life as the simulator takes them', () => {
    const of = (id: string) => catalogue.situations.find((s) => s.id === id)?.simulator;
    expect(of('webhooks-delayed-interleaved')?.webhooks).toEqual({
      duplicates: false,
      forged: false,
      delivery_delay_seconds: 300,
      delivery_order: 'interleaved',
    });
    expect(of('recurrent-life')?.recurrent_life).toEqual({ days: 10 });
    expect(of('baseline')).not.toHaveProperty('recurrent_life');
    expect(of('baseline')?.webhooks).toEqual({ duplicates: false, forged: false });
  });

  it('is frozen', () => {
    expect(Object.isFrozen(catalogue.situations[0]?.simulator.faults)).toBe(true);
  });
});

describe('a catalogue out of shape', () => {
  const folder = join(import.meta.dirname);
  const dirs: string[] = [];
  afterAll(() => {
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });
  /** A reading of the shipped files as `edit` changes them. */
  const variant = (edit: (situations: string, checklist: string) => [string, string]) => {
    const dir = mkdtempSync(join(tmpdir(), 'ofkit-catalogue-'));
    dirs.push(dir);
    const [situations, checklist] = edit(
      readFileSync(join(folder, 'situations.yaml'), 'utf8'),
      readFileSync(join(folder, 'checklist.yaml'), 'utf8'),
    );
    writeFileSync(join(dir, 'situations.yaml'), situations);
    writeFileSync(join(dir, 'checklist.yaml'), checklist);
    return () => readCatalogue(dir);
  };

  it('is refused member by member', () => {
    const fault = variant((s, c) => [s.replace('status: 408', 'status: 404'), c]);
    expect(fault).toThrow(CatalogueError);
    expect(fault).toThrow(
      /situation institution-failing\.simulator\.faults\[1\]\.status: wants 400, 408 or 500/,
    );
    const twice = variant((s, c) => [s, c.replace('id: MFA', 'id: LIMITS')]);
    expect(twice).toThrow('item LIMITS is given twice');
    const format = variant((s, c) => [
      s.replace('ofkit-golive-situations/1', 'ofkit-golive-situations/9'),
      c,
    ]);
    expect(format).toThrow(/format: wants ofkit-golive-situations\/1/);
  });

  it('refuses a webhook hold or a recurrent life the simulator would refuse', () => {
    const order = variant((s, c) => [
      s.replace('delivery_order: interleaved', 'delivery_order: shuffled'),
      c,
    ]);
    expect(order).toThrow(
      /situation webhooks-delayed-interleaved\.simulator\.webhooks\.delivery_order: wants raised or interleaved/,
    );
    const unheld = variant((s, c) => [
      s.replace('delivery_delay_seconds: 300', 'delivery_delay_seconds: 0'),
      c,
    ]);
    expect(unheld).toThrow(/delivery_order: wants a delivery_delay_seconds above 0/);
    const days = variant((s, c) => [
      s.replace('recurrent_life: { days: 10 }', 'recurrent_life: { days: 2 }'),
      c,
    ]);
    expect(days).toThrow(/situation recurrent-life\.simulator\.recurrent_life\.days: wants a number of days/);
    const flag = variant((s, c) => [
      s.replace('life_played_to_the_end: true', 'life_played_to_the_end: 1'),
      c,
    ]);
    expect(flag).toThrow(/met_when\[2\]\.life_played_to_the_end: wants true/);
  });
});
