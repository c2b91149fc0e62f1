/**
 * Bench child: the least a proxy can be, a node:http server piping each request to the upstream and
 * its answer back (keep-alive, no parsing, no copy, no recording). What it adds to the simulator's
 * latency is the floor any forwarding proxy meets on the machine, so the recording proxy's row can be
 * read against it.
 * Run with `node --import tsx bench/proxy/pipe-proxy-server.ts --upstream URL`.
 */
import { Agent, createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { parseArgs } from 'node:util';
import { exitCleanly, reportLine, reportReady } from '../servers/child-protocol.js';

const { values } = parseArgs({ options: { upstream: { type: 'string' } } });
if (values.upstream === undefined) throw new Error('--upstream is required');
const upstream = new URL(values.upstream);
const agent = new Agent({ keepAlive: true });
const server = createServer((incoming, response) => {
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
  outgoing.once('error', () => response.destroy());
  incoming.pipe(outgoing);
});
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
const start = process.cpuUsage();
exitCleanly(server, async () => {
  const { user, system } = process.cpuUsage(start);
  reportLine('CPU', { ms: (user + system) / 1000, caughtUp: true });
});
reportReady({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` });
