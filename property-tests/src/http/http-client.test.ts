/**
 * The suite's HTTP client reads what an answer's body says whatever its content coding: a server may
 * compress although the suite sent no `Accept-Encoding` (under which any coding is acceptable), and a
 * real client decodes it. A body it cannot undo reads as the reason, never as JSON.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHttpClient } from './http-client.js';

const ERRORS = [{ request_id: 'r1', message: 'Not found.', code: 'not_found' }];
let server: Server;
let baseUrl: string;

beforeAll(async () => {
  server = createServer((incoming, response) => {
    const body = JSON.stringify(ERRORS);
    const [coding, bytes] =
      incoming.url === '/gzip'
        ? ['gzip', gzipSync(body)]
        : incoming.url === '/br'
          ? ['br', brotliCompressSync(body)]
          : incoming.url === '/zstd'
            ? ['zstd', Buffer.from(body)]
            : [undefined, Buffer.from(`\uFEFF${body}`)];
    response.writeHead(404, {
      'content-type': 'application/json',
      ...(coding && { 'content-encoding': coding }),
    });
    response.end(bytes);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(() => {
  server.closeAllConnections();
  server.close();
});

const client = () =>
  createHttpClient({
    baseUrl,
    keys: { primary: { id: 'key', secret: 'secret' }, second: null, otherEnvironment: null },
    requestTimeoutMs: 5_000,
  });

describe('the suite reads coded answers', () => {
  it.each(['/gzip', '/br'])('undoes %s', async (path) => {
    const http = client();
    const answer = await http.session().request({ method: 'GET', url: path });
    expect(answer.json).toEqual(ERRORS);
    await http.close();
  });

  it('reads an uncoded body as before (a leading BOM dropped)', async () => {
    const http = client();
    expect((await http.session().request({ method: 'GET', url: '/plain' })).json).toEqual(ERRORS);
    await http.close();
  });

  it('reads a body in a coding it cannot undo as the reason, not as JSON', async () => {
    const http = client();
    const answer = await http.session().request({ method: 'GET', url: '/zstd' });
    expect(answer.json).toBeUndefined();
    expect(answer.text).toBe('(the body could not be read: content coding zstd is not one ofkit reads)');
    await http.close();
  });
});
