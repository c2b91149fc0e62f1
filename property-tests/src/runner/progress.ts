/**
 * Progress on stderr while rules run: on a terminal one line kept up to date; in
 * CI a line when a rule has been running for a while, so logs show life without flooding.
 */
import type { SuiteEvent } from './run-suite.js';

const QUIET_MS = 2000;

export interface Progress {
  onEvent(event: SuiteEvent): void;
  stop(): void;
}

export function createProgress(stream: NodeJS.WriteStream = process.stderr, intervalMs = QUIET_MS): Progress {
  let current: { label: string; runs: number; since: number } | undefined;
  const write = (text: string) => {
    if (stream.isTTY) stream.write(`\r\x1b[2K${text}`);
    else stream.write(`${text}\n`);
  };
  const timer = setInterval(() => {
    if (current && (stream.isTTY || performance.now() - current.since >= intervalMs)) {
      const elapsed = ((performance.now() - current.since) / 1000).toFixed(0);
      write(`${current.label}: ${current.runs} runs, ${elapsed} s`);
    }
  }, intervalMs);
  timer.unref();
  return {
    onEvent(event) {
      if (event.type === 'rule:start') {
        current = {
          label: `[${event.index + 1}/${event.total}] ${event.rule.id}`,
          runs: 0,
          since: performance.now(),
        };
      } else if (event.type === 'rule:run' && current) current.runs = event.runsDone;
      else if (event.type === 'rule:end') current = undefined;
    },
    stop() {
      clearInterval(timer);
      if (stream.isTTY) stream.write('\r\x1b[2K');
    },
  };
}
