/**
 * What the packaged test's steps share: numbered steps that never stop the run, commands run to their
 * end with their output kept for a failure's message, `ofkit simulate` started on port 0 and stopped
 * by its PID, and whether a process still runs.
 */
import { spawn, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { request } from 'node:http';

export const env = {
  ...process.env,
  npm_config_update_notifier: 'false',
  npm_config_fund: 'false',
  npm_config_audit: 'false',
};

let failures = 0;
export const failureCount = () => failures;

/** Runs one step, sync or async; a failure is printed and counted, and the run goes on. */
export async function step(name, body) {
  const started = performance.now();
  try {
    const note = await body();
    const extra = typeof note === 'string' ? `: ${note}` : '';
    console.log(`ok   ${name} (${Math.round(performance.now() - started)} ms)${extra}`);
  } catch (error) {
    failures += 1;
    console.log(`FAIL ${name}: ${error.message}`);
  }
}

/** Runs a command to its end; returns `{ stdout, stderr, output }`, throws when the exit code is not `expected`. */
export function run(command, args, { cwd, expected = 0, extraEnv = {} }) {
  const result = spawnSync(command, args, {
    cwd,
    env: { ...env, ...extraEnv },
    encoding: 'utf8',
    timeout: 300_000, // a guard against a hang, not a measure: a step that needs it has failed anyway
  });
  const stdout = result.stdout ?? '';
  const stderr = result.stderr ?? '';
  const output = `${stdout}${stderr}`;
  const ok = expected === 'nonzero' ? result.status !== 0 : result.status === expected;
  if (!ok) {
    const why = result.error ? ` (${result.error.message})` : '';
    throw new Error(`${command} ${args.join(' ')} exited ${result.status}${why}\n${output.slice(-4000)}`);
  }
  return { stdout, stderr, output, status: result.status };
}

/** The status of GET <url>/api/ with the simulator's first key. */
export function apiRootStatus(url) {
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

/**
 * `<project>/node_modules/.bin/ofkit simulate --port 0` in its own process group; resolves with
 * `{ url, stop }` once it prints the address it listens on.
 */
export function startSimulate(project, args = []) {
  const child = spawn(`${project}/node_modules/.bin/ofkit`, ['simulate', '--port', '0', ...args], {
    cwd: project,
    env,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const stop = () => {
    try {
      process.kill(-child.pid, 'SIGTERM');
    } catch {} // already gone
  };
  return new Promise((done, fail) => {
    let output = '';
    const onData = (chunk) => {
      output += chunk;
      const match = /listening on (http:\/\/\S+)/.exec(output);
      if (match) {
        child.stdout.off('data', onData);
        child.stdout.resume();
        done({ url: match[1], stop });
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', (chunk) => {
      output += chunk;
    });
    child.once('exit', (code) => fail(new Error(`ofkit simulate exited ${code}:\n${output}`)));
  });
}

/** Whether the process runs (a zombie does not). */
export function isRunning(pid) {
  try {
    process.kill(pid, 0);
  } catch (error) {
    if (error.code !== 'EPERM') return false;
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return !['Z', 'X'].includes(stat.slice(stat.lastIndexOf(')') + 2)[0]);
  } catch {
    return process.platform !== 'linux';
  }
}

/** True when util-linux's `script` is there to give a command a pseudo-terminal. */
export const hasScript = () =>
  (spawnSync('script', ['--version'], { encoding: 'utf8' }).stdout ?? '').includes('util-linux');

/** The ANSI escape character: none may reach output that is not a terminal. */
export const ESC = String.fromCharCode(0x1b);
