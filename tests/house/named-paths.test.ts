/**
 * Every path a developer's page names exists: the READMEs of the parts and their rooms, CONTRIBUTING.md
 * and the recipes of docs/architecture.md. A path is a name with a slash or a file ending, backquoted
 * outside code blocks or leading a line of a layout tree (a fence without a language, or `text`); it resolves from the page's folder or any folder above it, or from the bases the
 * page writes its paths from; a bare file name (a room's file in a table row) is found below the page's
 * folder or its bases. A page that names a file since moved or removed fails here with the name.
 */
import { execFileSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..', '..');

/** Folders a page writes its paths from, besides its own and those above it. */
const BASES: Readonly<Record<string, readonly string[]>> = {
  'CONTRIBUTING.md': ['openapi'],
  'docs/architecture.md': ['simulator/src', 'simulator', 'openapi'],
  'simulator/README.md': ['simulator/src'],
  'property-tests/README.md': ['property-tests/src'],
  'openapi/README.md': ['openapi/components'],
  'bridge/README.md': ['bridge/src'],
  'golive/README.md': ['golive/src', 'golive'],
  'scripts/README.md': ['scripts'],
};

/** Names that look like paths but name no file of the repository, each with why. */
const NOT_PATHS: Readonly<Record<string, string>> = {
  'dist/': 'made by npm run build',
  'bench/results/latest.json': 'written by npm run bench',
  'bench/results/': 'written by npm run bench',
  'x.test.ts': 'stands for any test file',
  'P/': "stands for a collection's path",
  'ofkit-snapshot/1': 'a snapshot format, not a file',
};

/** The developer's pages: every README git keeps (but fixtures'), CONTRIBUTING.md, the architecture. */
function pages(root: string): string[] {
  const listed = ['ls-files', '--cached', '--others', '--exclude-standard', '--', '*README.md'];
  const readmes = execFileSync('git', listed, { cwd: root, encoding: 'utf8' })
    .split('\n')
    .filter((file) => file !== '' && file !== 'README.md' && !file.includes('/fixtures/'));
  return ['CONTRIBUTING.md', 'docs/architecture.md', ...readmes];
}

const PATH = /^[\w.@-]+(?:\/[\w.@-]*)*$/;
const ENDING = /\.(?:ts|mjs|js|md|yaml|yml|json|tsv|har)$/;

/** The paths a page names: backquoted outside fenced blocks, or leading a line of a layout tree. */
function namedPaths(markdown: string): string[] {
  const prose = markdown.replace(/```[\s\S]*?```/g, '');
  const quoted = [...prose.matchAll(/`([^`\n]+)`/g)].map((match) => match[1] as string);
  // A layout tree: a fence without a language, or `text`; its lines start with the names they explain.
  const trees = [...markdown.matchAll(/```(?:text)?\n([\s\S]*?)```/g)].map((match) => match[1] as string);
  const leading = trees.flatMap((tree) => tree.split('\n').map((line) => line.trim().split(/\s+/)[0] ?? ''));
  return [...quoted, ...leading]
    .filter((name) => PATH.test(name) && (name.includes('/') || ENDING.test(name)))
    .filter((name) => !name.startsWith('ofkit/') && !name.startsWith('@') && !name.startsWith('.'));
}

/** The names of every file and folder below `folder` (none of node_modules), folders with a slash. */
function namesBelow(folder: string, into = new Set<string>()): Set<string> {
  for (const entry of readdirSync(folder, { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.name === '.git') continue;
    if (entry.isDirectory()) {
      into.add(`${entry.name}/`);
      namesBelow(join(folder, entry.name), into);
    } else into.add(entry.name);
  }
  return into;
}

/** The names of `page` that resolve nowhere, as `page: name`. */
function missingPaths(root: string, page: string): string[] {
  const own = dirname(join(root, page));
  const bases = (BASES[page] ?? []).map((base) => join(root, base));
  const above: string[] = [];
  for (let folder = own; folder.startsWith(root); folder = dirname(folder)) {
    above.push(folder);
    if (folder === root) break;
  }
  const below = new Set([...(own === root ? [] : [own]), ...bases].flatMap((f) => [...namesBelow(f)]));
  return namedPaths(readFileSync(join(root, page), 'utf8'))
    .filter((name) => NOT_PATHS[name] === undefined)
    .filter((name) => ![...above, ...bases].some((folder) => existsSync(join(folder, name))))
    .filter((name) => !below.has(name))
    .map((name) => `${page}: ${name}`);
}

describe("the paths the developer's pages name", () => {
  it('every part has a README, and every path a README or recipe names exists', () => {
    const all = pages(ROOT);
    for (const part of [
      'openapi',
      'simulator',
      'property-tests',
      'contracts',
      'bridge',
      'scripts',
      'bench',
      'tests',
    ])
      expect(all).toContain(`${part}/README.md`);
    const named = all.flatMap((page) => namedPaths(readFileSync(join(ROOT, page), 'utf8')));
    expect(named.length).toBeGreaterThan(400);
    expect(all.flatMap((page) => missingPaths(ROOT, page))).toEqual([]);
  });

  it('fails on a planted violation: a README naming a file that is gone', () => {
    const root = mkdtempSync(join(tmpdir(), 'ofkit-paths-'));
    try {
      mkdirSync(join(root, 'bridge', 'src', 'proxy'), { recursive: true });
      writeFileSync(join(root, 'bridge', 'src', 'proxy', 'recording-proxy.ts'), '');
      writeFileSync(
        join(root, 'bridge', 'README.md'),
        '| `src/proxy/` | `recording-proxy.ts`, `proxy/relay-answer.ts`, `dist/` |\n```\nsrc/gone.ts\n```\n',
      );
      expect(missingPaths(root, 'bridge/README.md')).toEqual([
        'bridge/README.md: proxy/relay-answer.ts',
        'bridge/README.md: src/gone.ts',
      ]);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
