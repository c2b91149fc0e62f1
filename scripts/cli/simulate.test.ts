/**
 * `ofkit simulate --store`: a Redis that cannot be reached is one line and exit code 2; one beyond
 * loopback without a password or TLS is warned of before connecting; two simulators
 * started on one Redis share their tenants' state (a link registered on one is read on the other).
 * `ofkit simulate --no-judge`: says at start that the judge is off, and its control operations say so.
 * `--webhook-delay`, `--webhook-interleave`, `--storm` and `--recurrent-life` reach every tenant.
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

describe('ofkit simulate --webhook-delay --webhook-interleave --storm', () => {
  it('gives every tenant held, interleaved deliveries and the storm, says so at start, refuses nonsense', async () => {
    expect(() => parseSimulatorConfig(['--webhook-interleave'])).toThrow(/needs --webhook-delay/);
    expect(() => parseSimulatorConfig(['--webhook-delay', 'soon'])).toThrow(/--webhook-delay must be/);
    const lines: string[] = [];
    const config = parseSimulatorConfig([
      '--port',
      '0',
      '--webhook-delay',
      '90',
      '--webhook-interleave',
      '--storm',
    ]);
    const started = await startFromConfig(config, (line) => lines.push(line));
    try {
      expect(lines.join('\n')).toContain('each delivery held back 90 s, interleaved');
      expect(lines.join('\n')).toContain('forward-compatibility storm: on for every tenant');
      const [key] = started.keys;
      const authorization = `Basic ${Buffer.from(`${key?.secretId}:${key?.secretPassword}`).toString('base64')}`;
      const read = async (path: string) => {
        const answer = await fetch(`${started.url}${path}`, { headers: { authorization } });
        const headers = Object.fromEntries(answer.headers);
        const response = { status: answer.status, headers, body: await answer.json() };
        responseChecker(started.simulator)('GET', path, response);
        return { ...response, storm: headers['x-ofkit-storm'] };
      };
      expect((await read('/_ofkit/webhooks/')).body).toMatchObject({
        delivery_delay_seconds: 90,
        delivery_order: 'interleaved',
      });
      expect((await read('/_ofkit/storm/')).body).toEqual({ enabled: true, by_default: true });
      expect((await read('/api/institutions/')).storm).toBe('forward-compatibility');
    } finally {
      await started.close();
    }
  });
});

describe('ofkit simulate --recurrent-life', () => {
  it('gives each recurrent link registered its life script, says so at start, refuses nonsense', async () => {
    expect(() => parseSimulatorConfig(['--recurrent-life', '3'])).toThrow(
      /--recurrent-life must be a number of days from 4 to 90, got "3"/,
    );
    expect(() => parseSimulatorConfig(['--recurrent-life', 'weeks'])).toThrow(/--recurrent-life must be/);
    expect(parseSimulatorConfig([]).recurrentLife).toBeNull();
    const lines: string[] = [];
    const config = parseSimulatorConfig(['--port', '0', '--recurrent-life', '9']);
    const started = await startFromConfig(config, (line) => lines.push(line));
    try {
      expect(lines.join('\n')).toContain('recurrent life: every recurrent link registered lives 9 days');
      const [key] = started.keys;
      const register = async (access_mode: string) => {
        const answer = await fetch(`${started.url}/api/links/`, {
          method: 'POST',
          headers: {
            authorization: `Basic ${Buffer.from(`${key?.secretId}:${key?.secretPassword}`).toString('base64')}`,
            'content-type': 'application/json',
          },
          body: JSON.stringify({
            institution: 'ofbank_br_retail',
            username: '76109277673',
            password: 'secret',
            access_mode,
          }),
        });
        expect(answer.status).toBe(201);
        return ((await answer.json()) as { id: string }).id;
      };
      await register('single');
      const recurrent = await register('recurrent');
      const lives = await started.control.recurrentLives();
      expect(lives.map(({ link, days, finished }) => ({ link, days, finished }))).toEqual([
        { link: recurrent, days: 9, finished: false },
      ]);
      expect(lives[0]?.steps.map((step) => [step.day, step.action])).toEqual([
        [1, 'historical_update'],
        [3, 'credentials_invalid'],
        [6, 'token_required'],
        [9, 'link_deleted'],
      ]);
      // The typed control client plays another script for the link: it replaces the first.
      expect(await started.control.startRecurrentLife(recurrent, 4)).toMatchObject({ days: 4 });
      expect((await started.control.recurrentLives()).map((life) => life.days)).toEqual([4]);
      for (let day = 0; day < 5; day += 1) await started.control.advanceClock(86_400);
      expect((await started.control.recurrentLives())[0]?.finished).toBe(true);
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
