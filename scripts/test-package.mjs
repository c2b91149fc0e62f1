#!/usr/bin/env node
/**
 * `npm run test:package`: the package as users get it. `npm pack` (which builds), the tarball installed
 * into a temporary project outside the repository, first as a simulator-only user (no optional peer:
 * the install's size, the commands that need nothing more, the one line of a command whose peer is
 * missing, the LICENSE, every link of the shipped Markdown), then as a full user (with Pact: the size
 * again, the typed client and the exported types, `ofkit exec` around `ofkit check` and `ofkit pact
 * verify` with JUnit reports and no colours off a terminal, SIGTERM to `ofkit exec` ending its command's
 * whole tree, and every shell block of the documentation). vitest and typescript are the repository's
 * own (a user has theirs); everything else comes from the tarball.
 */
import {
  copyFileSync,
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import {
  apiRootStatus,
  ESC,
  failureCount,
  hasScript,
  run,
  startSimulate,
  step,
} from './package-test/harness.mjs';
import { describeSize, installSize } from './package-test/install-size.mjs';
import { linkProblems } from './package-test/markdown-links.mjs';
import { runDocBlocks } from './package-test/run-doc-blocks.mjs';
import { shippedMarkdown, shippedMatcher } from './package-test/shipped-files.mjs';
import { sigtermEndsTheTree } from './package-test/sigterm-check.mjs';

const repo = resolve(import.meta.dirname, '..');
const fixtures = join(repo, 'scripts/package-test');
const project = mkdtempSync(join(tmpdir(), 'ofkit-package-'));
const installed = join(project, 'node_modules/ofkit');
const ofkit = join(project, 'node_modules/.bin/ofkit');
const manifest = JSON.parse(readFileSync(join(repo, 'package.json'), 'utf8'));
const pactPeer = `@pact-foundation/pact@${manifest.devDependencies['@pact-foundation/pact']}`;
const inProject = { cwd: project };

/** A simulator-only install (no optional peer: no Pact, no Prism, no Redis client) stays under 40 MB. */
const SIMULATOR_ONLY_BUDGET_BYTES = 40e6;
const OPTIONAL = ['@pact-foundation', '@stoplight', 'redis', '@redis'];
const peerSpec = (name) => `${name}@${manifest.devDependencies[name]}`;
const fullPeers = [pactPeer, ...['@stoplight/prism-core', '@stoplight/prism-http', 'redis'].map(peerSpec)];
const sizes = {};
/** A newer document with one operation the bundled one lacks (`ofkit simulate --document`). */
const GADGETS = { gadgets: ['one'] };
const NEWER_DOCUMENT = {
  openapi: '3.1.0',
  info: { title: 'newer', version: '2' },
  paths: {
    '/api/gadgets/': {
      get: {
        operationId: 'listGadgets',
        responses: {
          200: {
            description: 'gadgets',
            content: { 'application/json': { schema: { type: 'object' }, example: GADGETS } },
          },
        },
      },
    },
  },
};

let tarball;
await step('npm pack (builds dist/)', () => {
  run('npm', ['pack', '--silent', '--pack-destination', project], { cwd: repo });
  tarball = readdirSync(project).find((name) => name.endsWith('.tgz'));
  return `${tarball}, ${Math.round(statSync(join(project, tarball)).size / 1e3)} kB`;
});

// A simulator-only user: the tarball alone.
await step('install the tarball into a project outside the repository (no optional peer)', () => {
  writeFileSync(
    join(project, 'package.json'),
    JSON.stringify({ name: 'ofkit-user', private: true, type: 'module', scripts: { test: 'vitest run' } }),
  );
  run('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', `./${tarball}`], inProject);
});
await step('size of a simulator-only install', () => {
  sizes.simulatorOnly = installSize(project);
  const installed = OPTIONAL.filter((name) => existsSync(join(project, 'node_modules', name)));
  if (installed.length > 0) throw new Error(`optional peers installed: ${installed.join(', ')}`);
  if (sizes.simulatorOnly.bytes > SIMULATOR_ONLY_BUDGET_BYTES)
    throw new Error(
      `${describeSize(sizes.simulatorOnly)}: over the ${SIMULATOR_ONLY_BUDGET_BYTES / 1e6} MB budget`,
    );
  return `${describeSize(sizes.simulatorOnly)}; budget ${SIMULATOR_ONLY_BUDGET_BYTES / 1e6} MB`;
});
await step('npx ofkit --help', () => {
  const { output } = run('npx', ['ofkit', '--help'], inProject);
  if (!output.includes('exec') || !output.includes('simulate'))
    throw new Error(`no command list:\n${output}`);
});
await step('npx ofkit simulate --port 0 answers GET /api/', async () => {
  const simulator = await startSimulate(project);
  try {
    const status = await apiRootStatus(simulator.url);
    if (status !== 200) throw new Error(`GET ${simulator.url}/api/ answered ${status}`);
  } finally {
    simulator.stop();
  }
});
await step('ofkit pact verify without Pact: one line naming the npm i -D to run, exit 2', () => {
  const args = ['pact', 'verify', 'http://127.0.0.1:9', '--pacts', 'node_modules/ofkit/contracts/pacts/'];
  const { stdout, stderr } = run(ofkit, args, { ...inProject, expected: 2 });
  const expected = `ofkit pact verify needs @pact-foundation/pact, which is not installed (an optional peer dependency of ofkit): npm i -D ${pactPeer}`;
  if (stdout !== '' || stderr !== `ofkit pact: ${expected}\n`) throw new Error(`got:\n${stdout}${stderr}`);
});
await step(
  'ofkit simulate --document and --store redis:// without their peers: one line each, exit 2',
  () => {
    writeFileSync(join(project, 'newer.json'), JSON.stringify(NEWER_DOCUMENT));
    const prism = `npm i -D ${peerSpec('@stoplight/prism-core')} ${peerSpec('@stoplight/prism-http')}`;
    const cases = [
      [
        ['--document', 'newer.json'],
        `--document needs @stoplight/prism-core, which is not installed (an optional peer dependency of ofkit): ${prism}`,
      ],
      [
        ['--store', 'redis://127.0.0.1:9/0'],
        `ofkit simulate --store redis:// needs redis, which is not installed (an optional peer dependency of ofkit): npm i -D ${peerSpec('redis')}`,
      ],
    ];
    for (const [args, expected] of cases) {
      const { stdout, stderr } = run(ofkit, ['simulate', '--port', '0', ...args], {
        ...inProject,
        expected: 2,
      });
      if (stdout !== '' || stderr !== `ofkit simulate: ${expected}\n`)
        throw new Error(`got:\n${stdout}${stderr}`);
    }
  },
);
await step('npx ofkit pact check-spec on the reference pact exits 0 (no Pact needed)', () => {
  run('npx', ['ofkit', 'pact', 'check-spec', 'node_modules/ofkit/contracts/pacts/'], inProject);
});
await step('the LICENSE is shipped: MIT, as package.json says', () => {
  const license = readFileSync(join(installed, 'LICENSE'), 'utf8');
  const { license: declared } = JSON.parse(readFileSync(join(installed, 'package.json'), 'utf8'));
  if (declared !== 'MIT' || !license.startsWith('MIT License'))
    throw new Error(`${declared}:\n${license.slice(0, 200)}`);
});
await step('every relative link and image of the shipped Markdown resolves in the installed package', () => {
  const files = shippedMarkdown(installed);
  const problems = linkProblems(installed, files, shippedMatcher(installed));
  if (problems.length > 0) throw new Error(problems.join('\n'));
  return `${files.length} files`;
});

// A full user: with the optional peers.
await step(`install the optional peers beside it (a full user): ${fullPeers.join(' ')}`, () => {
  run(
    'npm',
    ['install', '--no-audit', '--no-fund', '--prefer-offline', '--save-dev', ...fullPeers],
    inProject,
  );
});
await step(
  "npx ofkit simulate --document newer.json answers the document's new operation from its example",
  async () => {
    const simulator = await startSimulate(project, ['--document', 'newer.json']);
    try {
      const answer = await fetch(`${simulator.url}/api/gadgets/`, {
        headers: { authorization: `Basic ${Buffer.from('ofkit-key-a:ofkit-secret-a').toString('base64')}` },
      });
      const body = await answer.json();
      if (answer.status !== 200 || JSON.stringify(body) !== JSON.stringify(GADGETS))
        throw new Error(`GET /api/gadgets/ answered ${answer.status} ${JSON.stringify(body)}`);
    } finally {
      simulator.stop();
    }
  },
);
await step('size of a full install', () => {
  sizes.full = installSize(project);
  return describeSize(sizes.full);
});
// vitest and typescript come from the repository, linked in after the installs (npm would remove them).
for (const name of ['vitest', 'typescript'])
  symlinkSync(join(repo, 'node_modules', name), join(project, 'node_modules', name));
symlinkSync('../vitest/vitest.mjs', join(project, 'node_modules/.bin/vitest'));
symlinkSync('../typescript/bin/tsc', join(project, 'node_modules/.bin/tsc'));

await step(
  'vitest: startSimulator from ofkit/simulator, a link and its accounts through ofkit/client',
  () => {
    copyFileSync(
      join(fixtures, 'package-accounts.package-test.ts'),
      join(project, 'package-accounts.test.ts'),
    );
    // A shared CI machine can be slow; the default 5 s is not about ofkit.
    run(
      'npx',
      ['vitest', 'run', 'package-accounts.test.ts', '--testTimeout=60000', '--hookTimeout=60000'],
      inProject,
    );
  },
);
await step('tsc: the exported types compile (a 428 narrows to the MFA item), a wrong path does not', () => {
  const compilerOptions = {
    module: 'nodenext',
    moduleResolution: 'nodenext',
    target: 'ES2022',
    strict: true,
    noEmit: true,
    skipLibCheck: true,
    types: ['node'],
    typeRoots: [join(repo, 'node_modules/@types')],
  };
  for (const name of ['typed.ts', 'wrong-path.ts']) copyFileSync(join(fixtures, name), join(project, name));
  writeFileSync(join(project, 'tsconfig.json'), JSON.stringify({ compilerOptions, files: ['typed.ts'] }));
  run('npx', ['tsc', '-p', project], inProject);
  writeFileSync(
    join(project, 'tsconfig.json'),
    JSON.stringify({ compilerOptions, files: ['wrong-path.ts'] }),
  );
  const { output } = run('npx', ['tsc', '-p', project], { ...inProject, expected: 'nonzero' });
  if (!output.includes('/api/no-such-resource/'))
    throw new Error(`tsc failed for another reason:\n${output}`);
  rmSync(join(project, 'tsconfig.json'));
});
// The CI recipe's flags (README, examples/ci): every rule, --strict and 100% of operations; fixed seeds
// (the simulator's and the suite's) so the step replays.
await step(
  'npx ofkit exec -- ofkit check $OFKIT_URL --strict --min-coverage operations=100 exits 0 with a JUnit report',
  () => {
    const check =
      'ofkit check "$OFKIT_URL" --strict --min-coverage operations=100 --seed 1414 --runs 2 --report junit:reports/conformance.xml';
    run('npx', ['ofkit', 'exec', '--quiet', '--seed', '42', '--', 'sh', '-c', check], inProject);
    const junit = readFileSync(join(project, 'reports/conformance.xml'), 'utf8');
    if (!junit.includes('<testsuite')) throw new Error(`not a JUnit report:\n${junit.slice(0, 400)}`);
  },
);
const verify = 'ofkit pact verify "$OFKIT_URL" --pacts node_modules/ofkit/contracts/pacts/ --log-level error';
await step(
  'npx ofkit exec -- ofkit pact verify: exit 0, a JUnit report, no ANSI colours off a terminal',
  () => {
    const { output } = run(
      'npx',
      ['ofkit', 'exec', '--quiet', '--', 'sh', '-c', `${verify} --report junit:reports/pact-verify.xml`],
      inProject,
    );
    if (!readFileSync(join(project, 'reports/pact-verify.xml'), 'utf8').includes('<testsuite'))
      throw new Error('no JUnit report');
    if (!output.includes('has status code 204'))
      throw new Error(`not the verifier's report:\n${output.slice(0, 400)}`);
    if (output.includes(ESC))
      throw new Error(`ANSI escapes in piped output:\n${JSON.stringify(output.slice(0, 300))}`);
  },
);
await step('ofkit pact verify on a terminal with NO_COLOR: no ANSI colours', () => {
  if (!hasScript()) {
    if (process.env.CI) throw new Error('util-linux script is missing (it gives the command a terminal)');
    return 'not run: no util-linux script to give it a terminal (CI fails instead)';
  }
  const command = `PATH=${join(project, 'node_modules/.bin')}:$PATH NO_COLOR=1 ofkit exec --quiet -- sh -c '${verify}'`;
  const { output } = run('script', ['-qec', command, '/dev/null'], inProject);
  if (!output.includes('has status code 204'))
    throw new Error(`not the verifier's report:\n${output.slice(0, 400)}`);
  if (output.includes(ESC))
    throw new Error(`ANSI escapes with NO_COLOR:\n${JSON.stringify(output.slice(0, 300))}`);
});
await step('npx ofkit openapi --out writes the bundled document', () => {
  run('npx', ['ofkit', 'openapi', '--out', 'openapi/ofkit.yaml'], inProject);
  if (!readFileSync(join(project, 'openapi/ofkit.yaml'), 'utf8').includes('openapi: 3.1.0'))
    throw new Error('not YAML');
});
await step("SIGTERM to ofkit exec ends its command's whole tree (sh -c 'sleep 40 & wait'), exit 143", () =>
  sigtermEndsTheTree(project, ofkit),
);
await step('every shell block of the shipped Markdown runs (or says why not)', async () => {
  const { failures, ran, notRun } = await runDocBlocks(project, installed);
  if (failures.length > 0) throw new Error(failures.join('\n\n'));
  return `${ran} ran, ${notRun} marked not run`;
});

console.log(
  `sizes: simulator-only ${describeSize(sizes.simulatorOnly ?? { bytes: 0, disk: 0, packages: 0, largest: [] })}`,
);
console.log(
  `       full           ${describeSize(sizes.full ?? { bytes: 0, disk: 0, packages: 0, largest: [] })}`,
);
const failures = failureCount();
if (failures === 0) rmSync(project, { recursive: true, force: true });
else console.log(`the project is kept for a look: ${project}`);
console.log(failures === 0 ? 'package test: every step passed' : `package test: ${failures} step(s) failed`);
process.exitCode = failures === 0 ? 0 : 1;
