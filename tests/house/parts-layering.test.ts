/**
 * The parts of the repository import one way, as docs/architecture.md draws them: openapi/ at the
 * bottom; the simulator, the suite and Pact over it; the bridge over those, reaching the simulator only
 * through the judge's door and the few files the drawing names; the CLI, the bench and the cross-part
 * tests on top. An import between parts that the drawing does not allow, or any circle of files, fails
 * here naming the file.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { circleOf } from '../../simulator/test-support/import-layers.js';
import { type FileImport, fileCircles, readFileImports } from '../../simulator/test-support/part-imports.js';

const ROOT = join(import.meta.dirname, '..', '..');
const PARTS = [
  'openapi',
  'simulator',
  'property-tests',
  'contracts',
  'bridge',
  'golive',
  'scripts',
  'bench',
  'tests',
];

/** Part -> the parts its shipped code may import (docs/architecture.md, "The parts"). */
const ALLOWED: Readonly<Record<string, readonly string[]>> = {
  openapi: [],
  simulator: ['openapi'],
  'property-tests': ['openapi'],
  contracts: ['openapi', 'simulator'],
  bridge: ['openapi', 'simulator'],
  golive: ['openapi', 'simulator', 'bridge'],
  scripts: ['openapi', 'simulator', 'property-tests', 'contracts', 'bridge', 'golive'],
  // The start-up stage measures the built package as users load it.
  bench: ['openapi', 'simulator', 'bridge', 'dist'],
  tests: [],
};

/**
 * Where a part may enter another that it does not own wholly: the only files it may import there. The
 * bridge reaches the simulator through the judge's door, the wording of the answers it refuses (the
 * simulator's), and the payments' stored form that replay writes; the Pact verifier reads the
 * simulator's published keys and MFA token as its defaults; golive starts simulators as a user does
 * (the published entry), judges through the judge's door and redacts with the bridge's evidence redaction.
 */
const ENTRIES: Readonly<Record<string, Readonly<Record<string, readonly string[]>>>> = {
  bridge: {
    simulator: [
      'simulator/src/judge/judge.ts',
      'simulator/src/core/api-error.ts',
      'simulator/src/server/client-error.ts',
      'simulator/src/payments/index.ts',
    ],
  },
  golive: {
    simulator: ['simulator/src/index.ts', 'simulator/src/judge/judge.ts'],
    bridge: ['bridge/src/redaction/evidence-redaction.ts'],
  },
  contracts: {
    simulator: [
      'simulator/src/config/simulator-config.ts',
      'simulator/src/links/institutions/scenario-triggers.ts',
    ],
  },
};

/** The imports of shipped code that the drawing does not allow, one line each. */
function forbidden(imports: readonly FileImport[]): string[] {
  return imports
    .filter(({ fromPart, toPart, test }) => !test && fromPart !== toPart)
    .filter(({ fromPart, toPart, target }) => {
      if (!(ALLOWED[fromPart] ?? []).includes(toPart)) return true;
      const entries = ENTRIES[fromPart]?.[toPart];
      return entries !== undefined && !entries.includes(target);
    })
    .map(({ file, target, fromPart, toPart }) => `${file} imports ${target} (${fromPart} -> ${toPart})`)
    .sort();
}

describe('the parts of the repository', () => {
  it('the allowed edges between parts form a DAG with openapi/ at the bottom', () => {
    expect(circleOf(ALLOWED)).toBeUndefined();
    expect(ALLOWED.openapi).toEqual([]);
    expect(Object.keys(ALLOWED).sort()).toEqual([...PARTS].sort());
  });

  it('every import of shipped code between two parts is an allowed edge, through an allowed entry', () => {
    const imports = readFileImports(ROOT, PARTS);
    expect(imports.filter((edge) => !edge.test && edge.fromPart !== edge.toPart).length).toBeGreaterThan(200);
    expect(forbidden(imports)).toEqual([]);
  });

  it('the tests/ part is tests only, and no file of any part closes a circle of imports', () => {
    const imports = readFileImports(ROOT, PARTS);
    expect(imports.filter((edge) => edge.fromPart === 'tests' && !edge.test)).toEqual([]);
    expect(fileCircles(imports)).toEqual([]);
  });

  it('fails on a planted violation: the bridge importing a judge file behind the door, a bare import, and a circle', () => {
    const root = mkdtempSync(join(tmpdir(), 'ofkit-parts-'));
    try {
      const write = (file: string, text: string) => {
        mkdirSync(join(root, file, '..'), { recursive: true });
        writeFileSync(join(root, file), text);
      };
      write(
        'bridge/src/checks/judged.ts',
        "import { judgeRetry5xx } from '../../../simulator/src/judge/retry-rules.js';\n",
      );
      write(
        'simulator/src/judge/retry-rules.ts',
        "import { a } from './limit-rules.js';\nexport const judgeRetry5xx = a;\n",
      );
      write(
        'simulator/src/judge/limit-rules.ts',
        "import { judgeRetry5xx } from './retry-rules.js';\nexport const a = judgeRetry5xx;\n",
      );
      write(
        'openapi/document/doc.ts',
        "import { judgeRetry5xx } from '../../simulator/src/judge/retry-rules.js';\n",
      );
      // An import run only for its effects is an edge too.
      write('openapi/http/effects.ts', "import '../../simulator/src/index.js';\n");
      const imports = readFileImports(root, PARTS, { tracked: false });
      expect(forbidden(imports)).toEqual([
        'bridge/src/checks/judged.ts imports simulator/src/judge/retry-rules.ts (bridge -> simulator)',
        'openapi/document/doc.ts imports simulator/src/judge/retry-rules.ts (openapi -> simulator)',
        'openapi/http/effects.ts imports simulator/src/index.ts (openapi -> simulator)',
      ]);
      expect(fileCircles(imports)).toEqual([
        [
          'simulator/src/judge/retry-rules.ts',
          'simulator/src/judge/limit-rules.ts',
          'simulator/src/judge/retry-rules.ts',
        ],
      ]);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
