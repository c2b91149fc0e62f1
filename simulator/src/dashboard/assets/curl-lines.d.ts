/** Types of curl-lines.js, for the tests that run its lines (the dashboard's modules are plain JS). */
export function variableOf(field: string): string;
export function maskedFields(lines: readonly string[]): string[];
export function runnableCurl(line: string): string;
export function preamble(key: { id: string; secret: string }, lines: readonly string[]): string;
