/**
 * One snapshot import at a time per tenant across replicas on one Redis: while an import runs on one
 * replica, another replica refuses a second import of that tenant at once (409, its body unread), and
 * imports another tenant; a lease whose replica died lapses and is taken over by one replica. Two
 * in-process simulators, each with its own connection to the store, on loopback.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RUNTIME_COLLECTION } from '../../simulator/src/clock/tenant-clock.js';
import { DEFAULT_KEYS } from '../../simulator/src/config/simulator-config.js';
import { IMPORT_LEASE_MS } from '../../simulator/src/control/snapshot-lock.js';
import { type StartedSimulator, startSimulator } from '../../simulator/src/start-simulator.js';
import { RedisStore } from '../../simulator/src/store/redis-store.js';
import { FIXED_NOW } from '../../simulator/test-support/contract-checked-simulator.js';
import {
  REDIS_SKIP_REASON,
  type RunningRedis,
  skipRedis,
  startRedisServer,
} from '../../simulator/test-support/redis-server.js';
import { basic, probe, rawConnection } from '../security/http-probes.js';

const title = skipRedis
  ? `the snapshot import lease across replicas (skipped: ${REDIS_SKIP_REASON})`
  : 'the snapshot import lease across replicas';
if (skipRedis) console.warn(REDIS_SKIP_REASON);

const [A, B] = DEFAULT_KEYS as [(typeof DEFAULT_KEYS)[0], (typeof DEFAULT_KEYS)[0]];
const SNAPSHOT = JSON.stringify({
  format: 'ofkit-snapshot/2',
  clock: { now: '2026-11-02T12:00:00.000Z', frozen: true },
  state: { store: { collections: {}, windows: {} }, scenarios: [], faults: [] },
});

const importOn = (replica: StartedSimulator, key: typeof A) =>
  probe(replica.url, '/_ofkit/snapshot/', {
    method: 'PUT',
    headers: { authorization: basic(key.secretId, key.secretPassword), 'content-type': 'application/json' },
    body: SNAPSHOT,
  });

/** An import of `key` on `replica` whose body is held after its first bytes (it holds the lease). */
async function heldImport(replica: StartedSimulator, key: typeof A) {
  const connection = await rawConnection(replica.url);
  const auth = basic(key.secretId, key.secretPassword);
  connection.write(
    `PUT /_ofkit/snapshot/ HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: ${auth}\r\nContent-Type: application/json\r\nContent-Length: ${SNAPSHOT.length}\r\n\r\n${SNAPSHOT.slice(0, 10)}`,
  );
  return connection;
}

/**
 * How long a test waits for the held import to take its lease: it ends as soon as it is taken; the
 * default second was overrun on a loaded machine.
 */
const TAKEN = { timeout: 10_000, interval: 20 };

describe.skipIf(skipRedis)(title, () => {
  let redis: RunningRedis;
  const replicas: StartedSimulator[] = [];
  let realTime = FIXED_NOW;

  /**
   * Waits until an import holds `key`'s lease, read from the store beside the replicas: probing with a
   * second import instead would race the held one for the lease, and the probe could win it.
   */
  const leaseTaken = async (key: typeof A) => {
    const observer = new RedisStore({ url: redis.url, prefix: 'import-lease:' });
    await observer.connect();
    try {
      const owner = async () =>
        (await observer.get(key.secretId, RUNTIME_COLLECTION, 'snapshot-import'))?.owner;
      await expect.poll(owner, TAKEN).toEqual(expect.any(String));
    } finally {
      await observer.close();
    }
  };

  const replica = async () => {
    const store = new RedisStore({ url: redis.url, prefix: 'import-lease:' });
    await store.connect();
    const started = await startSimulator({ seed: 'lease', tickMs: 0, store, realTime: () => realTime });
    replicas.push({ ...started, close: () => started.close().then(() => store.close()) });
    return started;
  };

  beforeAll(async () => {
    redis = await startRedisServer();
  }, 60_000);
  afterAll(async () => {
    for (const started of replicas) await started.close();
    await redis?.stop();
  });

  it('an import running on one replica refuses the tenant on the other, which imports another tenant', async () => {
    const [one, two] = [await replica(), await replica()];
    const held = await heldImport(one, A);
    await leaseTaken(A);
    expect((await importOn(two, A)).status).toBe(409);
    expect((await importOn(two, B)).status).toBe(204);
    held.write(SNAPSHOT.slice(10));
    expect(await held.until('\r\n\r\n')).toMatch(/^HTTP\/1\.1 204 /);
    held.socket.destroy();
    expect((await importOn(two, A)).status).toBe(204);
  });

  it('a lease not renewed lapses (its replica died) and another replica takes it over', async () => {
    const [one, two] = [replicas[0]!, replicas[1]!];
    const held = await heldImport(one, B);
    await leaseTaken(B);
    expect((await importOn(two, B)).status).toBe(409);
    // The machine's time passes the lease without a renewal reaching the store.
    realTime += IMPORT_LEASE_MS + 1;
    expect((await importOn(two, B)).status).toBe(204);
    held.socket.destroy();
  });
});
