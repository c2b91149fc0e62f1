import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEVELOPMENT_LAUNCHER, finished, runOfkit } from '../test-support/cli-process.js';

describe('ofkit <command>: usage mistakes are one line and exit code 2', () => {
  it.concurrent.each([
    [
      ['simulte'],
      'ofkit: unknown command "simulte": did you mean simulate? (ofkit --help lists the commands)',
    ],
    [['xyzzy'], 'ofkit: unknown command "xyzzy" (ofkit --help lists the commands)'],
    [
      ['simulate', '--sed', '1'],
      'ofkit simulate: unknown option --sed: did you mean --seed? (ofkit simulate --help)',
    ],
    [
      ['openapi', '--fromat', 'yaml'],
      'ofkit openapi: unknown option --fromat: did you mean --format? (ofkit openapi --help)',
    ],
  ])(
    'ofkit %j',
    async (args, line) => {
      const { code, stdout, stderr } = await runOfkit(args);
      expect({ code, stdout, stderr }).toEqual({ code: 2, stdout: '', stderr: `${line}\n` });
    },
    60_000,
  );
});

// The other tests of the lane start the lane's compiled command line; `npm start` runs this launcher.
describe('the development launcher (npm start): the TypeScript sources through tsx', () => {
  it('runs the command line: its version, and a usage mistake as one line and exit code 2', async () => {
    const launch = (args: string[]) => finished(spawn(process.execPath, [DEVELOPMENT_LAUNCHER, ...args]));
    const { version } = JSON.parse(readFileSync(join(import.meta.dirname, '../../package.json'), 'utf8'));
    expect(await launch(['--version'])).toMatchObject({ code: 0, stdout: `${version}\n`, stderr: '' });
    expect(await launch(['xyzzy'])).toMatchObject({
      code: 2,
      stderr: 'ofkit: unknown command "xyzzy" (ofkit --help lists the commands)\n',
    });
  }, 60_000);
});
