/**
 * A throw-away `redis-server` for tests: Debian's binary on a free loopback port, in a temporary
 * directory, no persistence. `redisServerAvailable()` says whether the binary is installed.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { accessSync, constants, mkdtempSync, rmSync } from 'node:fs';
import { createServer, Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';

export interface RunningRedis {
  /** `redis://127.0.0.1:PORT/0`. */
  readonly url: string;
  readonly port: number;
  /** The server's PID (a test may pause it with SIGSTOP and resume it with SIGCONT). */
  readonly pid: number;
  /** Kills the server this harness started (by its PID) and removes its directory. */
  stop(): Promise<void>;
}

/** The redis-server binary: Debian's path, else the first on PATH; undefined when there is none. */
export function redisServerBinary(): string | undefined {
  const candidates = [
    '/usr/bin/redis-server',
    ...(process.env.PATH ?? '').split(delimiter).map((dir) => join(dir, 'redis-server')),
  ];
  return candidates.find((path) => {
    try {
      accessSync(path, constants.X_OK);
      return true;
    } catch {
      return false;
    }
  });
}

export function redisServerAvailable(): boolean {
  return redisServerBinary() !== undefined;
}

export const REDIS_SKIP_REASON =
  'redis-server not installed: Redis tests skipped; apt-get install redis-server';

/**
 * Outside CI the Redis tests are skipped only when redis-server is absent (print REDIS_SKIP_REASON); in
 * CI (`CI` set) they always run, and fail at startRedisServer when it is absent: CI must run them.
 */
export const skipRedis = !process.env.CI && !redisServerAvailable();

/** A port free at the moment of asking (the OS picks it for port 0); a clash is retried by the caller. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/**
 * The PID of the redis-server answering on the port (from INFO server), or undefined while none
 * answers: a server another process started on a port we were also given must not pass for ours.
 */
function answeringPid(port: number): Promise<number | undefined> {
  return new Promise((resolve) => {
    const socket = new Socket();
    let reply = '';
    const done = (pid: number | undefined) => {
      socket.destroy();
      resolve(pid);
    };
    socket.setTimeout(500, () => done(undefined));
    socket.once('error', () => done(undefined));
    socket.on('data', (chunk) => {
      reply += chunk.toString();
      if (reply.startsWith('-')) done(undefined);
      const pid = /\r\nprocess_id:(\d+)\r\n/.exec(reply);
      if (pid) done(Number(pid[1]));
    });
    socket.connect(port, '127.0.0.1', () => socket.write('INFO server\r\n'));
  });
}

function exited(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => child.once('exit', () => resolve()));
}

/** Starts one server on `port`; resolves undefined when it exits first (e.g. the port was taken). */
async function startOn(binary: string, port: number, dir: string): Promise<ChildProcess | undefined> {
  const args = [
    '--port',
    String(port),
    '--bind',
    '127.0.0.1',
    '--save',
    '',
    '--appendonly',
    'no',
    '--dir',
    dir,
  ];
  const child = spawn(binary, args, { stdio: 'ignore' });
  const gone = exited(child).then(() => 'exited' as const);
  for (let waited = 0; waited < 10_000; waited += 50) {
    if ((await Promise.race([gone, answeringPid(port)])) === child.pid) return child;
    if (child.exitCode !== null || child.signalCode !== null) return undefined;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  child.kill('SIGKILL');
  throw new Error(`redis-server on port ${port} did not answer within 10 s`);
}

/**
 * Starts redis-server on a free loopback port in a temporary directory and waits until it answers;
 * retries on a port clash.
 */
export async function startRedisServer(): Promise<RunningRedis> {
  const binary = redisServerBinary();
  if (binary === undefined)
    throw new Error(
      'redis-server not installed, and the Redis tests must run here (CI): apt-get install redis-server',
    );
  const dir = mkdtempSync(join(tmpdir(), 'ofkit-redis-'));
  for (let attempt = 0; attempt < 5; attempt++) {
    const port = await freePort();
    const child = await startOn(binary, port, dir);
    if (!child) continue;
    const stop = async () => {
      if (child.pid !== undefined && child.exitCode === null) process.kill(child.pid, 'SIGTERM');
      await exited(child);
      rmSync(dir, { recursive: true, force: true });
    };
    return { url: `redis://127.0.0.1:${port}/0`, port, pid: child.pid!, stop };
  }
  rmSync(dir, { recursive: true, force: true });
  throw new Error('redis-server could not start on a free port in 5 attempts');
}
