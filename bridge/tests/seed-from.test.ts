/**
 * `ofkit simulate --seed-from <recording>`: the option is taken out before the simulator's own options
 * are read (it is the bridge's), may be repeated, and a recording that cannot be read stops the start
 * with one line and exit 2, the simulator it had started closed again. Run as a user runs it, the
 * recording is loaded before "listening on" is printed, and a signal sent as soon as that line is read
 * gets the closing lines.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { simulateCommand, splitSeedFrom } from '../../scripts/cli/simulate.js';
import { finished, startOfkit } from '../../scripts/test-support/cli-process.js';
import { startSimulator } from '../../simulator/src/start-simulator.js';
import { startRecorder } from '../src/recording/recorder.js';
import { BANK, register } from '../test-support/sample-traffic.js';
import { trafficClient } from '../test-support/traffic-client.js';

describe('ofkit simulate --seed-from', () => {
  it('is taken out of the simulator options, repeatable, in both spellings', () => {
    expect(
      splitSeedFrom(['--port', '0', '--seed-from', 'a.har', '--seed-from=b.har', '--seed', 'x']),
    ).toEqual({
      recordings: ['a.har', 'b.har'],
      rest: ['--port', '0', '--seed', 'x'],
    });
    expect(splitSeedFrom(['--', '--seed-from', 'a.har'])).toEqual({
      recordings: [],
      rest: ['--', '--seed-from', 'a.har'],
    });
    expect(() => splitSeedFrom(['--seed-from'])).toThrow(/wants a recording/);
  });

  it('a recording that cannot be read: one line, exit 2', async () => {
    const log = vi.spyOn(console, 'log').mockImplementation(() => undefined);
    const errors = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    try {
      expect(await simulateCommand(['--port', '0', '--seed-from', '/nonexistent/session.har'])).toBe(2);
      expect(String(errors.mock.calls.at(-1)?.[0])).toMatch(
        /^ofkit simulate: --seed-from: cannot read \/nonexistent\/session\.har/,
      );
    } finally {
      log.mockRestore();
      errors.mockRestore();
    }
  });

  it('as a command: the recorded link is there when "listening on" is printed; SIGTERM then closes it', {
    timeout: 60_000,
  }, async () => {
    const folder = await mkdtemp(join(tmpdir(), 'ofkit-seed-from-'));
    const recorded = await startSimulator({ seed: 'seed-from-A', tickMs: 0 });
    try {
      const har = join(folder, 'session.har');
      const recorder = await startRecorder({ upstream: recorded.url, harPath: har, env: {} });
      const client = trafficClient(recorder.url, recorded.keys[0]!);
      const link = await register(client.call, BANK);
      await client.call('GET', `/api/links/${link}/`);
      await recorder.close();

      const child = startOfkit(['simulate', '--port', '0', '--seed', 'seed-from-B', '--seed-from', har]);
      const exit = finished(child);
      let output = '';
      const url = await new Promise<string>((found, failed) => {
        child.stdout.on('data', (chunk) => {
          output += chunk;
          const listening = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(output);
          if (listening) found(listening[1]!);
        });
        child.once('close', () => failed(new Error(`ofkit simulate ended before it listened:\n${output}`)));
      });
      const key = recorded.keys[0]!;
      const answer = await fetch(`${url}/api/links/${link}/`, {
        headers: {
          authorization: `Basic ${Buffer.from(`${key.secretId}:${key.secretPassword}`).toString('base64')}`,
        },
      });
      child.kill('SIGTERM');
      const { code, stdout } = await exit;
      expect(answer.status).toBe(200);
      expect(((await answer.json()) as { id: string }).id).toBe(link);
      expect(stdout).toMatch(/SIGTERM: closing the simulator/);
      expect(stdout.indexOf('listening on')).toBeLessThan(stdout.indexOf('(--seed-from)'));
      expect(code).toBe(0);
    } finally {
      await recorded.close();
      await rm(folder, { recursive: true, force: true });
    }
  });
});
