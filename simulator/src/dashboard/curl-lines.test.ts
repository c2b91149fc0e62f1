/**
 * The Requests view's curl lines run as pasted: the `export` line it prints, then each line, in bash
 * against the simulator they were logged from; each replay answers the status the log shows. A client's
 * requests (not the dashboard's) fill the log, as in use. The view's modules are the ones the dashboard
 * serves (its shell quoting is generated from openapi/security's function), loaded as the browser does.
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BASIC, type ServedSimulator, serveSimulator } from '../../test-support/browser-harness.js';
import { TEST_KEYS } from '../../test-support/contract-checked-simulator.js';

type CurlLines = typeof import('./assets/curl-lines.js');

/** The served curl-lines.js and the module it imports, written beside each other and imported. */
async function servedCurlLines(url: string, folder: string): Promise<CurlLines> {
  for (const name of ['curl-lines.js', 'shell-quote.js']) {
    const response = await fetch(`${url}/_ofkit/ui/${name}`);
    expect(response.status).toBe(200);
    await writeFile(join(folder, name), await response.text());
  }
  return import(pathToFileURL(join(folder, 'curl-lines.js')).href);
}

interface LoggedRequest {
  method: string;
  path: string;
  status: number;
  curl: string;
}

const hasCurl = spawnSync('curl', ['--version']).status === 0;
const title = hasCurl
  ? "the Requests view's curl lines"
  : "the Requests view's curl lines (skipped: no curl on PATH; apt-get install curl)";

describe.skipIf(!hasCurl)(title, () => {
  let served: ServedSimulator;
  let folder: string;
  let preamble: CurlLines['preamble'];
  let runnableCurl: CurlLines['runnableCurl'];
  beforeAll(async () => {
    served = await serveSimulator('curl-lines-test');
    folder = await mkdtemp(join(tmpdir(), 'ofkit-curl-lines-'));
    ({ preamble, runnableCurl } = await servedCurlLines(served.url, folder));
  });
  afterAll(async () => {
    await served.close();
    await rm(folder, { recursive: true, force: true });
    expect(served.violations).toEqual([]);
  });

  it('run in bash after the printed export line, each answering the status the log shows', async () => {
    const bank = { institution: 'ofbank_br_retail', password: 'it is a secret' };
    const link = await served.api('POST', '/api/links/', { ...bank, username: '76109277673' });
    expect(link.status).toBe(201);
    const id = (link.body as { id: string }).id;
    await served.api('POST', '/api/links/', { ...bank, username: 'mfa76109277673' });
    await served.api('GET', `/api/links/${id}/`);
    await served.api(
      'GET',
      `/api/transactions/?link=${id}&page_size=2&value_date__range=2026-01-01,2026-10-31`,
    );
    await served.api('GET', '/api/links/not-a-link/');
    const logged = (await requestLog(served.url)).filter((r) => r.path.startsWith('/api/'));
    expect(logged.map((r) => r.status)).toEqual([201, 428, 200, 200, 404]);
    // The log masks the password: the lines read it from the variable the export line sets.
    expect(logged[0]?.curl).toContain('"password":"***"');
    expect(runnableCurl(logged[0]!.curl)).toContain(`"password":"'"$OFKIT_BODY_PASSWORD"'"`);

    const key = { id: TEST_KEYS[0]!.secretId, secret: TEST_KEYS[0]!.secretPassword };
    const lines = logged.map((r) => r.curl);
    const statusOnly = " -s -o /dev/null -w '%{http_code}\\n'";
    const script = [preamble(key, lines), ...lines.map((line) => `${runnableCurl(line)}${statusOnly}`)];
    const run = await bash(script.join('\n'));
    expect(run.stderr).toBe('');
    expect(run.stdout.trim().split('\n').map(Number)).toEqual(logged.map((r) => r.status));
  });
});

async function requestLog(url: string): Promise<LoggedRequest[]> {
  const response = await fetch(`${url}/_ofkit/requests/?limit=1000`, {
    headers: { authorization: BASIC },
  });
  return ((await response.json()) as { requests: LoggedRequest[] }).requests;
}

/**
 * Runs `script` in bash -eu -o pipefail (a variable the export line does not set fails), asynchronously (the simulator answering it runs in this
 * process), stdin closed (bash reads ~/.bashrc when its stdin is a socket, as Node's pipes are).
 */
function bash(script: string): Promise<{ stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn('bash', ['-eu', '-o', 'pipefail', '-c', script], {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { PATH: process.env.PATH ?? '' },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code) =>
      code === 0 ? resolve({ stdout, stderr }) : reject(new Error(`bash exited ${code}: ${stderr}`)),
    );
  });
}
