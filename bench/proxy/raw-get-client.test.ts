/**
 * The load's raw client against a node:http server on loopback: an answer counts as read only once its
 * last byte came, whether its length is given or it comes in chunks (the bare pipe's answers), on
 * connections kept alive and reused, never more than the client may open; a server that closes, or
 * says it will, costs a new connection, not a lost answer.
 */
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createRawGetClient } from './raw-get-client.js';

const servers: Server[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

/** A server whose answers `answer` writes; each answer's end is logged before the client may resolve. */
async function serve(answer: (response: ServerResponse, index: number) => void) {
  const ended: number[] = [];
  const sockets = new Set<unknown>();
  let index = 0;
  const server = createServer((request, response) => {
    sockets.add(request.socket);
    const mine = index++;
    expect(request.headers.authorization).toBe('Basic x');
    response.once('finish', () => ended.push(mine));
    answer(response, mine);
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { origin, ended, sockets };
}

/** A body long enough to need many reads of the client's 64 KiB buffer. */
const BODY = Buffer.alloc(300_000, 'x');

describe('the fixed-rate load raw GET client', () => {
  it('reads an answer with a length whole, on kept-alive connections', async () => {
    const { origin, ended, sockets } = await serve((response) => response.end(BODY));
    const client = createRawGetClient(origin, '/page?a=1', { authorization: 'Basic x' }, 2);
    for (let round = 0; round < 3; round++) {
      const statuses = await Promise.all([client.get(), client.get(), client.get(), client.get()]);
      expect(statuses).toEqual([200, 200, 200, 200]);
    }
    expect(ended).toHaveLength(12);
    expect(sockets.size).toBe(2);
    client.close();
  });

  it('reads a chunked answer to its last chunk, with trailers', async () => {
    const { origin, ended } = await serve((response, index) => {
      response.writeHead(index % 2 === 0 ? 200 : 404, { Trailer: 'x-sum' });
      response.write(BODY.subarray(0, 100_000));
      setImmediate(() => {
        response.write(BODY.subarray(100_000));
        response.addTrailers({ 'x-sum': '1' });
        response.end();
      });
    });
    const client = createRawGetClient(origin, '/', { authorization: 'Basic x' }, 1);
    for (let index = 0; index < 4; index++) {
      const status = await client.get();
      expect(status).toBe(index % 2 === 0 ? 200 : 404);
      expect(ended).toHaveLength(index + 1);
    }
    client.close();
  });

  it('opens a new connection after an answer that closes its own, and after an empty answer', async () => {
    const { origin, sockets } = await serve((response, index) => {
      if (index === 0) response.writeHead(204).end();
      else response.writeHead(200, { Connection: 'close' }).end('bye');
    });
    const client = createRawGetClient(origin, '/', { authorization: 'Basic x' }, 1);
    expect(await client.get()).toBe(204);
    expect(await client.get()).toBe(200);
    expect(await client.get()).toBe(200);
    expect(sockets.size).toBe(2);
    client.close();
  });

  it('fails a request whose connection is lost before its answer ended, and goes on', async () => {
    const { origin } = await serve((response, index) => {
      if (index === 0) {
        response.writeHead(200, { 'Content-Length': 10 }).write('12345');
        setImmediate(() => response.socket?.destroy());
      } else response.end('fine');
    });
    const client = createRawGetClient(origin, '/', { authorization: 'Basic x' }, 1);
    await expect(client.get()).rejects.toThrow(/closed before the answer ended/);
    expect(await client.get()).toBe(200);
    client.close();
  });
});
