/**
 * The simulator's folders import one way: a kernel (`core/`) at the bottom over the foundations (store,
 * clock, ids), the pipeline and the webhooks' delivery above it, the areas (links, data, payments) above
 * those, then the judge, the control API, the breaks and the adapters, and the assembly on top. An import
 * that runs back up, or closes a circle, fails here with the file that made it.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  type AllowedEdges,
  circleOf,
  forbiddenImports,
  readImportEdges,
} from '../test-support/import-layers.js';

/** Folder -> the folders it may import (the architecture page draws the same). */
const ALLOWED: AllowedEdges = {
  store: [],
  ids: [],
  clock: ['store'],
  core: ['store', 'clock', 'ids'],
  pipeline: ['core', 'store', 'ids'],
  situations: ['core'],
  webhooks: ['core', 'store', 'situations'],
  links: ['core', 'pipeline', 'webhooks', 'store', 'clock', 'ids'],
  data: ['core', 'pipeline', 'links', 'store', 'ids'],
  payments: ['core', 'pipeline', 'store'],
  judge: ['core', 'pipeline', 'webhooks', 'store', 'clock'],
  control: ['core', 'links', 'data', 'payments', 'judge', 'webhooks', 'situations', 'store', 'clock', 'ids'],
  'broken-rules': ['core', 'pipeline', 'webhooks', 'store'],
  config: ['core', 'broken-rules', 'judge', 'store', 'ids'],
  dashboard: ['core', 'pipeline'],
  server: ['core', 'pipeline', 'ids'],
  fallback: ['core'],
  assembly: [
    'store',
    'ids',
    'clock',
    'core',
    'pipeline',
    'situations',
    'webhooks',
    'links',
    'data',
    'payments',
    'judge',
    'control',
    'broken-rules',
    'config',
    'dashboard',
    'server',
    'fallback',
  ],
};

const SOURCE = join(import.meta.dirname);

describe('the folder layering of simulator/src', () => {
  it('the allowed edges form a DAG with the kernel over the foundations only', () => {
    expect(circleOf(ALLOWED)).toBeUndefined();
    expect(ALLOWED.core).toEqual(['store', 'clock', 'ids']);
    for (const foundation of ['store', 'ids', 'clock']) expect(ALLOWED[foundation]).not.toContain('core');
  });

  it('every import between two folders is an allowed edge: none runs back up, none closes a circle', () => {
    const edges = readImportEdges(SOURCE);
    expect(edges.length).toBeGreaterThan(100);
    expect(forbiddenImports(edges, ALLOWED)).toEqual([]);
    // Every folder of the tree has its row (a new folder says where it stands).
    expect(Object.keys(ALLOWED)).toEqual(
      expect.arrayContaining([...new Set(edges.map((edge) => edge.from))]),
    );
  });

  it('fails on a planted upward import (the kernel importing an area) and on a circle', async () => {
    const root = await mkdtemp(join(tmpdir(), 'ofkit-layering-'));
    try {
      await mkdir(join(root, 'core'));
      await mkdir(join(root, 'links'));
      await writeFile(join(root, 'links', 'links.ts'), "import { kernel } from '../core/kernel.js';\n");
      await writeFile(join(root, 'core', 'kernel.ts'), "import type { Link } from '../links/links.js';\n");
      const problems = forbiddenImports(readImportEdges(root), { core: [], links: ['core'] });
      expect(problems).toEqual([
        expect.stringMatching(/^core[/\\]kernel\.ts imports \.\.\/links\/links\.js \(core -> links/),
      ]);
      expect(circleOf({ core: ['links'], links: ['core'] })).toEqual(['core', 'links', 'core']);
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  });
});
