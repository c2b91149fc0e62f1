/**
 * Progress on stderr while rules run: on a terminal one line kept up to date; in
 * CI a line when a rule has been running for a while, so logs show life without flooding. Rules that
 * run side by side: the one running longest is shown.
 */
import type { SuiteEvent } from './suite-event.js';

const QUIET_MS = 2000;

export interface Progress {
  onEvent(event: SuiteEvent): void;
  stop(): void;
}

export function createProgress(stream: NodeJS.WriteStream = process.stderr, intervalMs = QUIET_MS): Progress {
  const running = new Map<string, { label: string; runs: number; since: number }>();
  const longest = () => [...running.values()].sort((a, b) => a.since - b.since)[0];
  const write = (text: string) => {
    if (stream.isTTY) stream.write(`\r\x1b[2K${text}`);
    else stream.write(`${text}\n`);
  };
  const timer = setInterval(() => {
    const current = longest();
    if (current && (stream.isTTY || performance.now() - current.since >= intervalMs)) {
      const elapsed = ((performance.now() - current.since) / 1000).toFixed(0);
      write(`${current.label}: ${current.runs} runs, ${elapsed} s`);
    }
  }, intervalMs);
  timer.unref();
  return {
    onEvent(event) {
      if (event.type === 'rule:start') {
        const label = `[${event.index + 1}/${event.total}] ${event.rule.id}`;
        running.set(event.rule.id, { label, runs: 0, since: performance.now() });
      } else if (event.type === 'rule:run') {
        const entry = running.get(event.rule.id);
        if (entry) entry.runs = event.runsDone;
      } else if (event.type === 'rule:end') running.delete(event.result.id);
    },
    stop() {
      clearInterval(timer);
      if (stream.isTTY) stream.write('\r\x1b[2K');
    },
  };
}
