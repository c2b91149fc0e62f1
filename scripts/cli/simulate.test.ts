/**
 * `ofkit simulate --store`: a Redis that cannot be reached is one line and exit code 2; one beyond
 * loopback without a password or TLS is warned of before connecting; two simulators
 * started on one Redis share their tenants' state (a link registered on one is read on the other).
 * `ofkit simulate --no-judge`: says at start that the judge is off, and its control operations say so.
 */
import { createServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { parseSimulatorConfig } from '../../simulator/src/config/simulator-config.js';
import {
  type ContractCheck,
  responseChecker,
} from '../../simulator/test-support/contract-checked-simulator.js';
import {
  REDIS_SKIP_REASON,
  type RunningRedis,
  skipRedis,
  startRedisServer,
} from '../../simulator/test-support/redis-server.js';
import { simulateCommand, startFromConfig } from './simulate.js';

/** A loopback port nothing listens on (free when asked). */
function closedPort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

describe('ofkit simulate --no-judge', () => {
  it('says at start that the judge is off; the judge read answers 409 judge_off', async () => {
    const lines: string[] = [];
    const started = await startFromConfig(parseSimulatorConfig(['--port', '0', '--no-judge']), (line) =>
      lines.push(line),
    );
    try {
      expect(lines.join('\n')).toContain('client judge: off (--no-judge): nothing is logged or judged');
      expect(lines.join('\n')).not.toContain('/_ofkit/judge/');
      expect(started.simulator.judge).toBeNull();
      const [key] = started.keys;
      const authorization = `Basic ${Buffer.from(`${key?.secretId}:${key?.secretPassword}`).toString('base64')}`;
      const answer = await fetch(`${started.url}/_ofkit/judge/`, { headers: { authorization } });
      const response = { status: answer.status, headers: {}, body: await answer.json() };
      responseChecker(started.simulator)('GET', '/_ofkit/judge/', response);
      expect(response.status).toBe(409);
      expect(response.body).toEqual([expect.objectContaining({ code: 'judge_off' })]);
    } finally {
      await started.close();
    }
  });
});

describe('ofkit simulate --store', () => {
  it('names the Redis it cannot reach and exits 2', async () => {
    const port = await closedPort();
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {});
    try {
      expect(await simulateCommand(['--port', '0', '--store', `redis://127.0.0.1:${port}/0`])).toBe(2);
      expect(errors.mock.calls).toHaveLength(1);
      expect(errors.mock.calls[0]?.[0]).toMatch(
        new RegExp(
          `^ofkit simulate: cannot connect to Redis at redis://127\\.0\\.0\\.1:${port}/0: connect ECONNREFUSED 127\\.0\\.0\\.1:${port}$`,
        ),
      );
    } finally {
      errors.mockRestore();
    }
  });

  it('warns of a Redis beyond loopback without a password or TLS before connecting, never printing the password', async () => {
    // 0.0.0.0 is not a loopback name, yet a connection to it stays on this machine: nothing leaves it.
    const port = await closedPort();
    const lines: string[] = [];
    const log = vi.spyOn(console, 'log').mockImplementation((line: unknown) => void lines.push(String(line)));
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {});
    try {
      for (const url of [`redis://0.0.0.0:${port}/0`, `redis://ofkit:s3cret@0.0.0.0:${port}/0`]) {
        lines.length = 0;
        expect(await simulateCommand(['--port', '0', '--store', url])).toBe(2);
        const warnings = lines.filter((line) => line.startsWith('WARNING: '));
        expect(
          warnings.some((line) => line.includes('without TLS')),
          url,
        ).toBe(true);
        expect(warnings.some((line) => line.includes('without a password'))).toBe(!url.includes('@'));
        expect(lines.join('\n')).not.toContain('s3cret');
      }
      lines.length = 0;
      expect(await simulateCommand(['--port', '0', '--store', `redis://127.0.0.1:${port}/0`])).toBe(2);
      expect(lines.filter((line) => line.startsWith('WARNING: '))).toEqual([]);
    } finally {
      log.mockRestore();
      errors.mockRestore();
    }
  });

  describe.skipIf(skipRedis)(
    skipRedis ? `two simulators on one Redis (skipped: ${REDIS_SKIP_REASON})` : 'two simulators on one Redis',
    () => {
      let redis: RunningRedis;
      beforeAll(async () => {
        redis = await startRedisServer();
      }, 30_000);
      afterAll(() => redis?.stop());

      it('a link registered through one is read through the other', async () => {
        const config = parseSimulatorConfig(['--port', '0', '--seed', 's', '--store', redis.url]);
        const lines: string[] = [];
        const [a, b] = [
          await startFromConfig(config, (line) => lines.push(line)),
          await startFromConfig(config, () => {}),
        ];
        try {
          expect(lines.join('\n')).toContain(`store: ${redis.url} (shared by every simulator started on it)`);
          const [key] = a.keys;
          const authorization = `Basic ${Buffer.from(`${key?.secretId}:${key?.secretPassword}`).toString('base64')}`;
          const check: ContractCheck = responseChecker(a.simulator);
          const call = async (base: string, method: string, path: string, body?: unknown) => {
            const answer = await fetch(`${base}${path}`, {
              method,
              headers: { authorization, 'content-type': 'application/json' },
              ...(body === undefined ? {} : { body: JSON.stringify(body) }),
            });
            const response = { status: answer.status, headers: {}, body: await answer.json() };
            check(method, path, response);
            return response;
          };
          const registration = {
            institution: 'ofbank_br_retail',
            username: '76109277673',
            password: 'secret',
          };
          const created = await call(a.url, 'POST', '/api/links/', registration);
          expect(created.status).toBe(201);
          const id = (created.body as { id: string }).id;
          const read = await call(b.url, 'GET', `/api/links/${id}/`);
          expect(read).toMatchObject({ status: 200, body: { id, institution: 'ofbank_br_retail' } });
        } finally {
          await Promise.all([a.close(), b.close()]);
        }
      });
    },
  );
});
