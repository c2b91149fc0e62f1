import { describe, expect, it, vi } from 'vitest';
import { execCommand, splitExecArguments } from './exec.js';

/** A command that asks the simulator (at $OFKIT_URL, with $OFKIT_KEY) for the API root and exits 7. */
const PROBE = [
  'const env = process.env;',
  'const auth = Buffer.from(env.OFKIT_KEY + ":" + env.OFKIT_SECRET).toString("base64");',
  'const headers = { authorization: "Basic " + auth };',
  'const answer = await fetch(env.OFKIT_URL + "/api/", { headers });',
  'const control = await fetch(env.OFKIT_CONTROL_URL + "clock/", { headers });',
  'process.exit(answer.status === 200 && control.status === 200 ? 7 : 1);',
].join('\n');

describe('ofkit exec', () => {
  it("splits at --: simulate's options (port 0 unless given) before, the command after", () => {
    expect(splitExecArguments(['--seed', 's', '--quiet', '--', 'npm', 'test', '--', 'x'])).toEqual({
      simulateArgs: ['--port', '0', '--seed', 's'],
      execFlags: new Set(['--quiet']),
      command: ['npm', 'test', '--', 'x'],
    });
  });

  it('runs the command with OFKIT_URL, OFKIT_KEY, OFKIT_SECRET, OFKIT_CONTROL_URL and exits with its code', async () => {
    const code = await execCommand(['--quiet', '--', process.execPath, '--input-type=module', '-e', PROBE]);
    expect(code).toBe(7);
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
