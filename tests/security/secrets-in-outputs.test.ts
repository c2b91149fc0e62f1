/**
 * Secrets never leave the simulator in any form (CLIENT-NO-SECRETS), and a pasted curl line runs only
 * itself. A client sends a password in a form body, in malformed JSON and in the query, passwd/pin/otp
 * members, a path and a header made to break out of the curl line's quotes; the request log, the
 * judge's evidence and the answers hold none of the secrets, an unreadable body is kept as its length
 * and sha256 only, and every logged curl line, pasted into bash, runs curl with exactly the request's
 * URL and headers and nothing else.
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BASIC, type ServedSimulator, serveSimulator } from '../../simulator/test-support/browser-harness.js';
import { sendRaw } from '../hardening/raw-http.js';

const SECRETS = ['hunter2-form', 'hunter2-broken', 'hunter2-query', 'hunter2-passwd', '482913', '907531'];
const BROKEN = '{"institution":"ofbank_br_retail","password":"hunter2-broken",';
/** A path segment that runs `touch` when a line quotes it carelessly (`${IFS}`: a space the URL allows). */
// biome-ignore lint/suspicious/noTemplateCurlyInString: a shell word, not a template
const BREAKOUT_PATH = "/api/links/'$(touch${IFS}path-pwned)'/";

let served: ServedSimulator;
let folder: string;
const answers: string[] = [];

async function send(path: string, init: RequestInit = {}): Promise<void> {
  const response = await fetch(`${served.url}${path}`, {
    ...init,
    headers: { authorization: BASIC, ...(init.headers as Record<string, string>) },
  });
  // An error answer must not quote what was sent (a page's `next` carries the sender's own query back).
  if (response.status >= 400) answers.push(await response.text());
  else await response.body?.cancel();
}

beforeAll(async () => {
  served = await serveSimulator('secrets-in-outputs');
  folder = mkdtempSync(join(tmpdir(), 'ofkit-curl-paste-'));
  const form = 'institution=ofbank_br_retail&username=76109277673&password=hunter2-form';
  await send('/api/links/', {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: form,
  });
  await send('/api/links/', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: BROKEN,
  });
  await send('/api/institutions/?password=hunter2-query&page_size=2');
  const members = {
    institution: 'ofbank_br_retail',
    username: '76109277673',
    passwd: 'hunter2-passwd',
    pin: 482913,
    otp: '907531',
  };
  await send('/api/links/', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(members),
  });
  await send('/api/links/', {
    method: 'DELETE',
    headers: { 'x-service-request-mode': "async'; touch header-pwned; echo '" },
  });
  // A path fetch would percent-encode: written on the socket as a client may.
  const port = Number(new URL(served.url).port);
  const head = [`GET ${BREAKOUT_PATH} HTTP/1.1`, 'Host: 127.0.0.1', `Authorization: ${BASIC}`];
  await sendRaw(port, `${head.join('\r\n')}\r\n\r\n`);
});

afterAll(async () => {
  await served.close();
  rmSync(folder, { recursive: true, force: true });
  expect(served.violations).toEqual([]);
});

interface Logged {
  path: string;
  query: string;
  body_sha256: string | null;
  curl: string;
}

async function requestLog(): Promise<Logged[]> {
  const response = await fetch(`${served.url}/_ofkit/requests/?limit=1000`, {
    headers: { authorization: BASIC },
  });
  return ((await response.json()) as { requests: Logged[] }).requests;
}

describe('CLIENT-NO-SECRETS: no secret in the request log, the judge or the answers', () => {
  it('masks form bodies, the query and passwd/pin/otp members; keeps an unreadable body as length and sha256', async () => {
    const log = await requestLog();
    const judge = await (
      await fetch(`${served.url}/_ofkit/judge/`, { headers: { authorization: BASIC } })
    ).text();
    const everything = JSON.stringify(log) + judge + answers.join('\n');
    for (const secret of SECRETS) expect(everything, secret).not.toContain(secret);
    const form = log.find((entry) => entry.curl.includes('x-www-form-urlencoded'));
    expect(form?.curl).toContain('password=***');
    expect(log.find((entry) => entry.path === '/api/institutions/')?.query).toBe('password=***&page_size=2');
    const broken = log.find(
      (entry) => entry.body_sha256 === createHash('sha256').update(BROKEN).digest('hex'),
    );
    expect(broken?.curl).toContain(`a body of ${Buffer.byteLength(BROKEN)} bytes`);
    expect(broken?.curl).not.toContain('--data-raw');
  });
});

describe('every logged curl line, pasted into bash, runs curl with the request and nothing else', () => {
  it('the path and the header made to break out of the quotes stay inside them', async () => {
    const log = await requestLog();
    const lines = log.map((entry) => entry.curl);
    expect(lines.some((line) => line.includes('path-pwned'))).toBe(true);
    expect(lines.some((line) => line.includes('header-pwned'))).toBe(true);
    // curl is a function that writes its arguments: the paste runs nothing else, in a clean folder.
    const script = [
      "curl() { printf '%s\\0' \"$@\" >> arguments; printf '\\n' >> arguments; }",
      'export OFKIT_KEY=k OFKIT_SECRET=s',
      ...lines,
    ].join('\n');
    // stdin closed: bash reads ~/.bashrc when its stdin is a socket (as Node's pipes are) and SHLVL < 2.
    const run = spawnSync('bash', ['-c', script], {
      cwd: folder,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    expect(run.stderr).toBe('');
    expect(readdirSync(folder)).toEqual(['arguments']);
    const calls = readFileSync(join(folder, 'arguments'), 'utf8').trim().split('\n');
    expect(calls).toHaveLength(lines.length);
    expect(calls.some((call) => call.includes(BREAKOUT_PATH))).toBe(true);
    expect(
      calls.some((call) => call.includes("x-service-request-mode: async'; touch header-pwned; echo '")),
    ).toBe(true);
  });
});
