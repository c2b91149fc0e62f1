/**
 * The imports between the parts of the repository (openapi/, simulator/, property-tests/, contracts/,
 * bridge/, scripts/, bench/, tests/), read from the relative imports of every TypeScript and ES module
 * file git keeps: which file of which part imports which file of which other part, and whether the
 * importing file ships (code) or only tests it (tests and test support). `docs/architecture.md` draws
 * the parts; `tests/house/parts-layering.test.ts` holds these edges against it.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';

export interface FileImport {
  /** The importing file and the imported one, relative to the repository's root. */
  file: string;
  target: string;
  fromPart: string;
  toPart: string;
  /** The importing file is a test or test support: never shipped, never run by a user. */
  test: boolean;
}

// `import ... from '…'`, `export ... from '…'`, `import('…')` and a bare `import '…'` (run for its effects).
const IMPORT =
  /(?:^|\n)\s*(?:import|export)\s[^'"]*?from\s+'(\.{1,2}\/[^']+)'|import\('(\.{1,2}\/[^']+)'\)|(?:^|\n)\s*import\s+'(\.{1,2}\/[^']+)'/g;
const CODE = /\.(?:ts|mts|mjs|js)$/;
/** Tests and what only tests use: test files, test-support folders, the cross-part suites, fixtures. */
const TEST =
  /(?:\.test\.ts|\.package-test\.ts)$|(?:^|\/)(?:test-support|tests|testing|fixtures|package-test)\//;

/** Every file below `folder` (relative to `root`), as a path relative to `root`. */
function* walk(root: string, folder: string): Generator<string> {
  if (!existsSync(join(root, folder))) return;
  for (const entry of readdirSync(join(root, folder), { withFileTypes: true })) {
    const path = `${folder}/${entry.name}`;
    if (entry.isDirectory()) yield* walk(root, path);
    else yield path;
  }
}

/**
 * The code files of `parts`: those git keeps (so nothing built or installed counts), or with
 * `tracked: false` every file below them (a tree made by a test).
 */
export function codeFiles(root: string, parts: readonly string[], tracked = true): string[] {
  const files = tracked
    ? execFileSync('git', ['ls-files', '-z', '--', ...parts], { cwd: root, encoding: 'utf8' }).split('\0')
    : parts.flatMap((part) => [...walk(root, part)]);
  return files.filter((file) => CODE.test(file) && !file.endsWith('.d.ts') && !file.includes('/generated/'));
}

const partOf = (file: string) => file.split('/')[0] as string;
const isTestFile = (file: string) => TEST.test(file);

/** Every relative import of every code file of `parts`, with the file it names (`.js` read as `.ts`). */
export function readFileImports(
  root: string,
  parts: readonly string[],
  options: { tracked?: boolean } = {},
): FileImport[] {
  const files = codeFiles(root, parts, options.tracked);
  const known = new Set(files);
  const imports: FileImport[] = [];
  for (const file of files) {
    for (const match of readFileSync(join(root, file), 'utf8').matchAll(IMPORT)) {
      const specifier = (match[1] ?? match[2] ?? match[3]) as string;
      const named = normalize(join(dirname(file), specifier));
      const target = known.has(named) ? named : named.replace(/\.js$/, '.ts');
      if (target.startsWith('..')) continue;
      imports.push({ file, target, fromPart: partOf(file), toPart: partOf(target), test: isTestFile(file) });
    }
  }
  return imports;
}

/** The circles of files (each a list that starts and ends with the same file), shortest first. */
export function fileCircles(imports: readonly FileImport[]): string[][] {
  const next = new Map<string, Set<string>>();
  for (const { file, target } of imports) {
    if (!next.has(file)) next.set(file, new Set());
    next.get(file)?.add(target);
  }
  const circles: string[][] = [];
  const done = new Set<string>();
  const open: string[] = [];
  const walk = (file: string): void => {
    if (done.has(file)) return;
    const at = open.indexOf(file);
    if (at >= 0) {
      circles.push([...open.slice(at), file]);
      return;
    }
    open.push(file);
    for (const target of next.get(file) ?? []) walk(target);
    open.pop();
    done.add(file);
  };
  for (const file of next.keys()) walk(file);
  return circles.sort((a, b) => a.length - b.length);
}
