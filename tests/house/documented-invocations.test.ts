/**
 * Every `ofkit` invocation the README, docs/commands.md and the CI examples show keeps working with its
 * exit code, run as printed by a shell (`npx ofkit` is this repository's command line). What needs a
 * server of the user's runs against a closed port and must get as far as asking it (exit 2, "nothing
 * answers at": every option was read); the user's own command after `ofkit exec --` is `node -e 0`;
 * a long-running one (`&`) must say where it listens and stop cleanly on Ctrl-C. A synopsis with
 * placeholders (`<base-url>`, `[options]`, FILE) is not an invocation.
 */
import { execFileSync, spawn } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LAUNCHER } from '../../scripts/test-support/cli-process.js';

const ROOT = join(import.meta.dirname, '..', '..');
const SOURCES = ['README.md', 'docs/commands.md'];
const PLACEHOLDER = /<[^>]*>|\[[^\]]*\]|\.\.\.|\b(?:FILE|EVENT|ID|P|E|N)\b/;

/** The lines of shell in `markdown`: fenced sh/bash blocks (continuations joined) and inline spans. */
function shellLines(markdown: string): string[] {
  const blocks = [...markdown.matchAll(/```(?:sh|bash)\n([\s\S]*?)```/g)].map((match) => match[1] as string);
  const fenced = blocks.flatMap((block) => block.replace(/\\\n\s*/g, '').split('\n'));
  const prose = markdown.replace(/```[\s\S]*?```/g, '');
  const inline = [...prose.matchAll(/`(npx ofkit(?: [^`]*)?)`/g)].map((match) => match[1] as string);
  return [...fenced, ...inline];
}

/** Every concrete invocation, with where it was found. */
function invocations(): { source: string; line: string }[] {
  const found: { source: string; line: string }[] = [];
  for (const source of SOURCES)
    for (const line of shellLines(readFileSync(join(ROOT, source), 'utf8')))
      if (/(?:^|\s)npx ofkit\b|^ofkit /.test(line.trim())) found.push({ source, line: line.trim() });
  for (const file of readdirSync(join(ROOT, 'examples/ci'))) {
    const text = readFileSync(join(ROOT, 'examples/ci', file), 'utf8');
    for (const match of text.matchAll(/^\s*- run: (.*\bofkit\b.*)$/gm))
      found.push({ source: `examples/ci/${file}`, line: (match[1] as string).replace(/\s+#.*$/, '') });
  }
  const concrete = found.filter(
    ({ line }) => /\bofkit(?: |$)/.test(line) && !PLACEHOLDER.test(line.replace(/'[^']*'/g, '')),
  );
  return [...new Map(concrete.map((entry) => [entry.line, entry])).values()];
}

/** The user's command under `ofkit exec`: one request with the key exec hands it, exit 0 on a 200. */
const STAND_IN_CLIENT = `node -e 'const { OFKIT_URL: url, OFKIT_KEY: id, OFKIT_SECRET: secret } = process.env; fetch(url + "/api/", { headers: { authorization: "Basic " + btoa(id + ":" + secret) } }).then((answer) => process.exit(answer.ok ? 0 : 1))'`;

type Plan = { run: string; code: number; stderr?: RegExp; background?: true };

/** How one line is run and what it must end with. */
function planOf(line: string, closedUrl: string): Plan {
  const run = line.replace(/\s+#.*$/, '').replace(/\s+\|.*$/, '');
  // A server: it runs until stopped (`&` in a script, or a terminal's Ctrl-C).
  if (/&\s*$/.test(run) || /\bofkit simulate\b(?!.*--help)/.test(run)) {
    // On a free port: the documented 4010 may be taken on a shared machine.
    const server = run.replace(/&\s*$/, '').trim();
    const port = /--port \d+/.test(server) ? server.replace(/--port \d+/, '--port 0') : `${server} --port 0`;
    return { run: port, code: 0, background: true };
  }
  if (/\bofkit exec\b/.test(run))
    return { run: run.replace(/ -- (?:npm|npx) .*$/, ` -- ${STAND_IN_CLIENT}`), code: 0 };
  if (/\bofkit (?:check|pact verify)\b/.test(run))
    return { run: run.replace(/https?:\/\/[^\s'"]+/, closedUrl), code: 2, stderr: /nothing answers at/ };
  // The package's examples are this repository's.
  if (/\bofkit golive\b/.test(run))
    return {
      run: run.replaceAll('node_modules/ofkit/', `${ROOT}/`),
      code: Number(/# exit code (\d)/.exec(line)?.[1] ?? 0),
    };
  const usageMistake = /unknown command|exit code 2/.test(line);
  return { run, code: usageMistake ? 2 : 0 };
}

let dir: string;
let env: NodeJS.ProcessEnv;
let closedUrl: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'ofkit-invocations-'));
  const bin = join(dir, '.bin');
  mkdirSync(bin);
  writeFileSync(join(bin, 'ofkit'), `#!/bin/sh\nexec "${process.execPath}" "${LAUNCHER}" "$@"\n`);
  writeFileSync(join(bin, 'npx'), '#!/bin/sh\nexec "$@"\n');
  for (const name of ['ofkit', 'npx']) chmodSync(join(bin, name), 0o755);
  // What the invocations name: a config file, the consumer's pacts.
  writeFileSync(join(dir, 'ofkit.json'), '{}\n');
  // The committed pacts: the Pact lane rewrites contracts/pacts/ while the lanes run.
  mkdirSync(join(dir, 'pacts'));
  for (const file of readdirSync(join(ROOT, 'contracts/pacts')).filter((name) => name.endsWith('.json')))
    writeFileSync(
      join(dir, 'pacts', file),
      execFileSync('git', ['show', `HEAD:contracts/pacts/${file}`], { cwd: ROOT, encoding: 'utf8' }),
    );
  env = {
    ...process.env,
    PATH: `${bin}:${join(ROOT, 'node_modules/.bin')}:${process.env.PATH}`,
    OFKIT_KEY: 'ofkit-key-a',
    OFKIT_SECRET: 'ofkit-secret-a',
    PACT_DO_NOT_TRACK: 'true',
  };
  const server = createServer();
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as { port: number };
  await new Promise((done) => server.close(done));
  closedUrl = `http://127.0.0.1:${port}`;
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

interface Ended {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** Runs the plan's line in a shell in the temporary project; a background one is stopped once it listens. */
function runPlan(plan: Plan): Promise<Ended> {
  // exec: the shell becomes ofkit, so Ctrl-C (SIGINT) reaches ofkit itself.
  const line = plan.run.replace(/^((?:\w+=\S+\s+)*)/, '$1exec ');
  const child = spawn('sh', ['-c', line], { cwd: dir, env });
  const out = { stdout: '', stderr: '' };
  child.stdout.on('data', (chunk) => {
    out.stdout += chunk;
    if (plan.background && /listening on/.test(out.stdout)) child.kill('SIGINT');
  });
  child.stderr.on('data', (chunk) => {
    out.stderr += chunk;
  });
  return new Promise((done) => child.once('close', (code, signal) => done({ code, signal, ...out })));
}

describe('every documented ofkit invocation, run as printed', () => {
  const all = invocations();

  it('finds the invocations of the README, docs/commands.md and examples/ci', () => {
    const sources = new Set(all.map(({ source }) => source));
    expect([...sources].sort()).toEqual([
      'README.md',
      'docs/commands.md',
      'examples/ci/client-repo.yml',
      'examples/ci/server-repo.yml',
    ]);
    expect(all.length).toBeGreaterThan(10);
  });

  it.each(all)('$source: $line', { timeout: 180_000 }, async ({ line }) => {
    const plan = planOf(line, closedUrl);
    const { code, signal, stdout, stderr } = await runPlan(plan);
    const said = { stdout: stdout.slice(-400), stderr: stderr.slice(-400) };
    if (plan.background) {
      // Stopped by Ctrl-C: it closes and exits 0, or, signalled as it starts, ends by the signal.
      expect(stdout, stderr).toMatch(/listening on http:\/\/127\.0\.0\.1:\d+/);
      expect(code === 0 || signal === 'SIGINT', JSON.stringify({ code, signal, ...said })).toBe(true);
    } else expect({ code, ...said }).toMatchObject({ code: plan.code });
    if (plan.stderr) expect(stderr).toMatch(plan.stderr);
    expect(stderr).not.toMatch(/\bat .*\.(?:ts|js):\d+/);
  });
});
