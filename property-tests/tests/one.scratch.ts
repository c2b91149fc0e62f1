import { loadApiDocument } from '../src/document/api-document.js';
import { allRules } from '../src/rules/index.js';
import { runSuite } from '../src/runner/run-suite.js';
import { selectRules } from '../src/runner/select-rules.js';
import { parseTargetConfig } from '../src/target/target-config.js';
import { startSimulatorTarget } from './simulator-target.js';

const document = loadApiDocument();
const [env, rules, runs, seed] = [
  process.argv[2] as 'sandbox',
  process.argv[3]!,
  Number(process.argv[4] ?? 5),
  Number(process.argv[5] ?? 1),
];
const target = await startSimulatorTarget([], env);
const config = parseTargetConfig({
  baseUrl: target.baseUrl,
  ...(env === 'sandbox' ? { environment: env } : {}),
});
const suite = await runSuite({
  config,
  rules: selectRules(allRules(document), [rules]),
  seed,
  runs,
  document,
});
await target.stop();
for (const r of suite.results)
  console.log(
    r.id,
    r.status,
    r.runs,
    r.reached,
    r.durationMs,
    (r.reason ?? r.failure?.message ?? r.notes.join(' | ')).slice(0, 400),
  );
