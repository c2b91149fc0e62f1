/** Scratch: the proxy forwarding only (no checks, no recording), to measure the forwarding floor. */

import type { AddressInfo } from 'node:net';
import { parseArgs } from 'node:util';
import { startRecordingProxy } from '../../bridge/src/proxy/recording-proxy.js';
import { createUpstreamDispatcher } from '../../bridge/src/proxy/upstream-dispatcher.js';
import { exitCleanly, reportReady } from '../servers/child-protocol.js';

const { values } = parseArgs({ options: { upstream: { type: 'string' }, out: { type: 'string' } } });
const { dispatcher } = createUpstreamDispatcher();
const proxy = await startRecordingProxy(
  {
    upstream: values.upstream!,
    dispatcher,
    timeoutSeconds: 60,
    maxRecordedBytes: 16 << 20,
    onExchange: () => undefined,
  },
  0,
  '127.0.0.1',
);
exitCleanly(proxy.server);
reportReady({ url: `http://127.0.0.1:${(proxy.server.address() as AddressInfo).port}` });
