import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { startReceiver } from '../../simulator/test-support/test-receiver.js';
import { execCommand, splitExecArguments } from './exec.js';

/** A command that asks the simulator (at $OFKIT_URL, with $OFKIT_KEY) for the API root and exits 7. */
const PROBE = [
  'const env = process.env;',
  'const auth = Buffer.from(env.OFKIT_KEY + ":" + env.OFKIT_SECRET).toString("base64");',
  'const headers = { authorization: "Basic " + auth };',
  'const answer = await fetch(env.OFKIT_URL + "/api/", { headers });',
  'const control = await fetch(env.OFKIT_CONTROL_URL + "clock/", { headers });',
  'const seeded = env.OFKIT_SEED === "probe-seed" && env.OFKIT_ENVIRONMENT === "production";',
  'process.exit(answer.status === 200 && control.status === 200 && seeded ? 7 : 1);',
].join('\n');

/** exec's stderr lines while `run` runs. */
async function stderrOf(run: () => Promise<number>): Promise<{ code: number; lines: string[] }> {
  const errors = vi.spyOn(console, 'error').mockImplementation(() => {});
  try {
    const code = await run();
    return { code, lines: errors.mock.calls.map(([line]) => String(line)) };
  } finally {
    errors.mockRestore();
  }
}

/**
 * A vitest file that attaches to exec's simulator, sends a request, reads the judge's report and resets
 * the simulator at the end of its case (as the README's in-process recipe does).
 */
const ATTACHED_TEST = (startSimulator: string) => `
import { expect, it } from 'vitest';
import { startSimulator } from '${startSimulator}';
it("attaches to ofkit exec's simulator", async () => {
  const simulator = await startSimulator({ attach: true });
  const { secretId, secretPassword } = simulator.keys[0];
  const authorization = 'Basic ' + Buffer.from(secretId + ':' + secretPassword).toString('base64');
  expect((await fetch(simulator.url + '/api/institutions/', { headers: { authorization } })).status).toBe(200);
  expect((await simulator.judge()).requests).toBe(1);
  await simulator.control.reset();
  await simulator.close();
});
`;

/** Registers a recurrent link (it raises events), then waits until the receiver acknowledged them all. */
const RAISES_EVENTS = [
  'const env = process.env;',
  'const headers = { authorization: "Basic " + btoa(env.OFKIT_KEY + ":" + env.OFKIT_SECRET), "content-type": "application/json" };',
  'const body = JSON.stringify({ institution: "ofbank_br_retail", username: "76109277673", password: "secret", access_mode: "recurrent" });',
  'await fetch(env.OFKIT_URL + "/api/links/", { method: "POST", headers, body });',
  'for (let tries = 0; tries < 200; tries++) {',
  '  const events = await (await fetch(env.OFKIT_CONTROL_URL + "events/", { headers })).json();',
  '  if (events.length > 0 && events.every((event) => event.status === "delivered")) process.exit(0);',
  '  await new Promise((wake) => setTimeout(wake, 50));',
  '}',
  'process.exit(3);',
].join('\n');

describe('ofkit exec', () => {
  it("splits at --: simulate's options (port 0 unless given) before, the command after", () => {
    expect(splitExecArguments(['--seed', 's', '--quiet', '--', 'npm', 'test', '--', 'x'])).toEqual({
      simulateArgs: ['--port', '0', '--seed', 's'],
      execFlags: new Set(['--quiet']),
      command: ['npm', 'test', '--', 'x'],
    });
  });

  it('runs the command with OFKIT_URL, OFKIT_KEY, OFKIT_SECRET, OFKIT_CONTROL_URL, OFKIT_SEED, OFKIT_ENVIRONMENT and exits with its code', async () => {
    const argv = ['--quiet', '--seed', 'probe-seed', '--'];
    const code = await execCommand([...argv, process.execPath, '--input-type=module', '-e', PROBE]);
    expect(code).toBe(7);
  });

  it('--judge over a command that sent no request to the simulator: exit 1, one line saying how to point the client at it', async () => {
    const { code, lines } = await stderrOf(() =>
      execCommand(['--quiet', '--judge', '--', 'sh', '-c', 'true']),
    );
    expect(code).toBe(1);
    const gate = lines.filter((line) => line.startsWith('ofkit exec'));
    expect(gate).toEqual([expect.stringMatching(/^ofkit exec --judge: no request reached this simulator/)]);
    expect(gate[0]).toContain('$OFKIT_URL');
    expect(gate[0]).toContain('startSimulator({ attach: true })');
  });

  it('--judge over a vitest file that attaches with startSimulator({ attach: true }) and resets: the judge keeps its requests, exit 0', {
    timeout: 120_000,
  }, async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ofkit-attach-'));
    try {
      const entry = resolve(import.meta.dirname, '../../simulator/src/start-simulator.ts');
      writeFileSync(join(dir, 'attached.test.ts'), ATTACHED_TEST(entry));
      const vitest = resolve(import.meta.dirname, '../../node_modules/vitest/vitest.mjs');
      const command = [process.execPath, vitest, 'run', '--root', dir, '--reporter', 'dot'];
      const { code, lines } = await stderrOf(() => execCommand(['--quiet', '--judge', '--', ...command]));
      expect(code, lines.join('\n')).toBe(0);
      expect(lines.join('\n')).toMatch(/client judge, tenant ofkit-key-a \(1 requests?/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('webhook lines: one summary line at shutdown by default, a line per attempt with --log-level debug', {
    timeout: 60_000,
  }, async () => {
    const receiver = await startReceiver(() => 200);
    try {
      const run = (level: string[]) =>
        stderrOf(() =>
          execCommand([
            ...level,
            '--webhook-url',
            receiver.url,
            '--',
            process.execPath,
            '--input-type=module',
            '-e',
            RAISES_EVENTS,
          ]),
        );
      const info = await run([]);
      expect(info.code).toBe(0);
      const events = receiver.received.length;
      expect(events).toBeGreaterThan(0);
      expect(info.lines.filter((line) => line.startsWith('webhook '))).toEqual([]);
      expect(info.lines.filter((line) => line.startsWith('webhooks: '))).toEqual([
        expect.stringContaining(
          `webhooks: ${events} delivery attempts for ${events} events (${events} delivered) (each attempt: --log-level debug;`,
        ),
      ]);
      const debug = await run(['--log-level', 'debug']);
      expect(debug.code).toBe(0);
      expect(
        debug.lines.filter((line) => /^webhook ofkit-key-a .* attempt 1 -> 200 /.test(line)),
      ).toHaveLength(events);
    } finally {
      await receiver.close();
    }
  });

  it('--log-level other than info or debug: one line, exit 2', async () => {
    const { code, lines } = await stderrOf(() => execCommand(['--log-level', 'loud', '--', 'true']));
    expect(code).toBe(2);
    expect(lines).toEqual([expect.stringContaining('--log-level must be info or debug, got "loud"')]);
  });

  it('a --judge-report path that cannot be written: one line, exit 2, before the command runs', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ofkit-judge-report-'));
    try {
      writeFileSync(join(dir, 'package.json'), '{}');
      const report = `junit:${join(dir, 'package.json/judge.xml')}`;
      const marker = join(dir, 'ran');
      const { code, lines } = await stderrOf(() =>
        execCommand(['--judge-report', report, '--', 'sh', '-c', `touch ${marker}`]),
      );
      expect(code).toBe(2);
      expect(lines).toEqual([
        expect.stringMatching(
          /^ofkit exec: --judge-report junit:.*judge\.xml cannot be written: .*package\.json is a file, not a folder/,
        ),
      ]);
      expect(existsSync(marker)).toBe(false);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('refuses a missing command with one line and exit code 2', async () => {
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {});
    try {
      expect(await execCommand(['--seed', 's'])).toBe(2);
      expect(errors.mock.calls).toEqual([
        ['ofkit exec: give the command to run after -- (ofkit exec --help)'],
      ]);
    } finally {
      errors.mockRestore();
    }
  });

  it('refuses --judge beside --no-judge (a gate on a judge that is off) with one line and exit code 2', async () => {
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {});
    try {
      expect(await execCommand(['--judge', '--no-judge', '--', process.execPath, '-e', ''])).toBe(2);
      expect(errors.mock.calls).toEqual([
        [
          'ofkit exec: --judge gates on the client judge, which --no-judge turns off: drop one (ofkit exec --help)',
        ],
      ]);
    } finally {
      errors.mockRestore();
    }
  });

  it.each([
    [['npm', 'test'], 'ofkit exec -- npm test'],
    [['--seed', '42', 'npm', 'run', 'e2e'], 'ofkit exec --seed 42 -- npm run e2e'],
  ])('a command without -- (%j): says to put it after --, with the line to type', async (argv, fixed) => {
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {});
    try {
      expect(await execCommand(argv)).toBe(2);
      expect(errors.mock.calls).toEqual([
        [`ofkit exec: put the command after --: ${fixed} (ofkit exec --help)`],
      ]);
    } finally {
      errors.mockRestore();
    }
  });

  it("an unknown option: ofkit's one line with the closest option", async () => {
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {});
    try {
      expect(await execCommand(['--judgee', '--', 'true'])).toBe(2);
      expect(errors.mock.calls).toEqual([
        ['ofkit exec: unknown option --judgee: did you mean --judge? (ofkit exec --help)'],
      ]);
    } finally {
      errors.mockRestore();
    }
  });
});
