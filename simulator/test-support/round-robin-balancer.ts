/**
 * A load balancer for tests: each request goes to the next upstream in turn, with its Host header as
 * the client sent it (so `next` links and curl lines name the balancer, as behind a real one).
 */
import { once } from 'node:events';
import { Agent, createServer, request as forward } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Balancer {
  readonly url: string;
  /** How many requests each upstream was sent, in the upstreams' order. */
  readonly served: readonly number[];
  close(): Promise<void>;
}

export async function startRoundRobin(upstreams: readonly string[]): Promise<Balancer> {
  let turn = 0;
  const served = upstreams.map(() => 0);
  const agent = new Agent({ keepAlive: true });
  const server = createServer((incoming, outgoing) => {
    const index = turn++ % upstreams.length;
    served[index]! += 1;
    const target = new URL(upstreams[index]!);
    const proxied = forward(
      {
        hostname: target.hostname,
        port: target.port,
        method: incoming.method,
        path: incoming.url,
        headers: incoming.headers,
        agent,
      },
      (answer) => {
        outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(outgoing);
      },
    );
    proxied.once('error', (error) => outgoing.writeHead(502).end(error.message));
    incoming.pipe(proxied);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    served,
    async close() {
      server.closeAllConnections();
      agent.destroy();
      await new Promise((done) => server.close(done));
    },
  };
}
