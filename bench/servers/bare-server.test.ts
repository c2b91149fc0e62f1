import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBareServer, fixedJsonBody } from './bare-server.js';

describe('bare node:http baseline', () => {
  it('builds JSON bodies of exactly the asked size', () => {
    for (const bytes of [2, 5, 13, 14, 15, 1077, 52_345]) {
      const body = fixedJsonBody(bytes);
      expect(body.length).toBe(bytes);
      expect(() => JSON.parse(body.toString('utf8'))).not.toThrow();
    }
    expect(() => fixedJsonBody(1)).toThrow();
  });

  const server = createBareServer([
    { method: 'GET', path: '/api/transactions/', status: 200, bytes: 52_345 },
    { method: 'POST', path: '/api/links/', status: 201, bytes: 395 },
  ]);
  let base = '';
  beforeAll(async () => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('answers each route with its status and body size, whatever the query', async () => {
    const list = await fetch(`${base}/api/transactions/?link=x&page_size=100`);
    expect(list.status).toBe(200);
    expect((await list.arrayBuffer()).byteLength).toBe(52_345);
    const created = await fetch(`${base}/api/links/`, { method: 'POST', body: '{"institution":"x"}' });
    expect(created.status).toBe(201);
    expect((await created.arrayBuffer()).byteLength).toBe(395);
  });

  it('answers 404 to anything else', async () => {
    const response = await fetch(`${base}/api/links/`);
    expect(response.status).toBe(404);
    await response.arrayBuffer();
  });
});
