/**
 * The bundle for CI (`golive.xml`): a suite of the checklist (a case per item: Not ready fails, not
 * assessed is skipped with what it waits for, Ready with risks passes with its risks beside it, and fails
 * under `--strict`) and a suite of the situations (a case per run: not met or a failed command fails).
 */
import { renderSuites } from '../../../openapi/report/render-suites.js';
import type { JUnitCase, JUnitSuite } from '../../../openapi/report/to-junit-xml.js';
import type { SituationRun } from '../run/run-situation.js';
import type { ItemResult } from '../verdicts/item-verdicts.js';
import { type GoliveBundle, VERDICT_WORDS } from './bundle-data.js';

const details = (item: ItemResult) =>
  item.findings.flatMap((f) => [f.text, ...f.evidence.map((line) => `    ${line}`)]).join('\n');

function itemCase(item: ItemResult, strict: boolean): JUnitCase {
  const testCase = { classname: 'ofkit.golive.checklist', name: `${item.item} ${item.title}` };
  const message = `${VERDICT_WORDS[item.verdict]}: ${item.findings[0]?.text ?? ''}`;
  if (item.verdict === 'not_assessed') return { ...testCase, skipped: message };
  if (item.verdict === 'not_ready' || (strict && item.verdict === 'ready_with_risks'))
    return { ...testCase, failure: { message, type: item.verdict, details: details(item) } };
  return item.findings.length > 0 ? { ...testCase, systemOut: details(item) } : testCase;
}

function situationCase(run: SituationRun): JUnitCase {
  const testCase = {
    classname: 'ofkit.golive.situations',
    name: `${run.situation} (seed ${run.simulator.seed})`,
    seconds: run.durationMs / 1000,
  };
  const unmet = run.conditions.filter((c) => !c.holds).map((c) => `not seen: ${c.condition}`);
  if (run.met && run.exitCode === 0) return testCase;
  const message = [run.met ? '' : 'not met', run.exitCode === 0 ? '' : `the command exited ${run.exitCode}`]
    .filter(Boolean)
    .join('; ');
  return { ...testCase, failure: { message, details: [...unmet, ...run.evidence.outputTail].join('\n') } };
}

export function bundleJunit(bundle: GoliveBundle): string {
  const suites: JUnitSuite[] = [
    { name: 'ofkit golive: checklist', cases: bundle.items.map((item) => itemCase(item, bundle.strict)) },
    { name: 'ofkit golive: situations', cases: bundle.situations.map(situationCase) },
  ];
  return renderSuites('junit', 'ofkit golive', suites);
}
