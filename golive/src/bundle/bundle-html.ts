/**
 * The bundle a reviewer reads (`golive.html`): one self-contained page, readable without ofkit (no
 * script, no external file): the verdict per checklist item with the rules and situations behind it and
 * its findings, then every situation as run (configuration and seed, whether it was met, the client's
 * exit code, the judge's verdicts, the evidence). Everything shown is escaped, and was redacted before
 * it reached the bundle.
 */
import type { Situation } from '../catalogue/catalogue-types.js';
import type { SituationRun } from '../run/run-situation.js';
import type { ItemResult } from '../verdicts/item-verdicts.js';
import { type GoliveBundle, VERDICT_WORDS } from './bundle-data.js';

const escapeHtml = (text: string) =>
  text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;').replaceAll('"', '&quot;');
const pre = (lines: readonly string[]) =>
  lines.length === 0 ? '' : `<pre>${lines.map(escapeHtml).join('\n')}</pre>`;
const badge = (verdict: ItemResult['verdict']) =>
  `<span class="v ${verdict}">${VERDICT_WORDS[verdict]}</span>`;

const STYLE = `body{font:15px/1.45 system-ui,sans-serif;margin:2rem auto;max-width:72rem;padding:0 1rem;color:#1b1f24}
h1{font-size:1.5rem}h2{margin-top:2.2rem;border-bottom:1px solid #d0d7de}h3{margin-bottom:.3rem}
table{border-collapse:collapse;width:100%}td,th{border:1px solid #d0d7de;padding:.3rem .5rem;text-align:left;vertical-align:top}
pre{background:#f6f8fa;padding:.6rem;overflow-x:auto;white-space:pre-wrap;word-break:break-all;font-size:12px}
.v{font-weight:600;padding:.05rem .45rem;border-radius:.3rem;white-space:nowrap}
.ready{background:#dafbe1}.ready_with_risks{background:#fff8c5}.not_ready{background:#ffebe9}.not_assessed{background:#eaeef2}
.meta td:first-child{width:12rem;color:#57606a}code{font-size:13px}`;

function header(bundle: GoliveBundle): string {
  const { summary, versions } = bundle;
  const counts = (['ready', 'ready_with_risks', 'not_ready', 'not_assessed'] as const)
    .map((verdict) => `${summary[verdict]} ${VERDICT_WORDS[verdict]}`)
    .join(', ');
  const rows: [string, string][] = [
    ['verdict', `${counts}; exit code ${summary.exit_code}${bundle.strict ? ' (--strict)' : ''}`],
    ['client command', `<code>${escapeHtml(bundle.command)}</code>`],
    [
      'retry waits judged',
      bundle.timing === 'real' ? "on the machine's time" : 'on order and count (order-only)',
    ],
    [
      'versions',
      escapeHtml(`ofkit ${versions.ofkit}, interface ${versions.interface}, Node ${versions.node}`),
    ],
    ['created', escapeHtml(bundle.created_at)],
    [
      'reproduce',
      `<code>${escapeHtml(bundle.reproduce)}</code> runs every situation again from its seed and says, item by item, whether each verdict reproduces`,
    ],
  ];
  return `<h1>Go-live readiness</h1><table class="meta">${rows.map(([k, v]) => `<tr><td>${k}</td><td>${v}</td></tr>`).join('')}</table>`;
}

function itemsTable(items: readonly ItemResult[]): string {
  const rows = items.map(
    (item) =>
      `<tr><td><a href="#${item.item}">${item.item}</a></td><td>${escapeHtml(item.title)}</td><td>${badge(item.verdict)}</td><td>${escapeHtml(item.findings[0]?.text ?? '')}</td></tr>`,
  );
  return `<h2>Checklist</h2><table><tr><th>item</th><th>asks</th><th>verdict</th><th>first finding</th></tr>${rows.join('')}</table>`;
}

function itemSection(item: ItemResult, runs: readonly SituationRun[]): string {
  const situation = (id: string) => {
    const run = runs.find((entry) => entry.situation === id);
    const state = run ? `${run.met ? 'met' : 'not met'}, exit ${run.exitCode}` : 'not run';
    return `<a href="#situation-${id}">${id}</a> (${state})`;
  };
  const findings = item.findings.map((f) => `<li>${escapeHtml(f.text)}${pre(f.evidence)}</li>`).join('');
  return `<section id="${item.item}"><h3>${item.item}: ${escapeHtml(item.title)} ${badge(item.verdict)}</h3>
<p>${escapeHtml(item.asks)}</p>
<p>Rules: ${item.rules.map((rule) => `<code>${rule}</code>`).join(', ') || 'none yet'}. Situations: ${item.situations.map(situation).join(', ') || 'none yet'}.</p>
${findings === '' ? '<p>No finding.</p>' : `<ul>${findings}</ul>`}</section>`;
}

function configLines(run: SituationRun): string[] {
  const { simulator: c } = run;
  return [
    `seed: ${c.seed}`,
    `environment: ${c.environment}`,
    ...c.faults.map((f) => `fault: ${f.operation} answers ${f.status}, ${f.count} time(s)`),
    ...c.scenarios.map(
      (s) => `scenario: ${s.scenario}${s.count === null ? ', until cleared' : `, ${s.count} time(s)`}`,
    ),
    ...(c.webhooks.duplicates ? ['webhooks: every acknowledged delivery repeated'] : []),
    ...(c.webhooks.forged ? ['webhooks: one forged delivery without the bearer token'] : []),
    ...(c.webhooks.delivery_delay_seconds
      ? [
          `webhooks: each delivery held back ${c.webhooks.delivery_delay_seconds} s on the API's clock${c.webhooks.delivery_order === 'interleaved' ? ', interleaved' : ''}`,
        ]
      : []),
    ...(c.storm ? ['the forward-compatibility storm'] : []),
    ...(c.recurrent_life
      ? [`recurrent life: ${c.recurrent_life.days} days for every recurrent link, played a day at a time`]
      : []),
    ...c.clock.map((step) =>
      'freeze' in step ? 'clock: frozen' : `clock: advanced ${step.advance_seconds} s`,
    ),
  ];
}

function situationSection(run: SituationRun, situation: Situation | undefined): string {
  const { evidence } = run;
  const verdicts = evidence.verdicts
    .map(
      (v) =>
        `<tr><td><code>${v.rule}</code></td><td>${v.verdict.replace('_', ' ')}</td><td>${escapeHtml(v.summary)}${v.verdict === 'violated' || v.verdict === 'warning' ? pre(v.evidence) : ''}</td></tr>`,
    )
    .join('');
  const conditions = run.conditions.map((c) => `${c.holds ? 'seen' : 'NOT seen'}: ${c.condition}`);
  const deliveries = evidence.deliveries.map(
    (d) =>
      `${d.kind} ${d.webhook_type} ${d.webhook_code} attempt ${d.attempt} -> ${d.answer}  ${JSON.stringify(d.data)}`,
  );
  return `<section id="situation-${run.situation}"><h3>${run.situation}: ${escapeHtml(run.title)}</h3>
<p>${escapeHtml(situation?.description ?? '')} The client must: ${escapeHtml(situation?.client_must ?? '')}</p>
<p><b>${run.met ? 'Met' : 'Not met'}</b>; the command exited ${run.exitCode} after ${(run.durationMs / 1000).toFixed(1)} s; ${run.requests} requests, ${run.deliveries} webhook deliveries.</p>
${pre(configLines(run))}${pre(conditions)}
<table><tr><th>rule</th><th>verdict</th><th>summary</th></tr>${verdicts}</table>
${evidence.matchedLines.length > 0 ? `<p>The client's output naming the request id of an error answer:</p>${pre(evidence.matchedLines)}` : ''}
${deliveries.length > 0 ? `<p>Webhook deliveries (excerpt):</p>${pre(deliveries)}` : ''}
${evidence.outputTail.length > 0 ? `<p>The end of the client's output:</p>${pre(evidence.outputTail)}` : ''}</section>`;
}

function declarations(bundle: GoliveBundle): string {
  if (bundle.not_applicable.length === 0) return '';
  const rows = bundle.not_applicable.map(
    (d) => `<li><code>${d.item}${d.situation ? `:${d.situation}` : ''}</code>: ${escapeHtml(d.reason)}</li>`,
  );
  return `<h2>Declared not applicable</h2><ul>${rows.join('')}</ul>`;
}

export function bundleHtml(bundle: GoliveBundle): string {
  const situationOf = (id: string) => bundle.catalogue.situations.find((s) => s.id === id);
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Go-live readiness (ofkit golive)</title><style>${STYLE}</style></head>
<body>${header(bundle)}${itemsTable(bundle.items)}${declarations(bundle)}
<h2>Items</h2>${bundle.items.map((item) => itemSection(item, bundle.situations)).join('\n')}
<h2>Situations</h2>${bundle.situations.map((run) => situationSection(run, situationOf(run.situation))).join('\n')}
</body></html>
`;
}
