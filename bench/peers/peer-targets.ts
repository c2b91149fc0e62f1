/**
 * The peers as bench targets: their files written from the simulator's page (the same 100 records),
 * each started, probed once at its own path, and left out with the reason when it fails.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type BenchTarget, benchTarget, probeAll } from '../load/bench-target.js';
import type { Probe } from '../load/run-load.js';
import type { Scenario } from '../load/scenarios.js';
import { PEER_PATHS, recordsOfPage, writePeerFiles } from './peer-files.js';
import { freePort, PRISM_VERSION_NOTE, peerVersions, startPeers } from './start-peers.js';

export interface PeerTargets {
  targets: BenchTarget[];
  probes: Map<string, Probe>;
  /** Peer -> why it is not in this run. */
  notRun: Record<string, string>;
  notes: string[];
  /** Stops the peers and removes their files. */
  stop(): Promise<void>;
}

export async function startPeerTargets(pageBody: string, page: Scenario): Promise<PeerTargets> {
  const folder = await mkdtemp(join(tmpdir(), 'ofkit-bench-peers-'));
  const mockoonPort = await freePort();
  const files = await writePeerFiles(folder, recordsOfPage(pageBody), mockoonPort);
  const { peers, notRun } = await startPeers(files, mockoonPort);
  const stop = async () => {
    await Promise.all([...peers.values()].map((peer) => peer.stop()));
    await rm(folder, { recursive: true, force: true });
  };
  const targets: BenchTarget[] = [];
  const probes = new Map<string, Probe>();
  for (const [name, child] of peers) {
    const target = benchTarget(name, [child], [{ ...page, path: PEER_PATHS[name], headers: {} }]);
    try {
      for (const [key, answer] of await probeAll(target)) probes.set(key, answer);
      targets.push(target);
    } catch (error) {
      notRun[name] = (error as Error).message.split('\n', 1)[0] ?? 'its probe failed';
      await child.stop();
    }
  }
  const notes = [
    `peers: ${(await peerVersions()).join(', ')}; each serves the simulator's first page's 100 records from its own store (prism: the example of a one-operation document; json-server: a collection; mockoon: a data bucket behind a CRUD route), at ${Object.entries(
      PEER_PATHS,
    )
      .map(([peer, path]) => `${peer} ${path}`)
      .join(', ')}`,
    PRISM_VERSION_NOTE,
    'mockoon logs every request to its stdout (it has no switch to silence it; its log file is off); prism runs with -v silent; json-server with its logger off',
    ...Object.entries(notRun).map(([peer, reason]) => `${peer} NOT RUN: ${reason}`),
  ];
  return { targets, probes, notRun, notes, stop };
}
