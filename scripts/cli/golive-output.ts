/**
 * What `ofkit golive` prints: a progress line per situation as it ends (stderr), then the checklist's
 * table and the verdict (stdout); `golive verify` prints each item beside the bundle's verdict.
 */
import {
  type ItemReproduction,
  type ItemResult,
  type SituationRun,
  VERDICT_WORDS,
} from '../../golive/src/index.js';

/** `[3/12] mfa-every-registration   met       exit 0    1.4 s   18 requests  0 violated` */
export function progressLine(run: SituationRun, done: number, total: number): string {
  const violated = run.evidence.verdicts.filter((v) => v.verdict === 'violated').map((v) => v.rule);
  const state = run.met ? 'met' : 'NOT MET';
  const width = String(total).length;
  return [
    `[${String(done).padStart(width)}/${total}]`,
    run.situation.padEnd(26),
    state.padEnd(8),
    `exit ${run.exitCode}`.padEnd(8),
    `${(run.durationMs / 1000).toFixed(1)} s`.padStart(7),
    `${run.requests} requests`.padStart(13),
    violated.length === 0 ? '' : ` violated: ${violated.join(', ')}`,
  ].join(' ');
}

/** One line per item (verdict, first finding), and each further finding indented under it. */
export function itemTable(items: readonly ItemResult[]): string {
  const lines = ['', 'go-live checklist:'];
  for (const item of items) {
    const [first, ...rest] = item.findings;
    lines.push(`  ${item.item.padEnd(20)} ${VERDICT_WORDS[item.verdict].padEnd(17)} ${first?.text ?? ''}`);
    for (const finding of rest) lines.push(`  ${''.padEnd(20)} ${''.padEnd(17)} ${finding.text}`);
  }
  return lines.join('\n');
}

/** `6 items Ready, 0 Ready with risks, 0 Not ready, 4 not assessed: exit code 0` */
export function summaryLine(items: readonly ItemResult[], exitCode: number, strict: boolean): string {
  const count = (verdict: ItemResult['verdict']) => items.filter((item) => item.verdict === verdict).length;
  const rule = strict ? ' (--strict: Ready with risks fails too)' : '';
  return `\n${count('ready')} Ready, ${count('ready_with_risks')} Ready with risks, ${count('not_ready')} Not ready, ${count('not_assessed')} not assessed: exit code ${exitCode}${rule}`;
}

export function reproductionTable(items: readonly ItemReproduction[]): string {
  const lines = ['', 'verify, item by item:'];
  for (const { item, was, now, reproduced } of items) {
    const said = reproduced
      ? `reproduced: ${VERDICT_WORDS[now]}`
      : `DIFFERS: was ${VERDICT_WORDS[was]}, now ${VERDICT_WORDS[now]}`;
    lines.push(`  ${item.padEnd(20)} ${said}`);
  }
  return lines.join('\n');
}
