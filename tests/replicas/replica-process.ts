/**
 * A simulator replica as users run one: `ofkit simulate --store redis://...` in its own process, on a
 * loopback port chosen by the OS. Every answer is checked against the document (the API's, or
 * admin.yaml's for the control API). Stopped by its own PID (never by name).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { readBundledDocument } from '../../openapi/document/bundled-documents.js';
import { LAUNCHER } from '../../scripts/test-support/cli-process.js';
import { createContractCheck } from '../../simulator/test-support/contract-checked-simulator.js';

const check = createContractCheck(readBundledDocument('api'));

const KEY = 'ofkit-key-a:ofkit-secret-a';

export interface Replica {
  name: string;
  url: string;
  process: ChildProcess;
  output: string[];
  call(method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<Answer>;
  kill(): Promise<void>;
}

export interface Answer {
  status: number;
  // biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary members of the API's bodies
  body: any;
}

/**
 * Starts a replica on `storeUrl` (`env`: more of its environment, e.g. NODE_EXTRA_CA_CERTS); rejects with
 * its output when it does not listen within 60 s.
 */
export function startReplica(
  name: string,
  storeUrl: string,
  seed: string,
  env: NodeJS.ProcessEnv = {},
): Promise<Replica> {
  const child = spawn(
    process.execPath,
    [LAUNCHER, 'simulate', '--store', storeUrl, '--port', '0', '--host', '127.0.0.1', '--seed', seed],
    { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, NO_COLOR: '1', ...env } },
  );
  const output: string[] = [];
  return new Promise((ready, fail) => {
    const timer = setTimeout(() => fail(new Error(`${name} did not start:\n${output.join('')}`)), 60_000);
    const exited = (code: number | null) => {
      clearTimeout(timer);
      fail(new Error(`${name} exited (${code}) before listening:\n${output.join('')}`));
    };
    child.once('exit', exited);
    child.stderr?.on('data', (chunk: Buffer) => output.push(chunk.toString('utf8')));
    child.stdout?.on('data', (chunk: Buffer) => {
      output.push(chunk.toString('utf8'));
      const found = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(output.join(''));
      if (!found?.[1]) return;
      clearTimeout(timer);
      child.off('exit', exited);
      ready(replica(name, found[1], child, output));
    });
  });
}

function replica(name: string, url: string, child: ChildProcess, output: string[]): Replica {
  const authorization = `Basic ${Buffer.from(KEY).toString('base64')}`;
  return {
    name,
    url,
    process: child,
    output,
    async call(method, path, body, headers = {}) {
      const response = await fetch(`${url}${path}`, {
        method,
        headers: {
          authorization,
          ...(body !== undefined && { 'content-type': 'application/json' }),
          ...headers,
        },
        ...(body !== undefined && { body: JSON.stringify(body) }),
      });
      const text = await response.text();
      const answer = { status: response.status, body: text ? JSON.parse(text) : undefined };
      const [route, query = ''] = path.split('?', 2);
      check(method, route!, { ...answer, headers: {} }, new URLSearchParams(query));
      return answer;
    },
    kill() {
      if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
      return new Promise<void>((done) => {
        child.once('exit', () => done());
        child.kill('SIGKILL');
      });
    },
  };
}
