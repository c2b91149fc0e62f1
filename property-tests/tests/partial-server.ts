/**
 * A server that implements a few operations and answers everything else with a valid 404 error array,
 * as a new implementation does early on: the operations it has are the simulator's (forwarded), the
 * rest is "not found". Wrong credentials get 401 everywhere; there is no control API.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { request } from 'undici';
import type { RunningServer } from './faulty-servers.js';

/** A method and a path pattern (`{id}` any one segment). */
export type Implemented = readonly [method: string, path: string];

const pattern = (path: string) => new RegExp(`^${path.replace(/\{[^}]+\}/g, '[^/]+')}$`);

function notFound(res: ServerResponse, status: number, code: string, message: string): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify([{ request_id: 'partial-server', message, code }]));
}

async function forward(upstream: string, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(req.headers)) {
    if (value !== undefined && !['host', 'connection'].includes(name)) headers[name] = String(value);
  }
  const answer = await request(`${upstream}${req.url}`, { method: req.method as 'GET', headers });
  const text = (await answer.body.text()).replaceAll(upstream, `http://${req.headers.host}`);
  res.writeHead(answer.statusCode, { 'content-type': String(answer.headers['content-type'] ?? '') });
  res.end(text);
}

/** Listens on 127.0.0.1 (port 0); `implemented` operations go to `upstream`, the rest get 404. */
export async function startPartialServer(
  upstream: string,
  key: { id: string; secret: string },
  implemented: readonly Implemented[],
): Promise<RunningServer> {
  const accepted = `Basic ${Buffer.from(`${key.id}:${key.secret}`).toString('base64')}`;
  const routes = implemented.map(([method, path]) => ({ method, path: pattern(path) }));
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      const path = new URL(req.url ?? '/', 'http://partial').pathname;
      if (req.headers.authorization !== accepted)
        return notFound(res, 401, 'authentication_failed', 'Invalid credentials.');
      const route = routes.find((r) => r.method === req.method && r.path.test(path));
      if (!route) return notFound(res, 404, 'not_found', `Nothing at ${req.method} ${path}.`);
      forward(upstream, req, res).catch((error) => notFound(res, 502, 'bad_gateway', String(error)));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    async stop() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
