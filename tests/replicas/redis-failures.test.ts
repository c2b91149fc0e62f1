/**
 * Redis failures have bounds: a server (or a cluster's only seed node) that accepts connections but
 * never answers gives one line and exit code 2 at start, within the connect time-out, as does a store
 * URL that is not one; during service, a paused Redis answers the API's error array saying the request's effect is unknown (within the command time-out), a lost one says it
 * cannot be reached, and service resumes with nothing lost. Real processes, loopback only, each
 * stopped (or paused) by its own PID.
 */
import { spawn } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LAUNCHER } from '../../scripts/test-support/cli-process.js';
import {
  REDIS_SKIP_REASON,
  type RunningRedis,
  skipRedis,
  startRedisServer,
} from '../../simulator/test-support/redis-server.js';
import { startSilentServer } from '../../simulator/test-support/silent-server.js';
import { type Replica, startReplica } from './replica-process.js';

/** Runs `ofkit simulate` until it exits; its exit code, stderr and how long it took (real time). */
function simulate(args: string[]): Promise<{ code: number | null; stderr: string; ms: number }> {
  const started = performance.now();
  const child = spawn(process.execPath, [LAUNCHER, 'simulate', '--port', '0', ...args], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString('utf8');
  });
  const bound = setTimeout(() => child.kill('SIGKILL'), 30_000);
  return new Promise((done) =>
    child.once('exit', (code) => {
      clearTimeout(bound);
      done({ code, stderr, ms: performance.now() - started });
    }),
  );
}

describe('a store that accepts but never answers', () => {
  it.each([
    ['one Redis', (port: number) => `redis://127.0.0.1:${port}/0?connect_timeout_ms=500`],
    ['a cluster', (port: number) => `redis+cluster://127.0.0.1:${port}?connect_timeout_ms=500`],
  ])(
    '%s: one line and exit code 2 at start, within the connect time-out',
    async (_, storeUrl) => {
      const silent = await startSilentServer();
      try {
        const url = storeUrl(silent.port);
        const { code, stderr, ms } = await simulate(['--store', url]);
        expect(code).toBe(2);
        expect(stderr).toBe(
          `ofkit simulate: Redis at ${url} did not answer within 500 ms (connect_timeout_ms): is a Redis server listening there?\n`,
        );
        // Generous: the process's own start (its code, the document) takes seconds on a busy machine.
        expect(ms).toBeLessThan(20_000);
      } finally {
        await silent.close();
      }
    },
    40_000,
  );

  it('a cluster URL that is not one: one line and exit code 2, before connecting', async () => {
    const { code, stderr } = await simulate(['--store', 'redis+cluster://127.0.0.1:7000/0']);
    expect(code).toBe(2);
    expect(stderr).toBe(
      'ofkit simulate: --store "redis+cluster://127.0.0.1:7000/0": list the cluster\'s nodes as HOST:PORT,HOST:PORT (want redis+cluster://HOST:PORT,HOST:PORT; a cluster has no database number)\n',
    );
  }, 40_000);
});

const title = skipRedis
  ? `a Redis failing during service (skipped: ${REDIS_SKIP_REASON})`
  : 'a Redis failing during service';

describe.skipIf(skipRedis)(title, () => {
  let redis: RunningRedis;
  let replica: Replica;

  beforeAll(async () => {
    redis = await startRedisServer();
    replica = await startReplica(
      'A',
      `${redis.url}?command_timeout_ms=300&connect_timeout_ms=2000`,
      'failures',
    );
  }, 120_000);

  afterAll(async () => {
    await replica?.kill();
    await redis?.stop();
  });

  it('paused: the error array says the effect is unknown; resumed: service goes on, nothing lost', async () => {
    const created = await replica.call('POST', '/api/links/', {
      institution: 'ofbank_br_retail',
      username: '76109277673',
      password: 'secret',
    });
    expect(created.status).toBe(201);
    process.kill(redis.pid, 'SIGSTOP');
    let paused: Awaited<ReturnType<Replica['call']>>;
    const started = performance.now();
    try {
      paused = await replica.call('GET', `/api/links/${created.body.id}/`);
    } finally {
      process.kill(redis.pid, 'SIGCONT');
    }
    expect(performance.now() - started).toBeLessThan(10_000);
    expect(paused.status).toBe(500);
    expect(paused.body).toEqual([
      {
        request_id: expect.any(String),
        code: 'store_effect_unknown',
        message: expect.stringMatching(
          /did not answer within 300 ms \(command_timeout_ms\)\): this request's effect is unknown, it may have happened\. Read the state before retrying\.$/,
        ),
      },
    ]);
    const again = await replica.call('GET', `/api/links/${created.body.id}/`);
    expect(again).toMatchObject({ status: 200, body: { id: created.body.id } });
  });

  it('gone: the error array says the store cannot be reached, and the replica keeps serving', async () => {
    await redis.stop();
    const gone = await replica.call('GET', '/api/links/');
    expect(gone.status).toBe(500);
    expect(gone.body[0]).toMatchObject({ code: 'store_unavailable' });
    expect(gone.body[0].message).toMatch(
      /^The simulator's store cannot be reached \(Redis at redis:\/\/127\.0\.0\.1:\d+\/0\?/,
    );
    // Still answering, still in the error format: no crash, no stack trace.
    expect((await replica.call('GET', '/api/institutions/')).status).toBe(500);
    expect(replica.process.exitCode).toBeNull();
  });
});
