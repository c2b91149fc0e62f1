/**
 * A new server team's implementation on its first day, as `ofkit check` meets it with no config: a
 * node:http server of five operations (GET /api/, the institutions list, and links: register, list,
 * detail), Basic auth with one key, the page envelope, institutions of its own (none of the
 * simulator's), 405 for the other methods of the paths it serves and 404 everywhere else. Its faults,
 * each switched on by name, are the kind a first implementation has:
 *
 * - `ignores-fields`: the links list ignores `fields=` (every member comes back);
 * - `constant-request-id`: every error carries the same `request_id` (ERR-BODY);
 * - `unknown-link-400`: an unknown link id in the path answers 400 `invalid` (ERR-404);
 * - `unknown-link-410`: an unknown link id in the path answers 410 `gone` (ERR-404 another way).
 */
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { RunningServer } from '../../tests/test-support/altering-proxy.js';
import { type Fault, handleFiveOperations, type Reply } from './five-operation-routes.js';

export type { Fault };

export const FIVE_OPERATION_KEY = { id: 'team-key', secret: 'team-secret-7f3a' };

/** The operations it implements, as `--operations` names them. */
export const FIVE_OPERATIONS = ['getApiRoot', 'listInstitutions', 'registerLink', 'listLinks', 'getLink'];

const STARTUP_REQUEST_ID = randomUUID();

function send(response: ServerResponse, reply: Reply, faults: ReadonlySet<Fault>): void {
  const body = Array.isArray(reply.body)
    ? reply.body.map((item) => ({
        request_id: faults.has('constant-request-id') ? STARTUP_REQUEST_ID : randomUUID(),
        ...item,
      }))
    : reply.body;
  response.writeHead(reply.status, { 'content-type': 'application/json' });
  response.end(JSON.stringify(body));
}

function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
  });
}

/** Starts it on 127.0.0.1 (a free port) with `faults` switched on. */
export async function startFiveOperationServer(faults: readonly Fault[] = []): Promise<RunningServer> {
  const switched = new Set(faults);
  const expected = `Basic ${Buffer.from(`${FIVE_OPERATION_KEY.id}:${FIVE_OPERATION_KEY.secret}`).toString('base64')}`;
  const links: Record<string, unknown>[] = [];
  const server = createServer(async (request, response) => {
    const text = await readBody(request);
    const url = new URL(request.url ?? '/', `http://${request.headers.host}`);
    if (request.headers.authorization !== expected) {
      send(
        response,
        { status: 401, body: [{ code: 'authentication_failed', message: 'Invalid credentials.' }] },
        switched,
      );
      return;
    }
    send(
      response,
      handleFiveOperations({ method: request.method ?? 'GET', url, text, links, faults: switched }),
      switched,
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    stop: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
