/**
 * Bench child: the recording proxy forwarding only (no checks, no recording), in front of the bench
 * simulator: what the proxy's own thread costs a client, apart from the recording's worker. At the end
 * it reports the CPU time it used.
 * Run with `node --import tsx bench/proxy/forward-only-server.ts --upstream URL`.
 */
import type { AddressInfo } from 'node:net';
import { parseArgs } from 'node:util';
import { startRecordingProxy } from '../../bridge/src/proxy/recording-proxy.js';
import { createUpstreamClient } from '../../bridge/src/proxy/upstream-client.js';
import { exitCleanly, reportLine, reportReady } from '../servers/child-protocol.js';

const { values } = parseArgs({ options: { upstream: { type: 'string' } } });
if (values.upstream === undefined) throw new Error('--upstream is required');
const client = await createUpstreamClient();
const proxy = await startRecordingProxy(
  {
    upstream: values.upstream,
    client,
    timeoutSeconds: 60,
    maxRecordedBytes: 16 * 1_048_576,
    onExchange: () => undefined,
  },
  0,
  '127.0.0.1',
);
const start = process.cpuUsage();
exitCleanly(proxy.server, async () => {
  const { user, system } = process.cpuUsage(start);
  reportLine('CPU', { ms: (user + system) / 1000, caughtUp: true });
});
reportReady({ url: `http://127.0.0.1:${(proxy.server.address() as AddressInfo).port}` });
