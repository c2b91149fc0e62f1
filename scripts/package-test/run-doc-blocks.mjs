/**
 * The documentation's shell blocks, run as printed in the packaged test's project against the installed
 * package (doc-blocks.mjs says which run). A block that names the simulator's documented address,
 * http://127.0.0.1:4010, runs against a fresh `ofkit simulate` on a free port, whose address replaces
 * it. A file block is written first. Each block runs with bash -e -o pipefail and must exit 0.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { docBlocks } from './doc-blocks.mjs';
import { env, startSimulate } from './harness.mjs';
import { shippedMarkdown } from './shipped-files.mjs';

const DOCUMENTED_URL = 'http://127.0.0.1:4010';

async function runBlock(project, text) {
  const simulator = text.includes(DOCUMENTED_URL) ? await startSimulate(project) : undefined;
  try {
    const script = simulator ? text.replaceAll(DOCUMENTED_URL, simulator.url) : text;
    return spawnSync('bash', ['-e', '-o', 'pipefail', '-c', script], {
      cwd: project,
      env: { ...env, PATH: `${join(project, 'node_modules/.bin')}:${process.env.PATH}` },
      encoding: 'utf8',
      // stdin closed, as in a CI step: bash reads ~/.bashrc when its stdin is a socket (as Node's pipes
      // are) and SHLVL < 2 (npm run sets 0), which a CI step's shell never does.
      stdio: ['ignore', 'pipe', 'pipe'],
      timeout: 600_000, // a guard against a hang, not a measure
    });
  } finally {
    simulator?.stop();
  }
}

/**
 * Runs every shell block of the Markdown the installed package at `packageDir` ships, in order, in
 * `project`. Prints one line per block; resolves with the failures (one message each).
 */
export async function runDocBlocks(project, packageDir) {
  const failures = [];
  const counts = { ran: 0, notRun: 0 };
  for (const file of shippedMarkdown(packageDir)) {
    const { blocks, problems } = docBlocks(readFileSync(join(packageDir, file), 'utf8'));
    failures.push(...problems.map((problem) => `${file}: ${problem}`));
    for (const block of blocks) {
      const where = `${file}:${block.line}`;
      if (block.kind === 'file') {
        mkdirSync(dirname(join(project, block.file)), { recursive: true });
        writeFileSync(join(project, block.file), `${block.text}\n`);
      } else if (block.kind === 'not-run') {
        counts.notRun += 1;
        console.log(`     not run ${where}: ${block.reason}`);
      } else if (block.kind === 'run') {
        counts.ran += 1;
        const started = performance.now();
        const result = await runBlock(project, block.text);
        const ok = result.status === 0;
        console.log(
          `     ${ok ? 'ran    ' : 'FAILED '} ${where} (${Math.round(performance.now() - started)} ms)`,
        );
        if (!ok) {
          const output = `${result.stdout ?? ''}${result.stderr ?? ''}`.slice(-3000);
          failures.push(
            `${where} exited ${result.status}${result.error ? ` (${result.error.message})` : ''}:\n${block.text}\n--- output ---\n${output}`,
          );
        }
      }
    }
  }
  return { failures, ...counts };
}
