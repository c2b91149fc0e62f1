/**
 * Bench child: the least a proxy can be, a node:http server piping each request to the upstream and
 * its answer back (keep-alive, no parsing, no copy, no recording). What it adds to the simulator's
 * latency is the floor any forwarding proxy meets on the machine, so the recording proxy's row can be
 * read against it.
 * Run with `node --import tsx bench/proxy/pipe-proxy-server.ts --upstream URL`.
 */
import { Agent, createServer, type IncomingMessage, request, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { parseArgs } from 'node:util';
import { exitCleanly, reportLine, reportReady } from '../servers/child-protocol.js';

const { values } = parseArgs({ options: { upstream: { type: 'string' } } });
if (values.upstream === undefined) throw new Error('--upstream is required');
const upstream = new URL(values.upstream);
const agent = new Agent({ keepAlive: true });
/**
 * Pipes one request; a GET written on a kept-alive connection the simulator closed meanwhile (its idle
 * time-out met the request) goes once more on a new one, as the recording proxy does, so the row never
 * fails for a connection neither proxy chose to lose.
 */
function pipeRequest(incoming: IncomingMessage, response: ServerResponse, mayRetry: boolean): void {
  const outgoing = request(
    {
      agent,
      host: upstream.hostname,
      port: upstream.port,
      method: incoming.method,
      path: incoming.url,
      headers: incoming.headers,
    },
    (answer) => {
      response.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(response);
    },
  );
  outgoing.once('error', (error: NodeJS.ErrnoException) => {
    const stale = outgoing.reusedSocket && error.code === 'ECONNRESET' && incoming.method === 'GET';
    if (stale && mayRetry && !response.headersSent) pipeRequest(incoming, response, false);
    else response.destroy();
  });
  if (incoming.method === 'GET') outgoing.end();
  else incoming.pipe(outgoing);
}

const server = createServer((incoming, response) => pipeRequest(incoming, response, true));
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
const start = process.cpuUsage();
exitCleanly(server, async () => {
  const { user, system } = process.cpuUsage(start);
  reportLine('CPU', { ms: (user + system) / 1000, caughtUp: true });
});
reportReady({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` });
