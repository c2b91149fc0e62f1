/**
 * The documentation the package ships, checked in the repository (the packaged test checks it again
 * in the installed package and runs its shell blocks): every relative link and image points at a
 * shipped file (and a heading, for a #fragment); every code block is fenced with its language; every
 * shell block either runs or says why not.
 */
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { docBlocks } from './doc-blocks.mjs';
import { headingAnchors, linkProblems, relativeTargets } from './markdown-links.mjs';
import { shippedMarkdown, shippedMatcher } from './shipped-files.mjs';

const root = resolve(import.meta.dirname, '../..');
const shipped = shippedMarkdown(root);

function tree(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'ofkit-docs-'));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  return dir;
}

describe('the shipped Markdown of this repository', () => {
  it('is the README, the CHANGELOG and the pages of docs/', () => {
    expect(shipped[0]).toBe('README.md');
    expect(shipped).toContain('CHANGELOG.md');
    expect(shipped.filter((path) => path.startsWith('docs/')).length).toBeGreaterThan(5);
    expect(shipped).not.toContain('CONTRIBUTING.md');
  });

  it('links only to shipped files, and to headings that exist', () => {
    expect(linkProblems(root, shipped, shippedMatcher(root))).toEqual([]);
  });

  it('fences every code block with its language; every shell block runs or says why not', () => {
    const problems = shipped.flatMap((file) =>
      docBlocks(readText(file)).problems.map((p) => `${file}: ${p}`),
    );
    expect(problems).toEqual([]);
    const shell = shipped
      .flatMap((file) => docBlocks(readText(file)).blocks)
      .filter((b) => b.kind === 'run' || b.kind === 'not-run');
    expect(shell.filter((b) => b.kind === 'run').length).toBeGreaterThan(10);
    for (const block of shell.filter((b) => b.kind === 'not-run'))
      expect(block.reason.length).toBeGreaterThan(10);
  });
});

function readText(file: string): string {
  return readFileSync(join(root, file), 'utf8');
}

describe('the link check', () => {
  const dir = tree({
    'package.json': JSON.stringify({ files: ['docs'] }),
    'README.md':
      '# Title\n\n## A `code` heading: yes\n\n[ok](docs/a.md#part) [anchor](#a-code-heading-yes) ![pic](docs/p.png)\n[gone](docs/none.md) [bad](docs/a.md#nope) [repo only](CONTRIBUTING.md)\n`[not a link](x.md)`\n[web](https://example.com/x.md)\n',
    'CONTRIBUTING.md': '# c\n',
    'docs/a.md': '# A\n\n## Part\n\n```sh\n[in code](missing.md)\n```\n[up](../README.md)\n',
    'docs/p.png': 'png',
  });

  it('finds the relative links and images of prose, not of code', () => {
    expect(
      relativeTargets('[a](x.md) ![b](y.png "t") `[c](z.md)` [d](https://e.f)').map((t) => t.target),
    ).toEqual(['x.md', 'y.png']);
    expect([...headingAnchors('# A b\n## A b\n## `x`: y!')]).toEqual(['a-b', 'a-b-1', 'x-y']);
  });

  it('reports a missing file, a missing heading and a file the package does not ship', () => {
    expect(linkProblems(dir, ['README.md', 'docs/a.md'], shippedMatcher(dir))).toEqual([
      'README.md:6: link docs/none.md points at nothing',
      'README.md:6: link docs/a.md#nope: no heading has the anchor #nope',
      'README.md:6: link CONTRIBUTING.md points at a file the package does not ship',
    ]);
  });
});

describe('the doc blocks', () => {
  it('sorts blocks into runs, not-runs with their reason, files and others', () => {
    const markdown = [
      '```sh',
      'npx ofkit --help',
      '```',
      '',
      '```bash',
      '# not run: a server that runs until Ctrl-C',
      'npx ofkit simulate',
      '```',
      '',
      '```ts',
      '// accounts.test.ts (vitest)',
      'export {};',
      '```',
      '',
      '```text',
      'output',
      '```',
    ].join('\n');
    const { blocks, problems } = docBlocks(markdown);
    expect(problems).toEqual([]);
    expect(blocks.map(({ kind, reason, file }) => ({ kind, reason, file }))).toEqual([
      { kind: 'run', reason: undefined, file: undefined },
      { kind: 'not-run', reason: 'a server that runs until Ctrl-C', file: undefined },
      { kind: 'file', reason: undefined, file: 'accounts.test.ts' },
      { kind: 'other', reason: undefined, file: undefined },
    ]);
  });

  it('refuses a fence without a language and an indented code block', () => {
    const { problems } = docBlocks(
      'Text:\n\n    npx ofkit check\n\n```\nx\n```\n- item\n\n    continuation\n',
    );
    expect(problems).toEqual([
      'line 3: an indented code block (fence it, with its language)',
      'line 5: a fenced block without a language',
    ]);
  });
});
