/**
 * `ofkit golive` on the two example clients, run as docs/golive.md prints it (the package's path to the
 * examples is this repository's): the careless client Not ready, with the situations it never met and
 * what to do to meet them; the careful client Ready on every item this version assesses; `verify`
 * reproducing both; nothing secret in either bundle. Then the exit codes: --strict, --not-applicable, and
 * 2 when golive could not run.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GoliveBundle } from '../src/index.js';
import { type GoliveShell, goliveShell } from '../test-support/golive-shell.js';

const ROOT = join(import.meta.dirname, '..', '..');
const CARELESS = join(ROOT, 'examples/golive/careless-client.mjs');

/** The `npx ofkit golive` lines of docs/golive.md's shell blocks, with the exit code each must end with. */
function documentedRuns(): { line: string; run: string; code: number }[] {
  const markdown = readFileSync(join(ROOT, 'docs/golive.md'), 'utf8');
  const blocks = [...markdown.matchAll(/```sh\n([\s\S]*?)```/g)].map((match) => match[1] as string);
  return blocks
    .flatMap((block) => block.split('\n'))
    .filter((line) => /^npx ofkit golive /.test(line) && !/[[<]/.test(line))
    .map((line) => ({
      line,
      run: line
        .replace(/\s+#.*$/, '')
        .replace(/ \|\| .*$/, '')
        .replaceAll('node_modules/ofkit/', `${ROOT}/`),
      code: Number(/# exit code (\d)/.exec(line)?.[1] ?? 0),
    }));
}

let folder: GoliveShell;
let dir: string;
beforeAll(() => {
  folder = goliveShell();
  dir = folder.dir;
});
afterAll(() => folder.remove());

const shell = (line: string) => folder.run(line);

const verdicts = (bundle: GoliveBundle) => Object.fromEntries(bundle.items.map((i) => [i.item, i.verdict]));
const outputs: Record<string, string> = {};

describe('ofkit golive, as docs/golive.md prints it', () => {
  const runs = documentedRuns();

  it('finds the careless and the careful runs, each with its verify', () => {
    expect(
      runs.map(({ run }) => /golive (verify )?.*examples\/golive\/(\w+)-client/.exec(run)?.slice(1)),
    ).toEqual([
      [undefined, 'careless'],
      ['verify ', 'careless'],
      [undefined, 'careful'],
      ['verify ', 'careful'],
    ]);
  });

  it.each(runs)('$line', { timeout: 400_000 }, ({ run, code }) => {
    const ended = shell(run);
    expect({ code: ended.code, tail: ended.stdout.slice(-1500) + ended.stderr.slice(-500) }).toMatchObject({
      code,
    });
    outputs[run] = ended.stdout;
  });

  it('says why the careless client is Not ready: what it broke, what it never met and how to meet it', () => {
    const bundle = folder.bundle('careless-evidence');
    expect(verdicts(bundle)).toMatchObject({
      'ERRORS-RETRY': 'not_ready',
      MFA: 'not_ready',
      LIMITS: 'not_ready',
      WEBHOOKS: 'not_ready',
      'STATUSES-PAGINATION': 'not_ready',
      'REQUEST-IDS': 'not_ready',
      'NO-DUPLICATES': 'ready',
      'BROKEN-LINKS': 'not_ready',
      'FORWARD-COMPAT': 'ready',
    } as never);
    const printed = Object.entries(outputs).find(([run]) => /golive --.*careless/.test(run))?.[1] ?? '';
    for (const situation of [
      'mfa-every-registration',
      'refresh-cooldown',
      'deletion-window',
      'webhooks-repeated-forged',
      'many-pages',
      'link-turns-invalid',
      'webhooks-delayed-interleaved',
      'recurrent-life',
    ])
      expect(printed).toMatch(new RegExp(`never met ${situation} \\([^)]*\\): \\S`));
    expect(printed).toContain('CLIENT-RETRY-5XX violated in institution-failing');
    expect(printed).toMatch(/7 Not ready, 0 not assessed: exit code 1/);
  });

  it('finds the careful client Ready on every item, each assessed, and verify reproduces both', () => {
    const bundle = folder.bundle('careful-evidence');
    const assessed = bundle.items.filter((item) => item.verdict !== 'not_assessed');
    expect(assessed.map((item) => [item.item, item.verdict, item.findings])).toEqual(
      assessed.map((item) => [item.item, 'ready', []]),
    );
    expect(assessed.length).toBe(10);
    expect(bundle.summary.exit_code).toBe(0);
    const verified = Object.entries(outputs).filter(([run]) => / verify /.test(run));
    for (const [, printed] of verified)
      expect(printed).toMatch(/every verdict of the bundle reproduces \(10 items\)/);
  });

  it('keeps nothing secret or personal in either bundle', () => {
    for (const folder of ['careless-evidence', 'careful-evidence'])
      for (const file of ['golive.html', 'golive.json', 'golive.xml']) {
        const text = readFileSync(join(dir, folder, file), 'utf8');
        for (const secret of [
          'ofkit-secret-a',
          'ofkit-sandbox-secret',
          'ofkit-key-a',
          '76109277673',
          'b2ZraXQta2V5LWE6',
        ])
          expect(text, `${folder}/${file}`).not.toContain(secret);
      }
  });
});

describe('the exit codes of ofkit golive', () => {
  const golive = (args: string) => shell(`ofkit golive ${args} -- node ${CARELESS}`);

  it('0 with Ready with risks, 1 under --strict; a declaration shown with its reason', {
    timeout: 180_000,
  }, () => {
    const declared = "--situations baseline,sandbox --not-applicable 'SECRETS:sandbox=one environment only'";
    const relaxed = golive(`${declared} --out risks`);
    expect(relaxed.code).toBe(0);
    expect(relaxed.stdout).toMatch(
      /SECRETS\s+Ready with risks\s+sandbox declared not applicable: one environment only/,
    );
    expect(relaxed.stdout).toMatch(
      /MFA\s+not assessed\s+situation mfa-every-registration was not run \(--situations\)/,
    );
    expect(readFileSync(join(dir, 'risks/golive.html'), 'utf8')).toContain('one environment only');
    expect(golive(`${declared} --strict`).code).toBe(1);
  });

  it('2 when it could not run: an unknown situation, no command, a command that cannot start', {
    timeout: 180_000,
  }, () => {
    const unknown = golive('--situations baseline,nowhere');
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/no situation nowhere \(situations: baseline, /);
    expect(shell('ofkit golive --situations baseline').code).toBe(2);
    const missing = shell('ofkit golive --situations baseline -- ./no-such-client');
    expect(missing).toMatchObject({ code: 2 });
    expect(missing.stderr).toMatch(/cannot run \.\/no-such-client: ENOENT/);
    expect(shell('ofkit golive --judge-timing sometimes -- true').code).toBe(2);
    expect(shell('ofkit golive verify nowhere -- true').stderr).toMatch(/no go-live bundle in nowhere/);
  });
});
