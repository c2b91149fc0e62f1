/**
 * The checklist's verdicts: Ready only when every rule was exercised and followed, every required
 * situation met and every command bearing on the item survived; Not ready on a violation, a situation
 * never met (saying what to do to meet it) or a command that failed; Ready with risks on a rule never
 * exercised or a declaration; not assessed when a rule or situation does not exist or was not run.
 */
import { describe, expect, it } from 'vitest';
import { GOOD, goodRuns, MADE_CATALOGUE, madeRun } from '../../test-support/made-runs.js';
import { itemVerdicts } from './item-verdicts.js';

const verdicts = (runs = goodRuns(), declarations = []) =>
  Object.fromEntries(itemVerdicts(MADE_CATALOGUE, runs, declarations).map((i) => [i.item, i]));

describe('the verdict of an item', () => {
  it('is Ready when everything of it was exercised, followed and met', () => {
    const items = verdicts();
    expect(items.RETRY?.verdict).toBe('ready');
    expect(items.PAGES?.verdict).toBe('ready');
    expect(items.RETRY?.findings).toEqual([]);
  });

  it('is Not ready when a rule of it is violated in any situation, with the evidence', () => {
    const runs = goodRuns();
    runs[1] = madeRun('quiet', { ...GOOD, 'CLIENT-NO-RETRY-4XX': 'violated' });
    const { RETRY, PAGES } = verdicts(runs);
    expect(RETRY?.verdict).toBe('not_ready');
    expect(RETRY?.findings[0]).toMatchObject({
      kind: 'violated',
      situation: 'quiet',
      rule: 'CLIENT-NO-RETRY-4XX',
    });
    expect(RETRY?.findings[0]?.evidence[0]).toMatch(/^curl -u \$OFKIT_KEY:\$OFKIT_SECRET/);
    expect(PAGES?.verdict).toBe('ready');
  });

  it('is Ready with risks when a rule of it only warned (evidence traffic cannot prove), with the evidence', () => {
    const runs = goodRuns();
    runs[0] = madeRun('failing', { ...GOOD, 'CLIENT-NO-RETRY-4XX': 'warning' });
    const { RETRY } = verdicts(runs);
    expect(RETRY?.verdict).toBe('ready_with_risks');
    expect(RETRY?.findings).toHaveLength(1);
    expect(RETRY?.findings[0]).toMatchObject({
      kind: 'warning',
      situation: 'failing',
      rule: 'CLIENT-NO-RETRY-4XX',
      text: 'CLIENT-NO-RETRY-4XX warned of in failing: CLIENT-NO-RETRY-4XX warning',
    });
    expect(RETRY?.findings[0]?.evidence[0]).toMatch(/^curl -u/);
    runs[1] = madeRun('quiet', { ...GOOD, 'CLIENT-NO-RETRY-4XX': 'violated' });
    expect(verdicts(runs).RETRY?.verdict).toBe('not_ready');
  });

  it('is Not ready when a situation it requires was never met, saying what the tests must do', () => {
    const runs = goodRuns();
    runs[2] = madeRun('pages', GOOD, false);
    const { PAGES } = verdicts(runs);
    expect(PAGES?.verdict).toBe('not_ready');
    expect(PAGES?.findings[0]?.text).toBe(
      'never met pages (the pages situation): provoke pages by doing this',
    );
    expect(PAGES?.findings[0]?.evidence).toEqual(['not seen: the client judge exercised CLIENT-RETRY-5XX']);
  });

  it('is Not ready when the command failed in a situation bearing on it, with the end of its output', () => {
    const runs = goodRuns();
    runs[1] = madeRun('quiet', GOOD, true, 3);
    const { RETRY, PAGES } = verdicts(runs);
    expect(RETRY?.verdict).toBe('not_ready');
    expect(PAGES?.verdict).toBe('not_ready');
    expect(PAGES?.findings[0]).toMatchObject({ kind: 'failed', situation: 'quiet' });
    expect(PAGES?.findings[0]?.evidence).toEqual(['Error: <boom> & "quoted"']);
  });

  it('is Ready with risks when a rule of it was never exercised: traffic cannot show it either way', () => {
    const runs = goodRuns().map((run) =>
      madeRun(run.situation, { ...GOOD, 'CLIENT-NO-RETRY-4XX': 'not_exercised' }),
    );
    const { RETRY } = verdicts(runs);
    expect(RETRY?.verdict).toBe('ready_with_risks');
    expect(RETRY?.findings.map((f) => f.kind)).toEqual(['never_exercised']);
  });

  it('is Ready with risks when declared not applicable, and still Not ready on a violation', () => {
    const runs = goodRuns();
    runs[2] = madeRun('pages', GOOD, false);
    const whole = verdicts(runs, [{ item: 'PAGES', reason: 'we list nothing' }] as never);
    expect(whole.PAGES?.verdict).toBe('ready_with_risks');
    expect(whole.PAGES?.findings[0]?.text).toBe('the item declared not applicable: we list nothing');
    const one = verdicts(runs, [{ item: 'PAGES', situation: 'pages', reason: 'one page' }] as never);
    expect(one.PAGES?.verdict).toBe('ready_with_risks');
    runs[0] = madeRun('failing', { ...GOOD, 'CLIENT-PAGINATION-NEXT': 'violated' });
    expect(verdicts(runs, [{ item: 'PAGES', reason: 'x' }] as never).PAGES?.verdict).toBe('not_ready');
  });

  it('is not assessed, never Ready, when a rule or situation does not exist yet or was not run', () => {
    const catalogue = {
      ...MADE_CATALOGUE,
      items: [
        {
          id: 'FUTURE',
          title: 'f',
          asks: 'f',
          rules: ['CLIENT-NOT-YET'],
          situations: ['pages'],
          needs: 'a rule',
        },
        { id: 'EMPTY', title: 'e', asks: 'e', rules: [], situations: [] },
        ...MADE_CATALOGUE.items,
      ],
    };
    const items = itemVerdicts(catalogue, goodRuns().slice(0, 2));
    expect(items.map((i) => i.verdict)).toEqual(['not_assessed', 'not_assessed', 'ready', 'not_assessed']);
    expect(items[0]?.findings.map((f) => f.text)).toEqual([
      'client rule CLIENT-NOT-YET does not exist yet',
      'it needs a rule',
    ]);
    expect(items[1]?.findings.map((f) => f.text)).toEqual([
      'no client rule decides it yet',
      'no situation shows it yet',
    ]);
    expect(items[3]?.findings[0]?.text).toBe('situation pages was not run (--situations)');
  });

  it('is Not ready on what was run even when a situation it requires was not run', () => {
    const runs = [madeRun('quiet', { ...GOOD, 'CLIENT-PAGINATION-NEXT': 'violated' })];
    const { PAGES, RETRY } = verdicts(runs);
    expect(PAGES?.verdict).toBe('not_ready');
    expect(PAGES?.findings.map((f) => f.kind)).toEqual(['violated', 'not_assessed']);
    expect(RETRY?.verdict).toBe('not_assessed');
  });
});

describe('an item compared with another situation (forward compatibility)', () => {
  const catalogue = {
    ...MADE_CATALOGUE,
    items: [
      {
        id: 'COMPAT',
        title: 'Compat',
        asks: 'as in quiet',
        rules: [],
        situations: ['pages'],
        compared_with: 'quiet',
      },
    ],
  };
  const compat = (runs = goodRuns()) => itemVerdicts(catalogue, runs)[0]!;

  it('is Ready when the client keeps in its situation every rule it keeps in the compared one', () => {
    expect(compat()).toMatchObject({ verdict: 'ready', findings: [] });
    const runs = goodRuns().map((run) =>
      madeRun(run.situation, { ...GOOD, 'CLIENT-NO-RETRY-4XX': 'violated' }),
    );
    expect(compat(runs).verdict).toBe('ready');
  });

  it('is Not ready on a rule broken there and kept in the compared one, or when its command failed', () => {
    const runs = goodRuns();
    runs[2] = madeRun('pages', { ...GOOD, 'CLIENT-NO-RETRY-4XX': 'violated' });
    expect(compat(runs)).toMatchObject({
      verdict: 'not_ready',
      findings: [{ kind: 'violated', rule: 'CLIENT-NO-RETRY-4XX', situation: 'pages' }],
    });
    expect(compat(runs).findings[0]?.text).toMatch(/violated in pages, kept in quiet/);
    const failed = goodRuns();
    failed[2] = madeRun('pages', GOOD, true, 1);
    const catalogueBearing = {
      ...catalogue,
      situations: catalogue.situations.map((s) => (s.id === 'pages' ? { ...s, bears_on: ['COMPAT'] } : s)),
    };
    expect(itemVerdicts(catalogueBearing, failed)[0]?.verdict).toBe('not_ready');
  });

  it('is not assessed while the compared situation was not run, and names a missing one', () => {
    const runs = goodRuns().filter((run) => run.situation !== 'quiet');
    expect(compat(runs).verdict).toBe('not_assessed');
    const missing = { ...catalogue, items: [{ ...catalogue.items[0]!, compared_with: 'nowhere' }] };
    expect(itemVerdicts(missing, goodRuns())[0]?.findings[0]?.text).toBe(
      'situation nowhere does not exist yet',
    );
  });
});
