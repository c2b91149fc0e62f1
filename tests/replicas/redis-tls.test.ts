/**
 * Replicas on a Redis reached over TLS, as a staging deployment beyond loopback wants it: `rediss://`
 * (one Redis with a password) and `rediss+cluster://` (a cluster with TLS on every node, its bus too,
 * and a password; the nodes the client discovers use TLS and the password as the seed nodes do). Two
 * `ofkit simulate` processes trust the certificate through NODE_EXTRA_CA_CERTS; a link registered on
 * one is read on the other, and neither prints the password.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { REDIS_SKIP_REASON, skipRedis } from '../../simulator/test-support/redis-server.js';
import {
  startTlsCluster,
  startTlsRedis,
  type TlsRedis,
  tlsToolsAvailable,
} from '../../simulator/test-support/redis-tls.js';
import { type Replica, startReplica } from './replica-process.js';

const NO_TOOLS = 'openssl or redis-cli not installed: apt-get install openssl redis-tools';
const skip = skipRedis || (!process.env.CI && !tlsToolsAvailable());
const reason = skipRedis ? REDIS_SKIP_REASON : NO_TOOLS;
const title = skip ? `replicas on Redis over TLS (skipped: ${reason})` : 'replicas on Redis over TLS';
if (skip) console.warn(title);

const PASSWORD = 'tls-s3cret';

describe.skipIf(skip)(title, { timeout: 120_000 }, () => {
  const running: { stop(): Promise<void> }[] = [];
  afterAll(async () => {
    for (const thing of running.reverse()) await thing.stop();
  });

  async function twoReplicasOn(redis: TlsRedis, seed: string): Promise<[Replica, Replica]> {
    running.push(redis);
    const env = { NODE_EXTRA_CA_CERTS: redis.ca };
    const replicas = await Promise.all([
      startReplica('A', redis.url, seed, env),
      startReplica('B', redis.url, seed, env),
    ]);
    for (const replica of replicas) running.push({ stop: () => replica.kill() });
    return replicas;
  }

  for (const [what, start] of [
    ['rediss://', () => startTlsRedis(PASSWORD)],
    ['rediss+cluster://', () => startTlsCluster(PASSWORD)],
  ] as const) {
    it(`${what}: a link registered on one replica is read on the other; the password is never printed`, async () => {
      const [a, b] = await twoReplicasOn(await start(), `tls-${what}`);
      const link = await a.call('POST', '/api/links/', {
        institution: 'ofbank_br_retail',
        username: '76109277673',
        password: 'p',
      });
      expect(link.status).toBe(201);
      expect((await b.call('GET', `/api/links/${link.body.id}/`)).body).toMatchObject({ id: link.body.id });
      for (const replica of [a, b]) {
        expect(replica.output.join('')).toContain(`${what}:***@`);
        expect(replica.output.join('')).not.toContain(PASSWORD);
      }
    });
  }
});
