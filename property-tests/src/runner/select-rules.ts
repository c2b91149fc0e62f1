/**
 * `--rules GLOB`: selects rules by ID. A pattern is a comma-separated list of globs (`*` any run of
 * characters, `?` one); a glob starting with `!` excludes. Matching ignores case.
 */
import type { Rule } from '../rules/rule.js';

function globToRegExp(glob: string): RegExp {
  const escaped = glob
    .replace(/[.+^${}()|[\]\\]/g, '\\$&')
    .replace(/\*/g, '.*')
    .replace(/\?/g, '.');
  return new RegExp(`^${escaped}$`, 'i');
}

/** True when `id` matches the patterns (no pattern: every ID). */
export function matchesRules(id: string, patterns: readonly string[]): boolean {
  const globs = patterns
    .flatMap((pattern) => pattern.split(','))
    .map((glob) => glob.trim())
    .filter(Boolean);
  const include = globs.filter((glob) => !glob.startsWith('!')).map(globToRegExp);
  const exclude = globs.filter((glob) => glob.startsWith('!')).map((glob) => globToRegExp(glob.slice(1)));
  const included = include.length === 0 || include.some((pattern) => pattern.test(id));
  return included && !exclude.some((pattern) => pattern.test(id));
}

/** The rules whose ID matches, in catalogue order. */
export function selectRules(rules: readonly Rule[], patterns: readonly string[]): Rule[] {
  return rules.filter((rule) => matchesRules(rule.id, patterns));
}
