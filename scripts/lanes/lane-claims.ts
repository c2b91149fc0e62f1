/**
 * Which lane runs each test file, as vitest itself resolves the projects of `vitest.config.ts`: a test
 * file no lane claims would never run under `npm test`, and one that two lanes claim would run twice.
 */
import { execFileSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { LANES } from './lanes.js';

/** Test files of the tree: what vitest would pick up by its own default pattern, outside dependencies. */
export function testFilesOf(root: string): string[] {
  const skip = new Set(['node_modules', 'dist', '.git']);
  const found: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (entry.isDirectory()) {
        if (!skip.has(entry.name) && !entry.name.startsWith('.')) walk(join(dir, entry.name));
      } else if (/\.test\.[cm]?[jt]s$/.test(entry.name)) found.push(relative(root, join(dir, entry.name)));
    }
  };
  walk(root);
  return found.sort();
}

/** Each file vitest assigns to a project, with the project's name (a file twice when two claim it). */
export function projectsOfFiles(root: string): { file: string; project: string }[] {
  const vitest = join(root, 'node_modules/vitest/vitest.mjs');
  const json = execFileSync(process.execPath, [vitest, 'list', '--filesOnly', '--json'], {
    cwd: root,
    encoding: 'utf8',
    env: { ...process.env, FORCE_COLOR: '0' },
    maxBuffer: 1 << 24,
  });
  const listed = JSON.parse(json) as { file: string; projectName: string }[];
  return listed.map(({ file, projectName }) => ({ file: relative(root, file), project: projectName }));
}

export interface ClaimProblems {
  /** Test files no lane runs. */
  unclaimed: string[];
  /** Test files more than one project runs, with the projects. */
  twice: { file: string; projects: string[] }[];
  /** Projects of the config that belong to no lane. */
  strayProjects: string[];
}

/** What is wrong with the claims: files no lane runs, files run twice, projects outside every lane. */
export function claimProblems(
  files: readonly string[],
  listed: readonly { file: string; project: string }[],
): ClaimProblems {
  const byFile = new Map<string, string[]>();
  for (const { file, project } of listed) byFile.set(file, [...(byFile.get(file) ?? []), project]);
  const claimedByCommand = new Set(LANES.flatMap((lane) => lane.claims ?? []));
  const laneProjects = new Set(LANES.flatMap((lane) => lane.projects.map((project) => project.name)));
  return {
    unclaimed: files.filter((file) => !byFile.has(file) && !claimedByCommand.has(file)),
    twice: [...byFile]
      .filter(([, projects]) => projects.length > 1)
      .map(([file, projects]) => ({ file, projects })),
    strayProjects: [...new Set(listed.map(({ project }) => project))].filter(
      (name) => !laneProjects.has(name),
    ),
  };
}
