/**
 * How a bench server child talks to the runner: one `BENCH_READY {json}` line on stdout once it
 * listens, and a clean exit on SIGTERM/SIGINT or when the runner's end of stdin closes (so a runner
 * killed hard leaves no server behind). A clean exit also lets `--cpu-prof` write its profile.
 */
import type { Server } from 'node:http';

/** What a child serves: a node server, or a started simulator (`close()` stops everything it runs). */
export type Closable = Server | { close(): Promise<void> };

export const READY_PREFIX = 'BENCH_READY ';
/** Further reports a child writes after ready (`BENCH_<KIND> {json}`), collected when the runner asks. */
export const REPORT_PREFIX = 'BENCH_';

/** What every child reports once it listens; children add their own members. */
export interface ReadyInfo {
  url: string;
  [member: string]: unknown;
}

export function reportReady(info: ReadyInfo): void {
  process.stdout.write(`${READY_PREFIX}${JSON.stringify(info)}\n`);
}

/** Writes `BENCH_<KIND> {json}` (stdout is synchronous on a pipe, so it is out before an exit). */
export function reportLine(kind: string, info: object): void {
  process.stdout.write(`${REPORT_PREFIX}${kind} ${JSON.stringify(info)}\n`);
}

/** The ReadyInfo of a `BENCH_READY` line, or undefined for any other line. */
export function parseReadyLine(line: string): ReadyInfo | undefined {
  if (!line.startsWith(READY_PREFIX)) return undefined;
  const info = JSON.parse(line.slice(READY_PREFIX.length)) as ReadyInfo;
  if (typeof info.url !== 'string') throw new Error(`ready line without url: ${line}`);
  return info;
}

/** Closes the server, runs `beforeExit` (e.g. writes a profile) and exits 0 on SIGTERM, SIGINT or the end of stdin. */
export function exitCleanly(server: Closable, beforeExit: () => Promise<void> = async () => undefined): void {
  let closing = false;
  const stop = () => {
    if (closing) return;
    closing = true;
    if ('closeAllConnections' in server) server.closeAllConnections();
    void server.close();
    beforeExit().then(
      () => process.exit(0),
      (error: unknown) => {
        console.error(error);
        process.exit(1);
      },
    );
    // A hook that never settles must not keep the child alive.
    setTimeout(() => process.exit(1), 10_000).unref();
  };
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
  process.stdin.on('end', stop);
  process.stdin.on('close', stop);
  process.stdin.resume();
}
