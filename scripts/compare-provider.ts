/**
 * `npm run compare:provider`: our document against the provider's facts (openapi/checks/provider-facts.json)
 * on every operation both share: per status each member that differs, then the request body members and
 * the query parameters. A difference is `stricter` (ours refuses what the provider's schema accepts),
 * `ours-only` (a member or status the provider's schema lacks) or `looser` (ours accepts more); a stricter
 * one needs a reason in openapi/checks/provider-differences.yaml (`npm run check:openapi` holds them to
 * it). Unexplained stricter ones come first, then the explained ones by reason, then the counts;
 * `--ours` and `--looser` list the other two kinds.
 *
 * `-- --refresh-facts FILE` first rewrites the facts from the provider's published schema (a JSON file a
 * maintainer has; the project keeps only the facts it extracts, and nothing in `npm test` reads FILE).
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { compareWithProvider, type Difference } from '../openapi/checks/provider-comparison.js';
import { explainDifferences, loadDifferenceReasons } from '../openapi/checks/provider-differences.js';
import {
  extractProviderFacts,
  loadProviderFacts,
  PROVIDER_FACTS_PATH,
  serializeFacts,
} from '../openapi/checks/provider-facts.js';
import type { JsonObject } from '../openapi/document/json.js';

const ROOT = resolve(import.meta.dirname, '..');
const OURS = resolve(ROOT, 'openapi/generated/openapi.json');

/** `--refresh-facts FILE`: the facts extracted again from the provider's schema in FILE. */
function refreshFacts(file: string | undefined): boolean {
  if (file === undefined || file.startsWith('--')) {
    console.error('compare:provider: --refresh-facts needs the path of the provider schema (JSON)');
    process.exitCode = 2;
    return false;
  }
  if (!existsSync(file)) {
    console.error(`compare:provider: no provider schema at ${file}: the facts stay as committed`);
    process.exitCode = 2;
    return false;
  }
  const facts = extractProviderFacts(JSON.parse(readFileSync(file, 'utf8')) as JsonObject);
  writeFileSync(PROVIDER_FACTS_PATH, serializeFacts(facts));
  console.log(`Wrote ${Object.keys(facts.operations).length} operations' facts to ${PROVIDER_FACTS_PATH}.`);
  return true;
}

function printList(title: string, list: Difference[], flag: string): void {
  if (!process.argv.includes(flag)) return;
  console.log(`\n${title} (${list.length}):`);
  for (const d of list) console.log(`  ${d.line}`);
}

function main(): void {
  const refresh = process.argv.indexOf('--refresh-facts');
  if (refresh >= 0 && !refreshFacts(process.argv[refresh + 1])) return;
  const facts = loadProviderFacts();
  const document = JSON.parse(readFileSync(OURS, 'utf8')) as JsonObject;
  const differences = compareWithProvider(document, facts);
  const stricter = differences.filter((d) => d.kind === 'stricter');
  const { unexplained, byReason, unused } = explainDifferences(stricter, loadDifferenceReasons());
  console.log(`Stricter than the provider, unexplained (${unexplained.length}):`);
  for (const d of unexplained) console.log(`  ${d.line}`);
  console.log(
    `\nStricter than the provider, explained (${stricter.length - unexplained.length}), by reason:`,
  );
  for (const [reason, lines] of byReason) {
    const citation = reason.pending ? `PENDING: ${reason.pending}` : `spec: ${reason.spec.join(', ')}`;
    console.log(`\n  ${reason.reason}\n  [${citation}] (${lines.length})`);
    for (const d of lines) console.log(`    ${d.line}`);
  }
  for (const reason of unused) console.log(`\nUnused reason: ${reason.match.source}`);
  const oursOnly = differences.filter((d) => d.kind === 'ours-only');
  const looser = differences.filter((d) => d.kind === 'looser');
  printList(
    'Members and statuses only ours has (optional: a client meets them only here)',
    oursOnly,
    '--ours',
  );
  printList('Looser than the provider (ours accepts more)', looser, '--looser');
  const pending = [...byReason].filter(([reason]) => reason.pending).reduce((n, [, l]) => n + l.length, 0);
  console.log(
    `\n${differences.length} differences over ${Object.keys(facts.operations).length} shared operations: ` +
      `${stricter.length} stricter, ${oursOnly.length} only ours (listed with --ours), ${looser.length} looser (--looser).`,
  );
  console.log(
    `Stricter: ${unexplained.length} unexplained; ${stricter.length - unexplained.length} explained by ${byReason.size} reasons, ` +
      `${pending} of them pending a change of the simulator's output.`,
  );
}

main();
