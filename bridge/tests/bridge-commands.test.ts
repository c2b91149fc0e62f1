/**
 * The commands as a user runs them: `ofkit proxy` and `ofkit record` in front of an implementation
 * that breaks the document (the client still gets its answer as it was; a line names the difference as
 * it happens; the report at shutdown; exit 1 on drift; --report files), `ofkit drift` over the
 * recording (exit 1, 0 with an --allow file that accepts it), and each way they cannot run: one line,
 * exit 2.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { XMLParser } from 'fast-xml-parser';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { drift } from '../../scripts/cli/drift.js';
import { proxy } from '../../scripts/cli/proxy.js';
import { record } from '../../scripts/cli/record.js';

const AUTH = `Basic ${Buffer.from('any-id:any-secret').toString('base64')}`;
let upstream: Server;
let upstreamUrl: string;
let folder: string;

beforeAll(async () => {
  folder = await mkdtemp(join(tmpdir(), 'ofkit-commands-'));
  upstream = createServer((incoming, response) => {
    response.writeHead(200, { 'content-type': 'application/json' });
    // GET /api/ keeps the document; the institutions page breaks it (count is no integer); the
    // accounts pages link to each other with the implementation's absolute URLs, and say they count
    // 2 records while holding none (PAGE-NAV).
    const url = new URL(incoming.url ?? '/', upstreamUrl);
    const at = (n: number) => `${upstreamUrl}/api/accounts/?page_size=1&page=${n}`;
    const body =
      url.pathname === '/api/accounts/'
        ? url.searchParams.get('page') === '2'
          ? { count: 2, next: null, previous: at(1), results: [] }
          : { count: 2, next: at(2), previous: null, results: [] }
        : url.pathname === '/api/institutions/'
          ? { count: 'many', next: null, previous: null, results: [] }
          : { service: 'upstream', version: '1.223.0', environment: 'production' };
    response.end(JSON.stringify(body));
  });
  await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
  upstreamUrl = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
});

afterAll(async () => {
  upstream.closeAllConnections();
  upstream.close();
  await rm(folder, { recursive: true, force: true });
});

async function get(url: string) {
  const answer = await request(url, { headers: { authorization: AUTH } });
  return { status: answer.statusCode, headers: answer.headers, text: await answer.body.text() };
}

/** Runs a proxy command, calls `traffic` once it listens, stops it; its exit code and printed lines. */
async function running(
  start: (options: {
    signal: AbortSignal;
    print: (line: string) => void;
    onListening: (url: string) => void;
  }) => Promise<number>,
  traffic: (url: string) => Promise<void>,
): Promise<{ code: number; lines: string[] }> {
  const stop = new AbortController();
  const lines: string[] = [];
  let done: Promise<void> = Promise.resolve();
  const exit = start({
    signal: stop.signal,
    print: (line) => lines.push(line),
    onListening: (url) => {
      done = traffic(url).finally(() => stop.abort());
    },
  });
  const code = await exit;
  await done;
  return { code, lines };
}

describe('ofkit proxy', () => {
  it('passes an answer that breaks the document unchanged, names the difference, exits 1 on drift', {
    timeout: 30_000,
  }, async () => {
    const reports = ['json', 'md', 'junit'].map((kind) => `${kind}:${join(folder, `proxy.${kind}`)}`);
    const { code, lines } = await running(
      (options) => proxy([upstreamUrl, '--port', '0', ...reports.flatMap((r) => ['--report', r])], options),
      async (url) => {
        const broken = await get(`${url}/api/institutions/`);
        expect(broken.status).toBe(200);
        expect(JSON.parse(broken.text)).toEqual({ count: 'many', next: null, previous: null, results: [] });
        const first = await get(`${url}/api/accounts/?page_size=1`);
        const page1 = JSON.parse(first.text);
        expect(page1.next).toBe(`${url}/api/accounts/?page_size=1&page=2`);
        expect(Number(first.headers['content-length'])).toBe(Buffer.byteLength(first.text));
        expect(JSON.parse((await get(page1.next)).text)).toMatchObject({
          previous: `${url}/api/accounts/?page_size=1&page=1`,
        });
      },
    );
    expect(code).toBe(1);
    expect(lines).toContain('ofkit proxy: listInstitutions 200 schema count: `count` must be integer');
    expect(lines).toContain(
      'ofkit proxy: listAccounts 200 rule PAGE-NAV: page 1 of size 1 holds 0 records; with count 2 it holds 1',
    );
    expect(lines.join('\n')).toMatch(/DRIFT: 2 differences/);
    const json = JSON.parse(await readFile(join(folder, 'proxy.json'), 'utf8'));
    expect(json.drift).toEqual([
      expect.objectContaining({ operation: 'listAccounts', status: 200, rule: 'PAGE-NAV', count: 2 }),
      expect.objectContaining({ operation: 'listInstitutions', status: 200, member: 'count', count: 1 }),
    ]);
    expect(json.rulesBroken).toEqual([{ rule: 'PAGE-NAV', exchanges: 2 }]);
    expect(await readFile(join(folder, 'proxy.md'), 'utf8')).toContain('| 1 | `listInstitutions` | 200 |');
    const junit = new XMLParser({ ignoreAttributes: false }).parse(
      await readFile(join(folder, 'proxy.junit'), 'utf8'),
    );
    expect(JSON.stringify(junit)).toContain('listInstitutions');
  });

  it('no exchange of the API through it: no verdict, exit 2 (never a green "no drift")', async () => {
    const errors = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    try {
      const report = join(folder, 'nothing.junit');
      const { code, lines } = await running(
        (options) => proxy([upstreamUrl, '--port', '0', '--report', `junit:${report}`], options),
        async () => undefined,
      );
      expect(code).toBe(2);
      expect(lines.join('\n')).toContain('\nno verdict: no exchange of the API was checked\n');
      expect(errors.mock.calls.map((call) => String(call[0]))).toContainEqual(
        expect.stringMatching(
          /^ofkit proxy: no exchange of the API went through http:\/\/127\.0\.0\.1:\d+: nothing was checked/,
        ),
      );
      expect(await readFile(report, 'utf8')).toContain('type="nothing-checked"');
    } finally {
      errors.mockRestore();
    }
  });

  it('refuses what it cannot run with one line and exit code 2', async () => {
    const errors = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    expect(await proxy(['--port', '1'], { print: () => undefined })).toBe(2);
    expect(await proxy([upstreamUrl, '--out', 'x.har'], { print: () => undefined })).toBe(2);
    expect(await record([upstreamUrl], 'record', { print: () => undefined })).toBe(2);
    expect(await proxy(['http://127.0.0.1:9', '--port', '0'], { print: () => undefined })).toBe(2);
    expect(await proxy([upstreamUrl, '--report', 'pdf:x'], { print: () => undefined })).toBe(2);
    const said = errors.mock.calls.map((call) => String(call[0]));
    expect(said[0]).toMatch(/^ofkit proxy: give the base URL/);
    expect(said[1]).toMatch(/records nothing/);
    expect(said[2]).toMatch(/--out session\.har/);
    expect(said[3]).toMatch(/^ofkit proxy: The API at http:\/\/127\.0\.0\.1:9 cannot be reached/);
    expect(said[4]).toMatch(/--report wants junit:PATH, json:PATH or md:PATH/);
    errors.mockRestore();
  });
});

describe('ofkit record, then ofkit drift', () => {
  it('records the session; drift over it exits 1, 0 once --allow accepts the difference', {
    timeout: 30_000,
  }, async () => {
    const har = join(folder, 'session.har');
    const { code } = await running(
      (options) => record([upstreamUrl, '--out', har, '--port', '0', '--quiet'], 'record', options),
      async (url) => {
        await get(`${url}/api/`);
        await get(`${url}/api/institutions/`);
      },
    );
    expect(code).toBe(1);
    const lines: string[] = [];
    expect(await drift([har], (line) => lines.push(line))).toBe(1);
    expect(lines.join('\n')).toMatch(
      /1x listInstitutions 200 schema count: `count` must be integer \(e\.g\. "many"\)/,
    );
    const allow = join(folder, 'allow.yaml');
    await writeFile(
      allow,
      "- match: '^listInstitutions 200 schema count$'\n  reason: our staging server counts in words\n",
    );
    const allowed: string[] = [];
    expect(await drift([har, '--allow', allow], (line) => allowed.push(line))).toBe(0);
    expect(allowed.join('\n')).toContain('[our staging server counts in words]');
  });

  it('checks odd traffic without failing: a malformed query, answers nested 100,000 deep', async () => {
    const errors = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const deep = `${'['.repeat(100_000)}${']'.repeat(100_000)}`;
    const entry = (url: string, type: string, text: string) => ({
      startedDateTime: '2026-11-02T12:00:00.000Z',
      time: 1,
      request: {
        method: 'GET',
        url,
        httpVersion: 'HTTP/1.1',
        headers: [],
        queryString: [],
        cookies: [],
        headersSize: -1,
        bodySize: 0,
      },
      response: {
        status: 200,
        statusText: 'OK',
        httpVersion: 'HTTP/1.1',
        headers: [{ name: 'content-type', value: type }],
        cookies: [],
        content: { size: text.length, mimeType: type, text },
        redirectURL: '',
        headersSize: -1,
        bodySize: text.length,
      },
      cache: {},
      timings: { send: 0, wait: 1, receive: 0 },
    });
    const odd = join(folder, 'odd.har');
    await writeFile(
      odd,
      JSON.stringify({
        log: {
          version: '1.2',
          creator: { name: 'x', version: '1' },
          entries: [
            entry(
              'http://api.test/api/transactions/?link=%zz&page_size=%',
              'application/json',
              '{"count":0,"next":null,"previous":null,"results":[]}',
            ),
            entry('http://api.test/api/links/', 'application/json', deep),
            entry('http://api.test/api/links/', 'text/plain', deep),
          ],
        },
      }),
    );
    const lines: string[] = [];
    expect(await drift([odd], (line) => lines.push(line))).toBe(1);
    expect(lines[0]).toMatch(/3 exchanges of the API checked/);
    expect(lines.join('\n')).toMatch(/listTransactions 200 accepted-invalid/);
    expect(errors).not.toHaveBeenCalled();
    errors.mockRestore();
  });

  it('refuses a file that is not a HAR, a bad --allow file and a recording without the API: one line, exit 2', async () => {
    const errors = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const notJson = join(folder, 'not.har');
    await writeFile(notJson, 'hello');
    const notHar = join(folder, 'other.json');
    await writeFile(notHar, '{"entries": []}');
    const empty = join(folder, 'empty.har');
    await writeFile(
      empty,
      JSON.stringify({ log: { version: '1.2', creator: { name: 'x', version: '1' }, entries: [] } }),
    );
    const badAllow = join(folder, 'bad-allow.yaml');
    await writeFile(badAllow, '- match: "("\n  reason: x\n');
    const print = () => undefined;
    expect(await drift([notJson], print)).toBe(2);
    expect(await drift([notHar], print)).toBe(2);
    expect(await drift([empty], print)).toBe(2);
    expect(await drift([empty, '--allow', badAllow], print)).toBe(2);
    expect(await drift([join(folder, 'missing.har')], print)).toBe(2);
    expect(errors.mock.calls.map((call) => String(call[0]))).toEqual([
      expect.stringMatching(/not\.har is not JSON/),
      expect.stringMatching(/other\.json is not a HAR file/),
      expect.stringMatching(/no exchange of the API in .*empty\.har/),
      expect.stringMatching(/--allow .*bad-allow\.yaml: entry 1: Invalid regular expression/),
      expect.stringMatching(/cannot read .*missing\.har \(ENOENT\)/),
    ]);
    errors.mockRestore();
  });
});
