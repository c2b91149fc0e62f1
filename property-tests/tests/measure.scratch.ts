import { writeFileSync } from 'node:fs';
import { loadApiDocument } from '../src/document/api-document.js';
import { allRules } from '../src/rules/index.js';
import { runSuite } from '../src/runner/run-suite.js';
import { parseTargetConfig } from '../src/target/target-config.js';
import { startSimulatorTarget } from './simulator-target.js';

const document = loadApiDocument();
const runs = Number(process.argv[2] ?? 2);
for (const environment of ['production', 'sandbox'] as const) {
  const target = await startSimulatorTarget([], environment);
  const started = performance.now();
  const config = parseTargetConfig({
    baseUrl: target.baseUrl,
    ...(environment === 'sandbox' ? { environment } : {}),
  });
  const suite = await runSuite({
    config,
    rules: allRules(document),
    seed: 1414,
    runs,
    document,
    strict: true,
  });
  await target.stop();
  writeFileSync(`/tmp/vd/m-${environment}.json`, JSON.stringify(suite));
  const bad = suite.results.filter((r) => !['passed', 'skipped (environment)'].includes(r.status));
  console.log(
    environment,
    Math.round(performance.now() - started),
    'ms',
    suite.coverage.statuses,
    suite.coverage.operations,
  );
  for (const r of bad)
    console.log('  ', r.id, r.status, (r.reason ?? r.failure?.message ?? '').slice(0, 300));
}
