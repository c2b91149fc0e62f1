/**
 * A real webhook receiver for the tests: node:http on 127.0.0.1, port 0. It answers each delivery as
 * `answer(n)` says (n counts from 1): a status, or `hang` (never answers, for the time-out).
 */
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedDelivery {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  // biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary payload members; schemas check them
  body: any;
}

export interface TestReceiver {
  url: string;
  received: ReceivedDelivery[];
  close(): Promise<void>;
}

export async function startReceiver(
  answer: (n: number) => number | 'hang' = () => 200,
): Promise<TestReceiver> {
  const received: ReceivedDelivery[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      received.push({
        method: request.method ?? '',
        path: request.url ?? '',
        headers: request.headers,
        body: text ? JSON.parse(text) : undefined,
      });
      const status = answer(received.length);
      if (status === 'hang') return;
      response.writeHead(status, { 'content-type': 'text/plain' });
      response.end('ok');
    });
  });
  await new Promise<void>((ready) => server.listen(0, '127.0.0.1', ready));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    received,
    close: () =>
      new Promise<void>((done) => {
        server.close(() => done());
        server.closeAllConnections();
      }),
  };
}
