/**
 * The one shell-quoting function of every printed command (the request log's and the judge's curl
 * lines, the dashboard's `export` line, the suite's failures, `export` lines of keys): a POSIX
 * single-quoted word, so that a pasted line runs only itself, whatever a path, header or body holds.
 * Self-contained on purpose: the dashboard is served this function's own source (no build step).
 */
export function shellQuote(text: string): string {
  return `'${String(text).replaceAll("'", `'\\''`)}'`;
}
