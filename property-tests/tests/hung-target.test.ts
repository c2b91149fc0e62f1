/**
 * A target that stops answering ends the run: after a few requests in a row get no answer within the
 * request time-out (no answer at all, or a body that trickles in and never ends), the rules still to come are reported `not run` with the reason, the run exits 1 and
 * the JSON report says it stopped, instead of every request waiting out its time-out for hours.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UNANSWERED_IN_A_ROW } from '../src/http/http-client.js';
import { runCheck } from './check-output.js';

const ROOT = JSON.stringify({ service: 'hung', version: '1.223.0', environment: 'production' });
const servers: Server[] = [];
const urls: Record<'silent' | 'trickling', string> = { silent: '', trickling: '' };
let answered = 0;

/** Answers the root (so the keys are taken); then stays silent, or sends headers and a byte now and then. */
async function startTarget(kind: keyof typeof urls): Promise<void> {
  const server = createServer((request, response) => {
    if (request.method === 'GET' && request.url === '/api/') {
      answered += 1;
      response.writeHead(200, { 'content-type': 'application/json' }).end(ROOT);
    } else if (kind === 'trickling') {
      response.writeHead(200, { 'content-type': 'application/json' });
      const drip = setInterval(() => response.write(' '), 50);
      response.on('close', () => clearInterval(drip));
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  servers.push(server);
  urls[kind] = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

beforeAll(async () => {
  await startTarget('silent');
  await startTarget('trickling');
});

afterAll(async () => {
  for (const server of servers) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

describe('a target that stops answering', () => {
  it.each(['silent', 'trickling'] as const)(
    `%s: stops the run after ${UNANSWERED_IN_A_ROW} unanswered requests in a row, the rest not run, exit 1`,
    {
      timeout: 60_000,
    },
    async (kind) => {
      const baseUrl = urls[kind];
      answered = 0;
      const dir = mkdtempSync(join(tmpdir(), 'ofkit-hung-'));
      const config = join(dir, 'target.json');
      writeFileSync(config, JSON.stringify({ baseUrl, requestTimeoutMs: 300 }));
      const report = join(dir, 'c.json');
      const { code, out } = await runCheck([
        ...['--config', config, '--keys', 'a:b', '--seed', '5', '--runs', '2'],
        ...['--report', `json:${report}`],
      ]);
      expect(answered).toBeGreaterThan(0);
      expect(code).toBe(1);
      expect(out).toMatch(
        new RegExp(
          `STOPPED: the target stopped answering \\(${UNANSWERED_IN_A_ROW} requests in a row got no answer; the last, [A-Z]+ /\\S*: (TimeoutError|UND_ERR_HEADERS_TIMEOUT)\\); \\d+ rules did not run`,
        ),
      );
      const json = JSON.parse(readFileSync(report, 'utf8'));
      expect(json.stopped).toMatch(/requests in a row got no answer/);
      const notRun = json.rules.filter((rule: { reason?: string }) => rule.reason?.startsWith('not run:'));
      expect(notRun.length).toBeGreaterThan(json.rules.length - 5);
      for (const rule of notRun) expect(rule.status).toBe('skipped');
    },
  );
});
