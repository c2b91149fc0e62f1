import { mkdtempSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { describe, expect, it, vi } from 'vitest';
import { parseSimulatorConfig } from '../../simulator/src/config/simulator-config.js';
import { startSimulator } from '../../simulator/src/start-simulator.js';
import {
  environmentKey,
  failureLine,
  flagsOf,
  parseArgsLine,
  parseBaseUrl,
  parseKey,
  parseReport,
  runGuarded,
  UsageError,
  writeReport,
} from './command-line.js';

describe('shared parsers', () => {
  it('reads keys as id:secret, the secret keeping further colons', () => {
    expect(parseKey('id:se:cret')).toEqual({ secretId: 'id', secretPassword: 'se:cret' });
    expect(() => parseKey('nocolon')).toThrow('--keys wants id:secret, got "nocolon"');
  });

  it('reads --report kind:path and refuses other kinds', () => {
    expect(parseReport('junit:out/c.xml')).toEqual({ kind: 'junit', path: 'out/c.xml' });
    expect(parseReport('md:out/c.md')).toEqual({ kind: 'md', path: 'out/c.md' });
    expect(() => parseReport('xml:c.xml')).toThrow(UsageError);
    expect(() => parseReport('xml:c.xml')).toThrow(
      '--report wants junit:PATH, json:PATH or md:PATH, got "xml:c.xml"',
    );
  });

  it('wants a base URL with its scheme', () => {
    expect(parseBaseUrl('http://127.0.0.1:4010/')).toBe('http://127.0.0.1:4010');
    expect(() => parseBaseUrl('127.0.0.1:4010')).toThrow('is not an http:// or https:// URL');
  });

  it('writes a report into folders it creates', () => {
    const path = join(mkdtempSync(join(tmpdir(), 'ofkit-report-')), 'new/dir/c.xml');
    writeReport(path, '<x/>');
    expect(readFileSync(path, 'utf8')).toBe('<x/>');
  });
});

describe('simulate options', () => {
  it("takes Prism's -p and -h HOST; -h alone is help", () => {
    const config = parseSimulatorConfig(['-p', '0', '-h', '127.0.0.2']);
    expect([config.port, config.host, config.help]).toEqual([0, '127.0.0.2', false]);
    expect(parseSimulatorConfig(['-h']).help).toBe(true);
    expect(parseSimulatorConfig(['-h', '-p', '1']).help).toBe(true);
  });

  it('refuses an unknown --break rule', () => {
    expect(() => parseSimulatorConfig(['--break', 'NOPE'])).toThrow('unknown rule "NOPE"');
  });
});

describe('runGuarded', () => {
  it('turns a busy port into one line and exit code 2', async () => {
    const busy = createServer();
    await new Promise<void>((done) => busy.listen(0, '127.0.0.1', done));
    const port = (busy.address() as { port: number }).port;
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {});
    try {
      const code = await runGuarded('simulate', async () => {
        const simulator = await startSimulator({ port });
        await simulator.close();
        return 0;
      });
      expect(code).toBe(2);
      expect(errors.mock.calls).toEqual([
        [
          `ofkit simulate: port ${port} on 127.0.0.1 is in use (choose another with --port, or --port 0 for a free one)`,
        ],
      ]);
    } finally {
      errors.mockRestore();
      busy.close();
    }
  });

  it('rethrows a programmer mistake', async () => {
    expect(failureLine(new TypeError('x'))).toBeUndefined();
    await expect(runGuarded('check', async () => Promise.reject(new TypeError('bug')))).rejects.toThrow(
      'bug',
    );
  });
});

/** The error node:util's parseArgs throws for these arguments. */
function parseArgsError(args: string[]): unknown {
  try {
    parseArgs({ args, options: { seed: { type: 'string' }, quiet: { type: 'boolean' } }, strict: true });
  } catch (error) {
    return error;
  }
  throw new Error('parsed');
}

describe("parseArgs errors in ofkit's words", () => {
  const usage = '  --seed S   the seed\n  --quiet    fewer lines';

  it("names an unknown option and the closest one the command has, not Node's explanation", () => {
    expect(flagsOf(usage)).toEqual(['--seed', '--quiet']);
    expect(parseArgsLine(parseArgsError(['--sed', '1']), usage)).toBe(
      'unknown option --sed: did you mean --seed?',
    );
    expect(parseArgsLine(parseArgsError(['--foo']), usage)).toBe('unknown option --foo');
    expect(parseArgsLine(parseArgsError(['--quite=1']), usage)).toBe(
      'unknown option --quite: did you mean --quiet?',
    );
  });

  it('says which option wants a value, or takes none', () => {
    expect(parseArgsLine(parseArgsError(['--seed']), usage)).toBe('--seed needs a value');
    expect(parseArgsLine(parseArgsError(['--quiet=yes']), usage)).toBe('--quiet takes no value');
  });

  it('prints one line and exits 2 through runGuarded, with the help hint', async () => {
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {});
    try {
      const code = await runGuarded('exec', async () => Promise.reject(parseArgsError(['--sed'])), { usage });
      expect(code).toBe(2);
      expect(errors.mock.calls).toEqual([
        ['ofkit exec: unknown option --sed: did you mean --seed? (ofkit exec --help)'],
      ]);
    } finally {
      errors.mockRestore();
    }
  });
});

describe('keys from $OFKIT_KEY and $OFKIT_SECRET', () => {
  const how = 'pass --keys id:secret';

  it('reads both, or neither', () => {
    expect(environmentKey({ OFKIT_KEY: 'id', OFKIT_SECRET: 's:x' }, how)).toBe('id:s:x');
    expect(environmentKey({}, how)).toBeUndefined();
  });

  it('says when both are empty (what CI gives a pull request from a fork)', () => {
    expect(() => environmentKey({ OFKIT_KEY: '', OFKIT_SECRET: '' }, how)).toThrow(
      '$OFKIT_KEY and $OFKIT_SECRET are both empty: pass --keys id:secret',
    );
  });

  it('names the one that is missing, and how', () => {
    expect(() => environmentKey({ OFKIT_KEY: 'id', OFKIT_SECRET: '' }, how)).toThrow(
      '$OFKIT_SECRET is empty while $OFKIT_KEY is set',
    );
    expect(() => environmentKey({ OFKIT_SECRET: 's' }, how)).toThrow(
      '$OFKIT_KEY is unset while $OFKIT_SECRET is set',
    );
    expect(() => environmentKey({ OFKIT_KEY: '' }, how)).toThrow(
      '$OFKIT_KEY is empty and $OFKIT_SECRET is unset',
    );
  });
});
