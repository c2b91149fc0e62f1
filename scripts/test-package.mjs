#!/usr/bin/env node
/**
 * `npm run test:package`: the package as a user gets it. `npm pack` (which builds), the tarball installed
 * into a temporary project outside the repository, and there: `npx ofkit --help`; `npx ofkit simulate`
 * on port 0 answers; a vitest file starts the simulator in process (`ofkit/simulator`) and registers a
 * link and retrieves accounts through `ofkit/client`; `tsc` compiles a file using the exported types and
 * refuses a wrong path; `ofkit exec -- ofkit check $OFKIT_URL` and `ofkit exec -- ofkit pact verify
 * $OFKIT_URL` exit 0 with a JUnit report; `ofkit pact check-spec` on the reference pact exits 0. The README's CI recipes use only these commands.
 * vitest and typescript are the repository's own (a user has theirs); everything else comes from the tarball.
 */
import { spawn, spawnSync } from 'node:child_process';
import {
  copyFileSync,
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const repo = resolve(import.meta.dirname, '..');
const fixtures = join(repo, 'scripts/package-test');
const project = mkdtempSync(join(tmpdir(), 'ofkit-package-'));
const env = {
  ...process.env,
  npm_config_update_notifier: 'false',
  npm_config_fund: 'false',
  npm_config_audit: 'false',
};
let failures = 0;

function step(name, run) {
  const started = performance.now();
  try {
    run();
    console.log(`ok   ${name} (${Math.round(performance.now() - started)} ms)`);
  } catch (error) {
    failures += 1;
    console.log(`FAIL ${name}: ${error.message}`);
  }
}

async function asyncStep(name, run) {
  const started = performance.now();
  try {
    await run();
    console.log(`ok   ${name} (${Math.round(performance.now() - started)} ms)`);
  } catch (error) {
    failures += 1;
    console.log(`FAIL ${name}: ${error.message}`);
  }
}

/** Runs a command to its end; returns its output, throws when the exit code is not `expected`. */
function run(command, args, { cwd = project, expected = 0 } = {}) {
  const result = spawnSync(command, args, { cwd, env, encoding: 'utf8', timeout: 300_000 });
  const output = `${result.stdout ?? ''}${result.stderr ?? ''}`;
  const ok = expected === 'nonzero' ? result.status !== 0 : result.status === expected;
  if (!ok)
    throw new Error(`${command} ${args.join(' ')} exited ${result.status} ${result.error ?? ''}\n${output}`);
  return output;
}

function getApiRoot(url) {
  const authorization = `Basic ${Buffer.from('ofkit-key-a:ofkit-secret-a').toString('base64')}`;
  return new Promise((done, fail) => {
    const req = request(`${url}/api/`, { headers: { authorization } }, (response) => {
      response.resume();
      response.on('end', () => done(response.statusCode));
    });
    req.on('error', fail);
    req.end();
  });
}

/** `npx ofkit simulate --port 0` in its own process group, so that stopping it stops npx's children too. */
async function simulateAnswers() {
  const child = spawn('npx', ['ofkit', 'simulate', '--port', '0'], {
    cwd: project,
    env,
    detached: true,
  });
  try {
    const url = await new Promise((done, fail) => {
      let output = '';
      const timer = setTimeout(() => fail(new Error(`no listening line in 120 s:\n${output}`)), 120_000);
      child.stdout.on('data', (chunk) => {
        output += chunk;
        const match = /listening on (http:\/\/\S+)/.exec(output);
        if (match) {
          clearTimeout(timer);
          done(match[1]);
        }
      });
      child.stderr.on('data', (chunk) => {
        output += chunk;
      });
      child.once('exit', (code) => fail(new Error(`exited ${code}:\n${output}`)));
    });
    const status = await getApiRoot(url);
    if (status !== 200) throw new Error(`GET ${url}/api/ answered ${status}`);
  } finally {
    process.kill(-child.pid, 'SIGTERM');
  }
}

step('npm pack (builds dist/)', () => {
  run('npm', ['pack', '--silent', '--pack-destination', project], { cwd: repo });
});
const tarball = readdirSync(project).find((name) => name.endsWith('.tgz'));
step('install the tarball into a project outside the repository', () => {
  writeFileSync(
    join(project, 'package.json'),
    JSON.stringify({ name: 'ofkit-user', private: true, type: 'module' }),
  );
  run('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', `./${tarball}`]);
});
step('npx ofkit --help', () => {
  const output = run('npx', ['ofkit', '--help']);
  if (!output.includes('exec') || !output.includes('simulate'))
    throw new Error(`no command list:\n${output}`);
});
await asyncStep('npx ofkit simulate --port 0 answers GET /api/', simulateAnswers);
step('vitest: startSimulator from ofkit/simulator, a link and its accounts through ofkit/client', () => {
  copyFileSync(join(fixtures, 'accounts.package-test.ts'), join(project, 'accounts.test.ts'));
  run(process.execPath, [
    join(repo, 'node_modules/vitest/vitest.mjs'),
    'run',
    '--root',
    project,
    'accounts.test.ts',
  ]);
});
step('tsc: the exported types compile, a wrong path does not', () => {
  const tsc = join(repo, 'node_modules/typescript/bin/tsc');
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
  run(process.execPath, [tsc, '-p', project]);
  writeFileSync(
    join(project, 'tsconfig.json'),
    JSON.stringify({ compilerOptions, files: ['wrong-path.ts'] }),
  );
  const output = run(process.execPath, [tsc, '-p', project], { expected: 'nonzero' });
  if (!output.includes('/api/no-such-resource/'))
    throw new Error(`tsc failed for another reason:\n${output}`);
});
step('npx ofkit exec -- ofkit check $OFKIT_URL exits 0 with a JUnit report', () => {
  const check =
    'ofkit check "$OFKIT_URL" --rules "API-ROOT,AUTH-*,ERR-404" --runs 3 --report junit:reports/conformance.xml';
  run('npx', ['ofkit', 'exec', '--quiet', '--', 'sh', '-c', check]);
  const junit = readFileSync(join(project, 'reports/conformance.xml'), 'utf8');
  if (!junit.includes('<testsuite')) throw new Error(`not a JUnit report:\n${junit.slice(0, 400)}`);
});
step(
  'npx ofkit exec -- ofkit pact verify $OFKIT_URL on the reference pact exits 0 with a JUnit report',
  () => {
    const verify =
      'ofkit pact verify "$OFKIT_URL" --pacts node_modules/ofkit/contracts/pacts/ --log-level error --report junit:reports/pact-verify.xml';
    run('npx', ['ofkit', 'exec', '--quiet', '--', 'sh', '-c', verify]);
    if (!readFileSync(join(project, 'reports/pact-verify.xml'), 'utf8').includes('<testsuite'))
      throw new Error('no JUnit report');
  },
);
step('npx ofkit pact check-spec on the reference pact exits 0', () => {
  run('npx', ['ofkit', 'pact', 'check-spec', 'node_modules/ofkit/contracts/pacts/']);
});
step('npx ofkit openapi --out writes the bundled document', () => {
  run('npx', ['ofkit', 'openapi', '--out', 'openapi/ofkit.yaml']);
  if (!readFileSync(join(project, 'openapi/ofkit.yaml'), 'utf8').includes('openapi: 3.1.0'))
    throw new Error('not YAML');
});

if (failures === 0 && existsSync(project)) rmSync(project, { recursive: true, force: true });
else console.log(`the project is kept for a look: ${project}`);
console.log(failures === 0 ? 'package test: every step passed' : `package test: ${failures} step(s) failed`);
process.exitCode = failures === 0 ? 0 : 1;
