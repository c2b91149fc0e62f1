import { describe, expect, it } from 'vitest';
import { formatProxyLatency, type ProxyLatencyReport } from './measure-proxy-latency.js';

const quantiles = (p50: number, p99: number) => ({ p50, p99, requests: 3600 });

/** A report of one run: the simulator at p99 9 ms, each proxy adding `pipe` and `recorded` ms at p99. */
function report(pipe: number, recorded: number, verdict: ProxyLatencyReport['verdict']): ProxyLatencyReport {
  return {
    rate: 200,
    secondsPerRound: 3,
    rounds: 6,
    direct: quantiles(0.9, 9),
    pipe: quantiles(1.8, 9 + pipe),
    forwardOnly: quantiles(2, 9 + pipe),
    recorded: quantiles(2.1, 9 + recorded),
    added: {
      pipe: { p50: 0.9, p99: pipe },
      forwardOnly: { p50: 1.1, p99: pipe },
      recorded: { p50: 1.2, p99: recorded },
    },
    failures: 0,
    failuresByRow: {},
    catchUpMs: 900,
    harBytes: 1_048_576,
    loadAverage: [1, 1, 1],
    cpuPerRequestMs: {
      forwardOnly: 1.3,
      recorded: 7,
      recordedCaughtUp: true,
      counted: 'rounds',
      warmUp: { seconds: 15, forwardOnly: 1.9, recorded: 8.25 },
    },
    verdict,
  };
}

const targetLine = (text: string) => text.split('\n').find((line) => line.includes('target:'));

describe('the recording proxy row', () => {
  it("reads the recorder's added p99 beside the bare pipe's, and says by how much", () => {
    const line = targetLine(formatProxyLatency(report(1.24, 3.15, 'missed')));
    expect(line).toContain(
      "<= 1 ms above a bare node:http pipe's: MISSED (1.91 ms above the bare pipe's 1.24 ms)",
    );
  });

  it('says met when the recorder adds at most 1 ms more than the pipe', () => {
    expect(targetLine(formatProxyLatency(report(2.5, 3.4, 'met')))).toContain(': met (0.90 ms above');
  });

  it("prints the recording's own CPU per page beside its target", () => {
    expect(formatProxyLatency(report(1, 1.5, 'met'))).toContain(
      "of which the recording's own 5.70 ms (target <= 2 ms)",
    );
  });

  it('says what the CPU per page counts: the measured rounds, or whole lives when /proc could not be read', () => {
    const measured = report(1, 1.5, 'met');
    expect(formatProxyLatency(measured)).toContain(
      'CPU per recorded page (measured rounds): forwarding 1.30 ms',
    );
    const lifetime = {
      ...measured,
      cpuPerRequestMs: { ...measured.cpuPerRequestMs, counted: 'lifetime' as const },
    };
    expect(formatProxyLatency(lifetime)).toContain(
      "CPU per recorded page (each process's whole life, start-up and warm-up included: /proc could not be read)",
    );
  });

  it("prints the warm-up's CPU per page it left out, and '?' where /proc could not be read", () => {
    const measured = report(1, 1.5, 'met');
    expect(formatProxyLatency(measured)).toContain(
      "left out: the 15 s warm-up, the four at once (V8 compiling the proxies' code): forwarding 1.90 ms, recording 8.25 ms a page",
    );
    const unread = { ...measured, cpuPerRequestMs: { ...measured.cpuPerRequestMs, warmUp: { seconds: 15 } } };
    expect(formatProxyLatency(unread)).toContain('forwarding ?, recording ? a page');
  });
});
