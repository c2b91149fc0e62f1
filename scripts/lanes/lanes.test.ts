/**
 * The lanes hold every test exactly once: each test file of the tree is run by one lane of `npm test`
 * (vitest's own resolution of the projects), each lane has its `npm run test:<lane>`, and the check fails
 * on a file no lane claims, on a file two lanes claim, and on a project outside every lane.
 */
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { failureLines } from './failure-lines.js';
import { claimProblems, projectsOfFiles, testFilesOf } from './lane-claims.js';
import { LANES } from './lanes.js';
import { planSteps } from './steps.js';

const root = resolve(import.meta.dirname, '../..');

describe('the test lanes', () => {
  it('claim every test file of the tree exactly once', { timeout: 60_000 }, () => {
    const files = testFilesOf(root);
    expect(files.length).toBeGreaterThan(100);
    expect(claimProblems(files, projectsOfFiles(root))).toEqual({
      unclaimed: [],
      twice: [],
      strayProjects: [],
    });
  });

  it('fail the check on a file no lane claims, a file claimed twice, and a project of no lane', () => {
    const files = ['simulator/src/a.test.ts', 'docs/stray.test.ts', 'tests/b.test.ts'];
    const listed = [
      { file: 'simulator/src/a.test.ts', project: 'unit' },
      { file: 'tests/b.test.ts', project: 'integration' },
      { file: 'tests/b.test.ts', project: 'matrices' },
      { file: 'tests/c.test.ts', project: 'nightly' },
    ];
    expect(claimProblems(files, listed)).toEqual({
      unclaimed: ['docs/stray.test.ts'],
      twice: [{ file: 'tests/b.test.ts', projects: ['integration', 'matrices'] }],
      strayProjects: ['nightly'],
    });
  });

  it('each run alone by npm run test:<lane>, and npm test runs every lane and the static checks', () => {
    const { scripts } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
      scripts: Record<string, string>;
    };
    for (const lane of LANES)
      expect(scripts[`test:${lane.name}`], lane.name).toBe(`tsx scripts/lanes/run-lanes.ts ${lane.name}`);
    expect(scripts.test).toBe('tsx scripts/lanes/run-lanes.ts');
    const everything = planSteps([]).map((step) => step.name);
    expect([...everything].sort()).toEqual([...LANES.map((lane) => lane.name), 'document', 'lint'].sort());
  });

  it("lets the packaged test's build skip the type check only when the run's lint step checks the types", () => {
    const packageEnv = (names: string[]) => planSteps(names).find((step) => step.name === 'package')?.env;
    expect(packageEnv([])).toEqual({ OFKIT_BUILD_TYPES_CHECKED: '1' });
    expect(packageEnv(['static', 'package'])).toEqual({ OFKIT_BUILD_TYPES_CHECKED: '1' });
    expect(packageEnv(['package'])).toBeUndefined();
  });

  it('a failed lane names its failed tests again under the table, so a log cut to its tail still shows them', () => {
    const esc = '\u001b';
    const log = [
      ` ${esc}[31m❯${esc}[39m tests/a.test.ts (2 tests | 1 failed) 33ms`,
      `     ${esc}[31m×${esc}[31m does x${esc}[39m 21ms`,
      '     ✓ ok 9ms',
      ' FAIL  tests/a.test.ts > suite > does x',
      `${esc}[31mAssertionError${esc}[22m: expected 1 to be 2 // Object.is equality`,
      '- Expected',
      ' Test Files  1 failed (1)',
    ].join('\n');
    expect(failureLines(log)).toEqual([
      ' ❯ tests/a.test.ts (2 tests | 1 failed) 33ms',
      '     × does x 21ms',
      ' FAIL  tests/a.test.ts > suite > does x',
      'AssertionError: expected 1 to be 2 // Object.is equality',
    ]);
    expect(failureLines('every test passed\n')).toEqual([]);
    const many = Array.from({ length: 50 }, (_, i) => ` FAIL  t${i}`).join('\n');
    expect(failureLines(many, 3)).toEqual([' FAIL  t0', ' FAIL  t1', ' FAIL  t2', '... and 47 more']);
  });
});
