/**
 * Starts the peers, each a child process on 127.0.0.1 (an OS-chosen port, or a free one found first
 * where the peer needs to be told), with its default configuration and its request logging off where
 * it has a switch for it, serving the same 100 transaction records. A peer that cannot be installed
 * or started here is left out with the reason, which its row and its target print.
 */
import { existsSync, readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { resolve } from 'node:path';
import type { PeerName } from '../report/targets.js';
import { type ChildServer, REPO_ROOT, startChild, tsxArgs } from '../servers/child-process.js';
import { PEER_PATHS, type PeerFiles } from './peer-files.js';

const START_TIMEOUT_MS = 120_000;

/** Where the kernel draws port 0 from starts here (Linux says; 49152 elsewhere, IANA's dynamic ports). */
function ephemeralLow(): number {
  try {
    const low = Number(readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0]);
    return Number.isInteger(low) && low > 2048 ? low : 49_152;
  } catch {
    return 49_152;
  }
}

/** Whether `port` can be listened on at 127.0.0.1 now. */
const bindable = (port: number): Promise<boolean> =>
  new Promise((answer) => {
    const probe = createServer();
    probe.once('error', () => answer(false));
    probe.listen(port, '127.0.0.1', () => probe.close(() => answer(true)));
  });

/**
 * A port free on 127.0.0.1 now, for a server that is told its port (a peer that prints none). It is
 * drawn below the range port 0 takes from: a port found through port 0 and let go could be taken by any
 * server listening on port 0 meanwhile (another peer, another test's), before the one told binds it.
 */
export async function freePort(): Promise<number> {
  const low = ephemeralLow();
  const from = Math.max(1024, low - 16_384);
  for (let attempt = 0; attempt < 100; attempt += 1) {
    const port = from + Math.floor(Math.random() * (low - from));
    if (await bindable(port)) return port;
  }
  throw new Error(`no free port on 127.0.0.1 between ${from} and ${low - 1} (100 tried)`);
}

const bin = (path: string) => resolve(REPO_ROOT, 'node_modules', path);

/** Why a peer cannot run here because it is not installed, or undefined when it is. */
function notInstalled(peer: PeerName, entry: string): string | undefined {
  return existsSync(entry) ? undefined : `${peer} is not installed (${entry} missing; npm ci)`;
}

/** Prism's mock of the one-operation document, its log silenced (`-v silent`), on a free port. */
async function startPrismPeer(files: PeerFiles): Promise<ChildServer> {
  const port = await freePort();
  return startChild({
    name: 'prism',
    command: process.execPath,
    args: [
      bin('.bin/prism'),
      'mock',
      files.prismDocument,
      '-p',
      String(port),
      '-h',
      '127.0.0.1',
      '-v',
      'silent',
    ],
    pollUrl: `http://127.0.0.1:${port}${PEER_PATHS.prism}`,
    timeoutMs: START_TIMEOUT_MS,
  });
}

function startJsonServerPeer(files: PeerFiles): Promise<ChildServer> {
  return startChild({
    name: 'json-server',
    command: process.execPath,
    args: [...tsxArgs('bench/peers/json-server-main.ts'), '--db', files.jsonServerDb],
    timeoutMs: START_TIMEOUT_MS,
  });
}

/** Mockoon's CLI on the port its environment names; no log file (it has no switch for its stdout log). */
function startMockoonPeer(files: PeerFiles, port: number): Promise<ChildServer> {
  return startChild({
    name: 'mockoon',
    command: process.execPath,
    args: [
      bin('@mockoon/cli/bin/run.js'),
      'start',
      '--data',
      files.mockoonEnvironment,
      '--port',
      String(port),
      '--hostname',
      '127.0.0.1',
      '--disable-log-to-file',
    ],
    pollUrl: `http://127.0.0.1:${port}${PEER_PATHS.mockoon}`,
    timeoutMs: START_TIMEOUT_MS,
  });
}

export interface StartedPeers {
  peers: Map<PeerName, ChildServer>;
  /** Peer -> why it is not in this run. */
  notRun: Record<string, string>;
}

/** Starts the three peers one after the other (start-up is not what they are measured on). */
export async function startPeers(files: PeerFiles, mockoonPort: number): Promise<StartedPeers> {
  const starters: [PeerName, string, () => Promise<ChildServer>][] = [
    ['prism', bin('.bin/prism'), () => startPrismPeer(files)],
    ['json-server', bin('json-server/lib/app.js'), () => startJsonServerPeer(files)],
    ['mockoon', bin('@mockoon/cli/bin/run.js'), () => startMockoonPeer(files, mockoonPort)],
  ];
  const peers = new Map<PeerName, ChildServer>();
  const notRun: Record<string, string> = {};
  for (const [peer, entry, start] of starters) {
    const missing = notInstalled(peer, entry);
    if (missing !== undefined) {
      notRun[peer] = missing;
      continue;
    }
    try {
      peers.set(peer, await start());
    } catch (error) {
      notRun[peer] = `did not start: ${(error as Error).message.split('\n', 1)[0]}`;
    }
  }
  return { peers, notRun };
}

const PEER_PACKAGES: Record<PeerName, string> = {
  prism: '@stoplight/prism-cli',
  'json-server': 'json-server',
  mockoon: '@mockoon/cli',
};

/** The installed version of each peer (`name version`), or that it is missing. */
export async function peerVersions(): Promise<string[]> {
  return Promise.all(
    Object.entries(PEER_PACKAGES).map(async ([peer, pkg]) => {
      const file = bin(`${pkg}/package.json`);
      const version = await readFile(file, 'utf8').then(
        (text) => (JSON.parse(text) as { version: string }).version,
        () => 'not installed',
      );
      return `${peer} ${pkg}@${version}`;
    }),
  );
}

/**
 * Prism 5.15 and later need Node 24 (5.15: >= 24.14, 5.16.0: >= 24.18, their `engines`), so on Node 20
 * the newest that runs is 5.14.2: the peer row says so.
 */
export const PRISM_VERSION_NOTE =
  'prism: @stoplight/prism-cli 5.16.0 needs Node >= 24.18 (5.15.x >= 24.14): 5.14.2, the newest that runs on Node 20, is measured';
