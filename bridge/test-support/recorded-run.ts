/**
 * Test support: a simulator (startSimulator, as `ofkit simulate` starts it) with a recording proxy in
 * front of it, the traffic run through the proxy, and what the session found. `inThread` checks in the
 * test's own thread (the break matrix: dozens of runs, no worker start each); otherwise the real
 * recorder with its worker and HAR file runs.
 */
import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import {
  type StartedSimulator,
  type StartSimulatorOptions,
  startSimulator,
} from '../../simulator/src/start-simulator.js';
import type { Finding } from '../src/checks/finding.js';
import { loadBridgeDocument } from '../src/document/bridge-document.js';
import { decodedExchange } from '../src/exchange/exchange.js';
import { startRecordingProxy } from '../src/proxy/recording-proxy.js';
import { createUpstreamClient } from '../src/proxy/upstream-client.js';
import { createRecordingSession } from '../src/recording/recording-session.js';
import { type TrafficClient, trafficClient } from './traffic-client.js';

export interface InThreadRun {
  findings: readonly Finding[];
  exchanges: number;
}

/** Runs `traffic` through a proxy in front of a fresh simulator; the session checks in this thread. */
export async function recordInThread(
  simulatorOptions: StartSimulatorOptions,
  traffic: (client: TrafficClient, simulator: StartedSimulator) => Promise<void>,
): Promise<InThreadRun> {
  const simulator = await startSimulator({ seed: 'bridge', tickMs: 0, ...simulatorOptions });
  const client = await createUpstreamClient({ env: {}, systemBundles: [] });
  const session = createRecordingSession({
    document: loadBridgeDocument(),
    basePath: '',
    keepPersonal: false,
    pseudonymKey: randomBytes(32),
  });
  let queue: Promise<void> = Promise.resolve();
  const proxy = await startRecordingProxy(
    {
      upstream: simulator.url,
      client,
      timeoutSeconds: 30,
      maxRecordedBytes: 16 * 1_048_576,
      onExchange: (exchange) => {
        queue = queue.then(() => session.accept(decodedExchange(exchange)));
      },
    },
    0,
    '127.0.0.1',
  );
  try {
    const url = `http://127.0.0.1:${(proxy.server.address() as AddressInfo).port}`;
    await traffic(trafficClient(url, simulator.keys[0]!), simulator);
    await queue;
    return { findings: session.findings(), exchanges: session.checks.counts().exchanges };
  } finally {
    await proxy.close();
    await client.close();
    await simulator.close();
  }
}
