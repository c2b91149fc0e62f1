/**
 * The folder layering of a source tree, read from its relative imports: which folder imports which,
 * checked against a table of allowed edges (like the store contract, a check any tree can be run
 * against). A file directly in the root belongs to the folder `assembly`.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, normalize, relative, sep } from 'node:path';

export interface ImportEdge {
  from: string;
  to: string;
  /** The importing file, relative to the root. */
  file: string;
  specifier: string;
}

export type AllowedEdges = Readonly<Record<string, readonly string[]>>;

const IMPORT = /(?:^|\n)\s*(?:import|export)\s[^'"]*?from\s+'(\.{1,2}\/[^']+)'|import\('(\.{1,2}\/[^']+)'\)/g;

function* sourceFiles(folder: string): Generator<string> {
  for (const entry of readdirSync(folder)) {
    const path = join(folder, entry);
    if (statSync(path).isDirectory()) yield* sourceFiles(path);
    else if (path.endsWith('.ts') && !path.endsWith('.test.ts') && !path.endsWith('.d.ts')) yield path;
  }
}

const folderOf = (relativePath: string) =>
  relativePath.includes(sep) ? (relativePath.split(sep)[0] as string) : 'assembly';

/** Every import between two folders of `root` (imports that leave the root are not edges). */
export function readImportEdges(root: string): ImportEdge[] {
  const edges: ImportEdge[] = [];
  for (const path of sourceFiles(root)) {
    const file = relative(root, path);
    for (const match of readFileSync(path, 'utf8').matchAll(IMPORT)) {
      const specifier = (match[1] ?? match[2]) as string;
      const target = relative(root, normalize(join(dirname(path), specifier)));
      if (target.startsWith('..')) continue;
      const [from, to] = [folderOf(file), folderOf(target)];
      if (from !== to) edges.push({ from, to, file, specifier });
    }
  }
  return edges;
}

/** The imports `allowed` does not list, one line each. */
export function forbiddenImports(edges: readonly ImportEdge[], allowed: AllowedEdges): string[] {
  return edges
    .filter((edge) => !(allowed[edge.from] ?? []).includes(edge.to))
    .map(
      (edge) => `${edge.file} imports ${edge.specifier} (${edge.from} -> ${edge.to} is not an allowed edge)`,
    );
}

/** A circle of `allowed` (folders that reach themselves), or undefined when the edges form a DAG. */
export function circleOf(allowed: AllowedEdges): string[] | undefined {
  const state = new Map<string, 'open' | 'done'>();
  const walk = (folder: string, path: string[]): string[] | undefined => {
    if (state.get(folder) === 'done') return undefined;
    if (state.get(folder) === 'open') return [...path.slice(path.indexOf(folder)), folder];
    state.set(folder, 'open');
    for (const next of allowed[folder] ?? []) {
      const circle = walk(next, [...path, folder]);
      if (circle) return circle;
    }
    state.set(folder, 'done');
    return undefined;
  };
  for (const folder of Object.keys(allowed)) {
    const circle = walk(folder, []);
    if (circle) return circle;
  }
  return undefined;
}
