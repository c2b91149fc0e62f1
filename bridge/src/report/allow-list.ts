/**
 * `--allow <file>`: the differences a team accepts, in the shape of openapi/checks/provider-differences.yaml:
 * a YAML list of `{ match, reason }`, where `match` is a regular expression over an entry's line
 * `<operation> <status> <kind>[ <member>][ <rule>]` (e.g. `listAccounts 200 undocumented-member
 * results[].nickname`). A file that breaks this shape is one clear error.
 */
import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { ConfigError } from '../../../openapi/config/config-error.js';

export interface Allowance {
  match: RegExp;
  reason: string;
}

/** A ConfigError: the command line's one boundary prints it on one line, exit code 2. */
export class AllowFileError extends ConfigError {
  override name = 'AllowFileError';
}

/** The line an allowance's `match` is read against. */
export function allowLine(entry: {
  operation: string;
  status: number;
  kind: string;
  member?: string;
  rule?: string;
}): string {
  return [entry.operation, String(entry.status), entry.kind, entry.member, entry.rule]
    .filter(Boolean)
    .join(' ');
}

export function readAllowFile(file: string): Allowance[] {
  let raw: unknown;
  try {
    raw = parse(readFileSync(file, 'utf8'));
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code ?? (error as Error).message.split('\n')[0];
    throw new AllowFileError(`--allow ${file}: cannot read it (${reason})`);
  }
  if (raw === null || raw === undefined) return [];
  if (!Array.isArray(raw))
    throw new AllowFileError(`--allow ${file}: wants a YAML list of { match, reason }`);
  return raw.map((item, index) => {
    const { match, reason } = (item ?? {}) as { match?: unknown; reason?: unknown };
    if (typeof match !== 'string' || typeof reason !== 'string' || reason.trim() === '')
      throw new AllowFileError(
        `--allow ${file}: entry ${index + 1} needs a \`match\` (regular expression) and a \`reason\``,
      );
    try {
      return { match: new RegExp(match), reason };
    } catch (error) {
      throw new AllowFileError(`--allow ${file}: entry ${index + 1}: ${(error as Error).message}`);
    }
  });
}
