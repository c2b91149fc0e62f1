import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBareServer } from '../servers/bare-server.js';
import { requestsPerSecondOf, runParallelLoad, splitConnections } from './run-parallel-load.js';

describe('spreading connections over replicas', () => {
  it('gives each replica its share, the first ones the remainder', () => {
    expect(splitConnections(20, 2)).toEqual([10, 10]);
    expect(splitConnections(21, 2)).toEqual([11, 10]);
    expect(splitConnections(5, 3)).toEqual([2, 2, 1]);
    expect(() => splitConnections(1, 2)).toThrow();
  });

  it('takes the mean of the one-second samples from the count and the number of samples', () => {
    expect(requestsPerSecondOf({ totalCompletedRequests: 900, samples: 3 })).toBe(300);
    expect(requestsPerSecondOf({ totalCompletedRequests: 0, samples: 0 })).toBe(0);
  });
});

describe('one scenario on two servers at once', () => {
  const counts = [0, 0];
  const servers: Server[] = [0, 1].map((i) => {
    const server = createBareServer([{ method: 'GET', path: '/api/links/', status: 200, bytes: 300 }]);
    server.on('request', () => {
      counts[i] = (counts[i] ?? 0) + 1;
    });
    return server;
  });
  const urls: string[] = [];
  beforeAll(async () => {
    for (const server of servers) {
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      urls.push(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
    }
  });
  afterAll(() =>
    Promise.all(
      servers.map((server) => {
        server.closeAllConnections();
        return new Promise<void>((resolve) => server.close(() => resolve()));
      }),
    ),
  );

  it('loads both, sums the throughput and merges every answer into one result', async () => {
    const scenario = { method: 'GET' as const, path: '/api/links/', headers: {} };
    const result = await runParallelLoad(urls, scenario, {
      connections: 4,
      durationSeconds: 1,
      warmupSeconds: 0,
    });
    expect(counts[0]).toBeGreaterThan(0);
    expect(counts[1]).toBeGreaterThan(0);
    expect(result.statusCodes).toEqual({ 200: result.requests });
    expect(result.non2xx).toBe(0);
    // Answers still in flight when autocannon stops reach the servers but are not counted.
    expect(result.requests).toBeLessThanOrEqual((counts[0] ?? 0) + (counts[1] ?? 0));
    expect(result.requests).toBeGreaterThan(0.9 * ((counts[0] ?? 0) + (counts[1] ?? 0)) - 10);
    // The summed rate is the arithmetic above (requestsPerSecondOf); how it relates to the run's length
    // depends on the machine's timing, which a test must not assert.
    expect(result.requestsPerSecond).toBeGreaterThan(0);
    expect(result.latencyP99Ms).toBeGreaterThanOrEqual(result.latencyP50Ms);
    expect(result.latencyMaxMs).toBeGreaterThanOrEqual(result.latencyP99Ms);
  });
});
