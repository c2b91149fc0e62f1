/**
 * Every area of the rule catalogue (openapi/rules.yaml) maps to one simulator folder, whose README indexes
 * the area's rules: where each lives (files that cite its ID) and its simulator test. A rule added to the
 * catalogue without a row, a row naming a file that is gone or no longer cites the rule, fail here.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { RULES } from '../../openapi/generated/rules.js';

/** Area -> the folder of simulator/src that holds its index (and its rules' home). */
const AREA_FOLDERS: Readonly<Record<string, string>> = {
  'cross-cutting': 'pipeline',
  links: 'links',
  data: 'data',
  webhooks: 'webhooks',
  payments: 'payments',
  client: 'judge',
};

const SOURCE = import.meta.dirname;
const cited = (file: string, id: string) =>
  new RegExp(`\\b${id}\\b`).test(readFileSync(join(SOURCE, file), 'utf8'));
const paths = (cell: string) => [...cell.matchAll(/`([^`]+)`/g)].map((match) => match[1] as string);

/** The index rows of a folder's README: rule -> the files it lives in and its tests. */
function indexOf(folder: string): Map<string, { lives: string[]; tests: string[] }> {
  const rows = new Map<string, { lives: string[]; tests: string[] }>();
  for (const line of readFileSync(join(SOURCE, folder, 'README.md'), 'utf8').split('\n')) {
    const cells = line.split('|').map((cell) => cell.trim());
    if (cells.length < 5 || !/^[A-Z][A-Z0-9-]+$/.test(cells[1] ?? '')) continue;
    rows.set(cells[1]!, { lives: paths(cells[2]!), tests: paths(cells[3]!) });
  }
  return rows;
}

describe('the areas of the rule catalogue and the simulator folders', () => {
  it('every area of the catalogue maps to one folder, and every folder mapped exists', () => {
    expect(Object.keys(AREA_FOLDERS).sort()).toEqual([...new Set(RULES.map((rule) => rule.area))].sort());
    const folders = readdirSync(SOURCE, { withFileTypes: true })
      .filter((e) => e.isDirectory())
      .map((e) => e.name);
    for (const folder of Object.values(AREA_FOLDERS)) expect(folders).toContain(folder);
  });

  for (const [area, folder] of Object.entries(AREA_FOLDERS)) {
    it(`${folder}/README.md indexes every ${area} rule: where it lives and its test, each citing it`, () => {
      const index = indexOf(folder);
      const rules = RULES.filter((rule) => rule.area === area).map((rule) => rule.id);
      expect([...index.keys()]).toEqual(rules);
      const problems: string[] = [];
      for (const [id, { lives, tests }] of index) {
        if (lives.length === 0 || tests.length === 0) problems.push(`${id}: a row needs a home and a test`);
        for (const file of [...lives, ...tests]) {
          if (!existsSync(join(SOURCE, file))) problems.push(`${id}: ${file} does not exist`);
          else if (!cited(file, id)) problems.push(`${id}: ${file} does not cite it`);
        }
        // The rule's home is its area's folder, or the behaviour that causes it (a link's events).
        if (!lives.some((file) => file.startsWith(`${folder}/`) || file.startsWith('links/events/')))
          problems.push(`${id}: lives nowhere under ${folder}/`);
      }
      expect(problems).toEqual([]);
    });
  }
});
