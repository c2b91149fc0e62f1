/** What the package ships, read from package.json's `files` (and what npm always adds). */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** npm packs these whatever `files` says. */
const ALWAYS = ['package.json', 'README.md', 'LICENSE'];

function entries(root) {
  const { files = [] } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
  return [...ALWAYS, ...files].map((entry) => entry.replace(/\/+$/, ''));
}

/** A predicate: whether a path relative to `root` (with `/`) is in the package. */
export function shippedMatcher(root) {
  const shipped = entries(root);
  return (path) => shipped.some((entry) => path === entry || path.startsWith(`${entry}/`));
}

function* markdownUnder(root, path) {
  const full = join(root, path);
  if (statSync(full, { throwIfNoEntry: false })?.isDirectory()) {
    for (const name of readdirSync(full).sort()) {
      if (name === 'node_modules') continue;
      yield* markdownUnder(root, `${path}/${name}`);
    }
  } else if (path.endsWith('.md') && statSync(full, { throwIfNoEntry: false })) yield path;
}

/** The Markdown files the package ships, README first, as paths relative to `root`. */
export function shippedMarkdown(root) {
  return entries(root).flatMap((entry) => [...markdownUnder(root, entry)]);
}
