// Authoring aid: validates every example of a bundled document file with Ajv 2020 strict.
// Usage: node scripts/check-examples-scratch.mjs <bundled.json>
import { readFileSync } from 'node:fs';
import { register } from 'tsx/esm/api';

register();
const { checkExamples } = await import('../openapi/validation/example-check.ts');
const report = checkExamples(JSON.parse(readFileSync(process.argv[2], 'utf8')));
for (const failure of report.failures) console.log(`${failure.location}\n  ${failure.problems.join('\n  ')}`);
console.log(`${report.checked} examples checked, ${report.failures.length} invalid`);
process.exitCode = report.failures.length > 0 ? 1 : 0;
