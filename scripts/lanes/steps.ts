/**
 * The steps `npm test` runs: the static checks of the code and the document, and one step per lane. The
 * order is the order they start in when several run at once: the longest first, so that the short ones
 * fill the gaps at the end.
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { LANES, type Lane, type LaneName } from './lanes.js';

export interface Step {
  name: string;
  command: readonly string[];
  env?: Readonly<Record<string, string>>;
  /** Steps that must have ended before this one starts. */
  after?: readonly string[];
}

const NODE = process.execPath;
const VITEST = 'node_modules/vitest/vitest.mjs';
const npmRun = (script: string, ...args: string[]) => ['npm', 'run', '--silent', script, ...args];

/** Biome and tsc; the document's lint, its generated files, its checks. */
export const STATIC_STEPS: readonly Step[] = [
  { name: 'lint', command: npmRun('lint') },
  {
    name: 'document',
    command: [
      'sh',
      '-c',
      'npm run --silent lint:openapi && npm run --silent generate -- --check && npm run --silent check:openapi',
    ],
  },
];

/** Files changed since the last commit (staged or not) and new files git does not ignore. */
function changedFiles(): string[] {
  const git = (...args: string[]) => execFileSync('git', args, { encoding: 'utf8' }).split('\n');
  const names = [...git('diff', '--name-only', 'HEAD'), ...git('ls-files', '--others', '--exclude-standard')];
  return [...new Set(names)].filter((name) => name && existsSync(name));
}

/** `npm run test:fast`: Biome on the changed files (lint and format), then the unit lane. */
function fastSteps(): Step[] {
  const changed = changedFiles();
  const unit = laneStep(LANES.find((lane) => lane.name === 'unit') as Lane);
  if (!changed.length) return [unit];
  const biome = ['npx', 'biome', 'check', '--no-errors-on-unmatched', '--files-ignore-unknown=true'];
  return [{ name: 'lint-changed', command: [...biome, ...changed] }, unit];
}

/** The order lanes start in under `npm test`: the longest first. */
const START_ORDER: readonly LaneName[] = [
  'matrices',
  'integration',
  'package',
  'redis',
  'unit',
  'browser',
  'generators',
];

export function laneStep(lane: Lane): Step {
  if (lane.command) return { name: lane.name, command: lane.command };
  const projects = lane.projects.flatMap((project) => ['--project', project.name]);
  return {
    name: lane.name,
    command: [NODE, VITEST, 'run', ...projects],
    // Pact reports usage home unless told not to.
    env: { PACT_DO_NOT_TRACK: 'true' },
  };
}

/**
 * The steps named (`static` is the static checks, `fast` the edit loop's), or every step when none is
 * named.
 */
export function planSteps(names: readonly string[]): Step[] {
  if (names.length === 1 && names[0] === 'fast') return fastSteps();
  const wanted = names.length ? new Set(names) : undefined;
  const lanes = START_ORDER.map((name) => LANES.find((lane) => lane.name === name) as Lane)
    .filter((lane) => !wanted || wanted.has(lane.name))
    .map(laneStep);
  const statics = !wanted || wanted.has('static') ? STATIC_STEPS : [];
  // With the lint step's tsc in the same run, the packaged test's build need not check the types again.
  const checked = statics.length
    ? lanes.map((step) =>
        step.name === 'package' ? { ...step, env: { OFKIT_BUILD_TYPES_CHECKED: '1' } } : step,
      )
    : lanes;
  return [...checked.slice(0, 2), ...statics, ...checked.slice(2)];
}
