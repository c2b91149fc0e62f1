/**
 * The baseline: bare `node:http` answering each scenario's path with a precomputed JSON body of the
 * simulator's size. It reads the request body (the simulator must) and does nothing else, so the
 * ratio simulator/bare is the cost of the simulator's work over the HTTP floor of this machine.
 */
import { createServer, type Server } from 'node:http';

export interface BareRoute {
  method: string;
  /** Path without the query string. */
  path: string;
  status: number;
  /** Size of the JSON body, in bytes. */
  bytes: number;
}

const EMPTY = '{"padding":""}';

/** A JSON object of exactly `bytes` bytes (whitespace-padded `{}` below the smallest padded form). */
export function fixedJsonBody(bytes: number): Buffer {
  if (!Number.isInteger(bytes) || bytes < 2)
    throw new Error(`a JSON body needs 2 bytes or more, got ${bytes}`);
  if (bytes < EMPTY.length) return Buffer.from(`{}${' '.repeat(bytes - 2)}`);
  return Buffer.from(`{"padding":"${'x'.repeat(bytes - EMPTY.length)}"}`);
}

export function createBareServer(routes: readonly BareRoute[]): Server {
  const answers = new Map(
    routes.map((route) => [
      `${route.method} ${route.path}`,
      {
        status: route.status,
        body: fixedJsonBody(route.bytes),
      },
    ]),
  );
  const notFound = Buffer.from('[{"code":"not_found"}]');
  return createServer((request, response) => {
    const path = (request.url ?? '/').split('?', 1)[0];
    const answer = answers.get(`${request.method} ${path}`);
    request.resume();
    request.on('end', () => {
      const body = answer?.body ?? notFound;
      response.writeHead(answer?.status ?? 404, {
        'content-type': 'application/json',
        'content-length': body.length,
      });
      response.end(body);
    });
  });
}
