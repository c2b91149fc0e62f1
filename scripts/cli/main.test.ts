import { describe, expect, it } from 'vitest';
import { runOfkit } from '../test-support/cli-process.js';

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
