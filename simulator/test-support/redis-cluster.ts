/**
 * A throw-away Redis Cluster for tests: three masters and a replica of each, Debian's redis-server on
 * free loopback ports (cluster bus ports too) in one temporary directory, joined by `redis-cli --cluster
 * create`. Every process is stopped by its own PID. The redis lane starts one for all its files
 * (redis-lane.ts); a file attaches to it with `attachRedisCluster(inject('redisCluster'))`.
 */
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { createClient } from 'redis';
import { redisServerBinary } from './redis-server.js';

const run = promisify(execFile);

export interface ClusterNode {
  readonly port: number;
  readonly pid: number;
}

/** What a test file needs to use a cluster another process started: its URL and its nodes. */
export interface ClusterAddress {
  url: string;
  nodes: readonly ClusterNode[];
}

export interface RunningCluster extends ClusterAddress {
  /** `redis+cluster://127.0.0.1:P1,127.0.0.1:P2,127.0.0.1:P3` (the masters at start). */
  readonly url: string;
  /** Resolves once every replica has every write its master has (replication is asynchronous). */
  replicated(): Promise<void>;
  /** Kills (SIGKILL) the master serving `key`; resolves once its replica has taken its slots over. */
  failMasterOf(key: string): Promise<{ killed: number; promoted: number }>;
  /** Stops every node (a no-op for an attached cluster: its owner stops it). */
  stop(): Promise<void>;
}

/** A port free at the moment of asking, whose cluster bus port (+10000) is free too. */
async function freePortPair(): Promise<number> {
  for (;;) {
    const port = await listenAndClose(0);
    if (port + 10_000 > 65_535) continue;
    if ((await listenAndClose(port + 10_000).catch(() => undefined)) !== undefined) return port;
  }
}

function listenAndClose(port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => {
      const { port: bound } = server.address() as { port: number };
      server.close(() => resolve(bound));
    });
  });
}

/** One node's answer to a command, or undefined while it does not answer. */
async function ask(port: number, args: string[]): Promise<string | undefined> {
  const client = createClient({ url: `redis://127.0.0.1:${port}`, socket: { reconnectStrategy: false } });
  client.on('error', () => {});
  try {
    await client.connect();
    return String(await client.sendCommand(args));
  } catch {
    return undefined;
  } finally {
    if (client.isOpen) client.destroy();
  }
}

async function waitFor(what: string, check: () => Promise<boolean>, ms = 20_000): Promise<void> {
  for (let waited = 0; waited < ms; waited += 100) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`Redis Cluster: ${what} within ${ms / 1000} s`);
}

function startNode(binary: string, dir: string, port: number): ChildProcess {
  const home = join(dir, String(port));
  mkdirSync(home);
  // A short node time-out: a failed master is replaced within a couple of seconds.
  const args = ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'];
  args.push('--dir', home, '--cluster-enabled', 'yes', '--cluster-node-timeout', '1000');
  args.push('--cluster-port', String(port + 10_000), '--logfile', join(home, 'log'));
  return spawn(binary, args, { stdio: 'ignore' });
}

const NODE_TRIES = 5;

/**
 * One node answering PING. A port found free can be taken before redis-server binds it (an outgoing
 * connection of another process gets it, or its bus port): the node then exits at once, and starts
 * again on other ports. A node that never answers fails with the end of its log.
 */
async function startAnsweringNode(
  binary: string,
  dir: string,
  children: ChildProcess[],
): Promise<ClusterNode> {
  let lastLog = '';
  for (let tries = 0; tries < NODE_TRIES; tries++) {
    const port = await freePortPair();
    const child = startNode(binary, dir, port);
    children.push(child);
    const exited = () => child.exitCode !== null || child.signalCode !== null;
    try {
      await waitFor(`node ${port} did not answer`, async () =>
        exited() ? true : (await ask(port, ['PING'])) === 'PONG',
      );
    } catch (error) {
      throw new Error(`${(error as Error).message}; its log: ${logTail(dir, port)}`);
    }
    if (!exited()) return { port, pid: child.pid as number };
    lastLog = logTail(dir, port);
  }
  throw new Error(`Redis Cluster: no node started in ${NODE_TRIES} tries; the last one's log: ${lastLog}`);
}

function logTail(dir: string, port: number): string {
  try {
    return readFileSync(join(dir, String(port), 'log'), 'utf8')
      .trim()
      .split('\n')
      .slice(-3)
      .join(' | ');
  } catch {
    return 'none';
  }
}

const slotOwner = async (port: number, key: string) => {
  const slot = await ask(port, ['CLUSTER', 'KEYSLOT', key]);
  const nodes = (await ask(port, ['CLUSTER', 'NODES'])) ?? '';
  for (const line of nodes.split('\n')) {
    const [, address, flags, , , , , state, ...ranges] = line.split(' ');
    if (!flags?.includes('master') || flags.includes('fail') || state !== 'connected') continue;
    const owns = ranges.some((range) => {
      const [from, to = from] = range.split('-').map(Number);
      return Number(slot) >= (from ?? 0) && Number(slot) <= (to ?? -1);
    });
    if (owns) return Number(address?.split(':')[1]?.split('@')[0]);
  }
  return undefined;
};

/** Starts six nodes (three masters, three replicas) and waits until the cluster is ok on each. */
export async function startRedisCluster(): Promise<RunningCluster> {
  const binary = redisServerBinary();
  if (binary === undefined) throw new Error('redis-server not installed: apt-get install redis-server');
  const dir = mkdtempSync(join(tmpdir(), 'ofkit-redis-cluster-'));
  const children: ChildProcess[] = [];
  const stop = async () => {
    await Promise.all(
      children.map(
        (child) =>
          new Promise<void>((resolve) => {
            if (child.exitCode !== null || child.signalCode !== null) return resolve();
            child.once('exit', () => resolve());
            child.kill('SIGKILL');
          }),
      ),
    );
    rmSync(dir, { recursive: true, force: true });
  };
  const nodes: ClusterNode[] = [];
  try {
    for (let n = 0; n < 6; n++) nodes.push(await startAnsweringNode(binary, dir, children));
    const addresses = nodes.map(({ port }) => `127.0.0.1:${port}`);
    await run('redis-cli', ['--cluster', 'create', ...addresses, '--cluster-replicas', '1', '--cluster-yes']);
    for (const { port } of nodes)
      await waitFor('the cluster was not ok', async () =>
        Boolean((await ask(port, ['CLUSTER', 'INFO']))?.includes('cluster_state:ok')),
      );
    // A replica that never synced would not take its master over: wait until each one has.
    for (const { port } of nodes)
      await waitFor(`replica ${port} did not sync`, async () => {
        const replication = (await ask(port, ['INFO', 'replication'])) ?? '';
        return replication.includes('role:master') || replication.includes('master_link_status:up');
      });
  } catch (error) {
    await stop();
    throw error;
  }
  const masters = nodes.slice(0, 3).map(({ port }) => `127.0.0.1:${port}`);
  return { ...operate({ url: `redis+cluster://${masters.join(',')}`, nodes }), stop };
}

/** A cluster another process started (the redis lane's), used and failed over from this one. */
export function attachRedisCluster(address: ClusterAddress): RunningCluster {
  return { ...operate(address), stop: async () => {} };
}

/** The operations on a cluster's nodes, by their ports and PIDs. */
function operate(address: ClusterAddress): Omit<RunningCluster, 'stop'> {
  const { nodes } = address;
  const killed = new Set<number>();
  return {
    ...address,
    async replicated() {
      for (const { port } of nodes) {
        if (killed.has(port)) continue;
        await waitFor(`the replicas of ${port} did not catch up`, async () => {
          const info = (await ask(port, ['INFO', 'replication'])) ?? '';
          if (!info.includes('role:master')) return true;
          const master = Number(/master_repl_offset:(\d+)/.exec(info)?.[1]);
          const offsets = [...info.matchAll(/slave\d+:[^\r\n]*offset=(\d+)/g)].map((m) => Number(m[1]));
          return offsets.length > 0 && offsets.every((offset) => offset >= master);
        });
      }
    },
    async failMasterOf(key) {
      const alive = nodes.filter(({ port }) => !killed.has(port));
      const victim = (await slotOwner(alive[0]!.port, key))!;
      const node = nodes.find(({ port }) => port === victim)!;
      process.kill(node.pid, 'SIGKILL');
      killed.add(victim);
      const survivors = alive.filter(({ port }) => port !== victim).map(({ port }) => port);
      let promoted: number | undefined;
      // Every node that is left must see the cluster whole again: each converges on its own, and one
      // still answering CLUSTERDOWN fails the next command sent to it.
      await waitFor('no replica took the failed master over', async () => {
        promoted = await slotOwner(survivors[0]!, key);
        if (promoted === undefined || promoted === victim) return false;
        const states = await Promise.all(survivors.map((port) => ask(port, ['CLUSTER', 'INFO'])));
        return states.every((state) => state?.includes('cluster_state:ok'));
      });
      return { killed: victim, promoted: promoted! };
    },
  };
}
