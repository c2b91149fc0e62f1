/**
 * `ofkit check`'s usage is checked before any work: every mistake is one line of ofkit's own and exit
 * code 2, found before the target is even asked (the base URL here answers nothing).
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { check } from './check.js';
import { parseCheckOptions, suggestion } from './check-options.js';
import { reportPathProblem } from './report-path.js';

const NOWHERE = 'http://127.0.0.1:1';

async function usage(argv: string[]) {
  const err: string[] = [];
  const out: string[] = [];
  vi.spyOn(console, 'error').mockImplementation((text: string) => err.push(String(text)));
  vi.spyOn(console, 'log').mockImplementation((text: string) => out.push(String(text)));
  try {
    return { code: await check(argv), err: err.join('\n'), out: out.join('\n') };
  } finally {
    vi.restoreAllMocks();
  }
}

describe('ofkit check: usage checked before work', () => {
  it('a --report path inside a file: one line, exit 2, before the target is asked', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ofkit-report-path-'));
    writeFileSync(join(dir, 'package.json'), '{}');
    const { code, err, out } = await usage([NOWHERE, '--report', `junit:${join(dir, 'package.json/x.xml')}`]);
    expect(code).toBe(2);
    expect(err.split('\n')).toHaveLength(1);
    expect(err).toMatch(
      /^ofkit check: --report junit:.*package\.json\/x\.xml cannot be written: .*package\.json is a file, not a folder/,
    );
    expect(err).not.toContain('nothing answers');
    expect(out).toBe('');
  });

  it('a report path that is a folder, and one named twice, are refused the same way', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ofkit-report-path-'));
    expect((await usage([NOWHERE, '--report', `json:${dir}`])).err).toContain(`${dir} is a folder`);
    const twice = await usage([NOWHERE, '--report', `json:${dir}/a.json`, '--report', `junit:${dir}/a.json`]);
    expect(twice.code).toBe(2);
    expect(twice.err).toContain('names');
    expect(reportPathProblem(join(dir, 'new/folders/c.xml'))).toBeUndefined();
  });

  it("an unknown option gets ofkit's own line with the closest option, never parseArgs' text", async () => {
    const { code, err } = await usage([NOWHERE, '--foo']);
    expect(code).toBe(2);
    expect(err).toBe('ofkit check: unknown option --foo (ofkit check --help)');
    expect((await usage([NOWHERE, '--rule', 'API-ROOT'])).err).toBe(
      'ofkit check: unknown option --rule (did you mean --rules?) (ofkit check --help)',
    );
    expect((await usage([NOWHERE, '--min-coverag', 'operations=1'])).err).toContain(
      'did you mean --min-coverage?',
    );
    expect(suggestion('--enviroment')).toBe(' (did you mean --environment?)');
    expect((await usage([NOWHERE, '--seed'])).err).toBe(
      'ofkit check: --seed wants a value (ofkit check --help)',
    );
  });

  it('--environment takes production or sandbox; a bad config file and no matching rule are usage errors', async () => {
    expect(parseCheckOptions([NOWHERE, '--environment', 'sandbox']).environment).toBe('sandbox');
    const bad = await usage([NOWHERE, '--environment', 'staging']);
    expect(bad.code).toBe(2);
    expect(bad.err).toContain('--environment wants production or sandbox, got "staging"');
    const dir = mkdtempSync(join(tmpdir(), 'ofkit-config-'));
    writeFileSync(join(dir, 'c.json'), '{"keys": 1}');
    const config = await usage([NOWHERE, '--config', join(dir, 'c.json')]);
    expect(config.code).toBe(2);
    expect(config.err).toContain('does not match config.schema.json');
    const rules = await usage([NOWHERE, '--rules', 'NO-SUCH-*']);
    expect(rules.code).toBe(2);
    expect(rules.err).toContain('no rule matches --rules NO-SUCH-*');
  });

  it('--help shows --min-coverage and --strict as the CI mode', async () => {
    const { code, out } = await usage(['--help']);
    expect(code).toBe(0);
    expect(out).toContain('--min-coverage operations=N,statuses=M');
    expect(out).toContain('--strict                the CI mode');
    expect(out).toContain('In CI: ofkit check <base-url> --strict --min-coverage operations=100');
  });
});
