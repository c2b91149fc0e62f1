/**
 * Bench child: the bare `node:http` baseline on 127.0.0.1 and an OS-chosen port.
 * Run with `node --import tsx bench/servers/bare-server-main.ts --routes '<json BareRoute[]>'`.
 */
import type { AddressInfo } from 'node:net';
import { parseArgs } from 'node:util';
import { type BareRoute, createBareServer } from './bare-server.js';
import { exitCleanly, reportReady } from './child-protocol.js';

const { values } = parseArgs({ options: { routes: { type: 'string', default: '[]' } } });
const routes = JSON.parse(values.routes) as BareRoute[];
const server = createBareServer(routes);
server.listen(0, '127.0.0.1', () => {
  const { port } = server.address() as AddressInfo;
  exitCleanly(server);
  reportReady({ url: `http://127.0.0.1:${port}`, routes: routes.length });
});
