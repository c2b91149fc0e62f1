/**
 * Redis over TLS for the store's tests: a self-signed certificate made with openssl (for localhost and
 * 127.0.0.1), one redis-server with TLS only, and a Redis Cluster of three masters with TLS only (its
 * bus too) and a password. Free loopback ports, one temporary directory, each process stopped by its
 * own PID. A client trusts the certificate through NODE_EXTRA_CA_CERTS, as a user would a private CA.
 */
import { type ChildProcess, execFile, spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { freePort, redisServerBinary } from './redis-server.js';

const run = promisify(execFile);

/** Whether openssl (to make the certificate) and redis-cli (to join the cluster) are installed. */
export const tlsToolsAvailable = () =>
  spawnSync('openssl', ['version']).status === 0 && spawnSync('redis-cli', ['--version']).status === 0;

export interface TlsRedis {
  /** `rediss://...` or `rediss+cluster://...`, with the password when there is one. */
  readonly url: string;
  /** The certificate to trust (NODE_EXTRA_CA_CERTS). */
  readonly ca: string;
  stop(): Promise<void>;
}

/**
 * A self-signed certificate (its own CA) in `dir`, for the names and addresses of `subjectAltName`
 * (`DNS:localhost,IP:127.0.0.1`); trusted through NODE_EXTRA_CA_CERTS=cert.
 */
export async function selfSignedCertificate(
  dir: string,
  subjectAltName = 'DNS:localhost,IP:127.0.0.1',
): Promise<{ cert: string; key: string }> {
  const cert = join(dir, 'cert.pem');
  const key = join(dir, 'key.pem');
  await run('openssl', [
    'req',
    '-x509',
    '-newkey',
    'rsa:2048',
    '-nodes',
    '-days',
    '2',
    '-subj',
    '/CN=localhost',
    '-addext',
    `subjectAltName=${subjectAltName}`,
    '-keyout',
    key,
    '-out',
    cert,
  ]);
  return { cert, key };
}

function tlsArgs(port: number, home: string, files: { cert: string; key: string }, password?: string) {
  const args = [
    '--port',
    '0',
    '--tls-port',
    String(port),
    '--bind',
    '127.0.0.1',
    '--save',
    '',
    '--appendonly',
    'no',
  ];
  args.push('--dir', home, '--tls-cert-file', files.cert, '--tls-key-file', files.key);
  args.push('--tls-ca-cert-file', files.cert, '--tls-auth-clients', 'no');
  if (password) args.push('--requirepass', password, '--masterauth', password);
  return args;
}

const cliArgs = (ca: string, password?: string) => [
  '--tls',
  '--cacert',
  ca,
  ...(password ? ['-a', password] : []),
];

async function waitForPing(port: number, ca: string, password?: string): Promise<void> {
  for (let waited = 0; waited < 20_000; waited += 100) {
    const answer = await run('redis-cli', [...cliArgs(ca, password), '-p', String(port), 'PING'])
      .then(({ stdout }) => stdout.trim())
      .catch(() => '');
    if (answer === 'PONG') return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`redis-server with TLS on ${port} did not answer within 20 s`);
}

function stopper(children: ChildProcess[], dir: string) {
  return async () => {
    await Promise.all(
      children.map(
        (child) =>
          new Promise<void>((resolve) => {
            if (child.exitCode !== null || child.signalCode !== null) return resolve();
            child.once('exit', () => resolve());
            if (child.pid !== undefined) process.kill(child.pid, 'SIGKILL');
          }),
      ),
    );
    rmSync(dir, { recursive: true, force: true });
  };
}

/** One redis-server listening with TLS only. */
export async function startTlsRedis(password?: string): Promise<TlsRedis> {
  const binary = redisServerBinary()!;
  const dir = mkdtempSync(join(tmpdir(), 'ofkit-redis-tls-'));
  const files = await selfSignedCertificate(dir);
  const port = await freePort();
  const child = spawn(binary, tlsArgs(port, dir, files, password), { stdio: 'ignore' });
  const stop = stopper([child], dir);
  try {
    await waitForPing(port, files.cert, password);
  } catch (error) {
    await stop();
    throw error;
  }
  const auth = password ? `:${encodeURIComponent(password)}@` : '';
  return { url: `rediss://${auth}127.0.0.1:${port}/0`, ca: files.cert, stop };
}

/** Three masters with TLS only (clients and bus) and a password, joined into a cluster. */
export async function startTlsCluster(password: string): Promise<TlsRedis> {
  const binary = redisServerBinary()!;
  const dir = mkdtempSync(join(tmpdir(), 'ofkit-redis-tls-cluster-'));
  const files = await selfSignedCertificate(dir);
  const children: ChildProcess[] = [];
  const stop = stopper(children, dir);
  try {
    const ports: number[] = [];
    for (let n = 0; n < 3; n++) {
      const port = await freePort();
      const home = join(dir, String(port));
      mkdirSync(home);
      const args = [
        ...tlsArgs(port, home, files, password),
        '--cluster-enabled',
        'yes',
        '--tls-cluster',
        'yes',
      ];
      children.push(spawn(binary, args, { stdio: 'ignore' }));
      ports.push(port);
    }
    for (const port of ports) await waitForPing(port, files.cert, password);
    const addresses = ports.map((port) => `127.0.0.1:${port}`);
    await run('redis-cli', [
      ...cliArgs(files.cert, password),
      '--cluster',
      'create',
      ...addresses,
      '--cluster-yes',
    ]);
    for (const port of ports)
      for (let waited = 0; ; waited += 100) {
        const { stdout } = await run('redis-cli', [
          ...cliArgs(files.cert, password),
          '-p',
          String(port),
          'CLUSTER',
          'INFO',
        ]);
        if (stdout.includes('cluster_state:ok')) break;
        if (waited > 20_000) throw new Error(`TLS cluster node ${port} was not ok within 20 s`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    return {
      url: `rediss+cluster://:${encodeURIComponent(password)}@${addresses.join(',')}`,
      ca: files.cert,
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}
