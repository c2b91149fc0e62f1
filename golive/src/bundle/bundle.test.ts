/**
 * The evidence bundle: a page a reviewer reads without ofkit (no script, nothing fetched, everything
 * escaped), the seeds and versions in it, JUnit where Not ready fails and not assessed is skipped, JSON
 * that `verify` reads back, the exit code; `verify`'s comparison item by item.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { GOOD, goodRuns, MADE_CATALOGUE, madeRun } from '../../test-support/made-runs.js';
import { itemVerdicts } from '../verdicts/item-verdicts.js';
import { bundlePlan, reproductions } from '../verify/verify-bundle.js';
import { exitCodeOf, goliveBundle } from './bundle-data.js';
import { shellLine } from './shell-words.js';
import { BundleError, readBundle, writeBundle } from './write-bundle.js';

const dir = mkdtempSync(join(tmpdir(), 'ofkit-bundle-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function madeBundle(strict = false) {
  const runs = goodRuns();
  // The command failed in `quiet`, printing markup: Not ready, its output shown escaped.
  const failed = madeRun('quiet', GOOD, true, 1);
  const markup = '<script>alert(1)</script> & <img src="http://x.test/a.png">';
  runs[1] = { ...failed, evidence: { ...failed.evidence, outputTail: [markup] } };
  const catalogue = {
    ...MADE_CATALOGUE,
    items: [
      ...MADE_CATALOGUE.items,
      { id: 'LATER', title: 'later', asks: 'l', rules: [], situations: [], needs: 'a rule' },
    ],
  };
  return goliveBundle({
    versions: { ofkit: '0.1.0', interface: '1.223.0', node: 'v20.20.2' },
    command: shellLine(['node', 'my client.mjs']),
    folder: join(dir, 'out'),
    timing: 'order-only',
    strict,
    notApplicable: [],
    items: itemVerdicts(catalogue, runs),
    runs,
    catalogue,
    now: new Date('2026-11-02T12:00:00.000Z'),
  });
}

describe('the evidence bundle', () => {
  const bundle = madeBundle();
  const files = writeBundle(join(dir, 'out'), bundle);
  const [html, json, junit] = files.map((file) => readFileSync(file, 'utf8')) as [string, string, string];

  it('is three files: the page, the data, JUnit', () => {
    expect(files.map((file) => file.slice(dir.length))).toEqual([
      '/out/golive.html',
      '/out/golive.json',
      '/out/golive.xml',
    ]);
  });

  it('is a page read without ofkit: no script, nothing fetched, the output escaped', () => {
    expect(html).not.toMatch(/<script|<img|<link|src="|href="http/);
    expect(html).toContain(
      '&lt;script&gt;alert(1)&lt;/script&gt; &amp; &lt;img src=&quot;http://x.test/a.png&quot;&gt;',
    );
  });

  it('shows the verdicts, the seeds, the versions and how to reproduce it', () => {
    expect(html).toContain('<span class="v not_ready">Not ready</span>');
    expect(html).toContain('seed: golive-failing');
    expect(html).toContain('ofkit 0.1.0, interface 1.223.0, Node v20.20.2');
    expect(bundle.reproduce).toBe(`npx ofkit golive verify ${join(dir, 'out')} -- node 'my client.mjs'`);
    expect(bundle.summary).toEqual({
      ready: 0,
      ready_with_risks: 0,
      not_ready: 2,
      not_assessed: 1,
      exit_code: 1,
    });
  });

  it('fails Not ready in JUnit, skips not assessed, and fails each situation not met or failed', () => {
    expect(junit).toMatch(/<testcase [^>]*name="RETRY Retries"[^>]*>\s*<failure/);
    expect(junit).toMatch(/<testcase [^>]*name="LATER later"[^>]*>\s*<skipped/);
    expect(junit).toMatch(
      /name="quiet \(seed golive-quiet\)"[^>]*>\s*<failure message="the command exited 1"/,
    );
    expect(junit).not.toContain('<script>');
  });

  it('is read back by verify, which plans its situations as run and compares item by item', () => {
    const read = readBundle(join(dir, 'out'));
    expect(read).toEqual(JSON.parse(json));
    expect(bundlePlan(read).map(({ situation, config }) => [situation.id, config.seed])).toEqual([
      ['failing', 'golive-failing'],
      ['quiet', 'golive-quiet'],
      ['pages', 'golive-pages'],
    ]);
    const now = itemVerdicts(read.catalogue, goodRuns());
    expect(reproductions(read, now)).toEqual([
      { item: 'RETRY', was: 'not_ready', now: 'ready', reproduced: false },
      { item: 'PAGES', was: 'not_ready', now: 'ready', reproduced: false },
      { item: 'LATER', was: 'not_assessed', now: 'not_assessed', reproduced: true },
    ]);
  });

  it('refuses a folder without a bundle, or with one of another format', () => {
    expect(() => readBundle(join(dir, 'nothing'))).toThrow(BundleError);
    writeFileSync(join(dir, 'golive.json'), '{"format":"ofkit-golive-bundle/9"}');
    expect(() => readBundle(dir)).toThrow(/is not a ofkit-golive-bundle\/1 bundle/);
  });
});

describe('the exit code', () => {
  it('is 1 on Not ready; under --strict on Ready with risks too; else 0', () => {
    const item = (verdict: 'ready' | 'ready_with_risks' | 'not_ready' | 'not_assessed') =>
      ({ verdict }) as never;
    expect(exitCodeOf([item('ready'), item('not_assessed'), item('ready_with_risks')], false)).toBe(0);
    expect(exitCodeOf([item('ready'), item('ready_with_risks')], true)).toBe(1);
    expect(exitCodeOf([item('not_ready')], false)).toBe(1);
    expect(madeBundle(true).summary.exit_code).toBe(1);
  });
});
