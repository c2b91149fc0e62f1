/**
 * `ofkit proxy <base-url> [--port N] [--host H] [--verbose]`: Prism's validation proxy with this
 * document in front of any implementation. Requests and responses that break the document are answered
 * with Prism's violation report (errors mode) and logged; the rest pass through unchanged, except that
 * absolute URLs to the implementation in JSON bodies (`next`, `previous`) are rewritten to the proxy's
 * address by a forwarding layer in front of Prism (rewriting-forwarder.ts), so a client following them
 * stays behind the proxy. Prism's output is forwarded; SIGINT and SIGTERM stop it cleanly.
 */
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { createConnection, createServer } from 'node:net';
import { dirname, join, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { parseArgs } from 'node:util';
import { type Command, parseBaseUrl, parsePort, runGuarded, unreachable } from './command-line.js';
import { startRewritingForwarder } from './rewriting-forwarder.js';

const DOCUMENT = resolve(import.meta.dirname, '../../openapi/generated/openapi.json');
/** Not 4010, which the simulator takes by default: both can run side by side. */
export const DEFAULT_PROXY_PORT = 4020;

const USAGE = `Usage: ofkit proxy <base-url> [--port ${DEFAULT_PROXY_PORT}] [--host 127.0.0.1] [--verbose]

Runs Prism's validation proxy (@stoplight/prism-cli, errors mode) with openapi/generated/openapi.json in front
of <base-url>. Point a client at http://<host>:<port>: answers that keep the document pass through unchanged;
a request or response that breaks it is answered with Prism's violation report (application/problem+json,
header sl-violations) and logged. Absolute URLs to <base-url> in JSON bodies (a page's next and previous)
are rewritten to the proxy's address, so a client following them stays behind the proxy. --verbose logs every request too. Stop with Ctrl-C.`;

export interface ProxyOptions {
  /** Stops the proxy (tests); the command line uses SIGINT and SIGTERM. */
  signal?: AbortSignal;
  /** Where Prism's output goes (default: inherited). */
  stdio?: 'inherit' | 'pipe' | 'ignore';
}

function prismBin(): string {
  const require = createRequire(import.meta.url);
  return join(dirname(require.resolve('@stoplight/prism-cli/package.json')), 'dist/index.js');
}

function parse(argv: string[]) {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    strict: true,
    options: {
      port: { type: 'string', short: 'p', default: String(DEFAULT_PROXY_PORT) },
      host: { type: 'string', default: '127.0.0.1' },
      verbose: { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  const port = parsePort(values.port);
  return {
    baseUrl: values.help ? '' : parseBaseUrl(positionals[0], 'base URL to proxy'),
    port,
    host: values.host,
    verbose: values.verbose === true,
    help: values.help === true,
  };
}

/** `ofkit proxy ...`; resolves with the exit code once the proxy stops. */
export function proxy(argv: string[], options: ProxyOptions = {}): Promise<number> {
  return runGuarded('proxy', async () => {
    const args = parse(argv);
    if (args.help) {
      console.log(USAGE);
      return 0;
    }
    const nothing = await unreachable(args.baseUrl);
    if (nothing) {
      console.error(`ofkit proxy: ${nothing}`);
      return 2;
    }
    return runPrism(args, options);
  });
}

/** A port nothing listens on now, for Prism behind the forwarder (loopback only). */
async function freeLoopbackPort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((done) => probe.listen(0, '127.0.0.1', done));
  const address = probe.address();
  await new Promise((done) => probe.close(done));
  return typeof address === 'object' && address !== null ? address.port : 0;
}

function accepts(port: number): Promise<boolean> {
  return new Promise((done) => {
    const socket = createConnection({ port, host: '127.0.0.1' });
    socket.once('connect', () => {
      socket.destroy();
      done(true);
    });
    socket.once('error', () => done(false));
  });
}

/** Resolves once Prism accepts connections on `port`; rejects if it exits first. */
async function prismReady(port: number, exited: { code?: number | null }): Promise<void> {
  while (exited.code === undefined) {
    if (await accepts(port)) return;
    await sleep(100);
  }
  throw new Error(`it exited with code ${exited.code}`);
}

async function runPrism(args: ReturnType<typeof parse>, options: ProxyOptions): Promise<number> {
  // Listen first: a busy --port is one line (runGuarded) before Prism is started at all.
  const prismPort = await freeLoopbackPort();
  const exited: { code?: number | null } = {};
  let markReady: (ready: Promise<void>) => void = () => undefined;
  const ready = new Promise<void>((done) => {
    markReady = done;
  });
  const forwarder = await startRewritingForwarder(
    { prismUrl: `http://127.0.0.1:${prismPort}`, upstreamBaseUrl: args.baseUrl, ready },
    args.port,
    args.host,
  );
  const prismArgs = [prismBin(), 'proxy', DOCUMENT, args.baseUrl, '-p', String(prismPort), '-h', '127.0.0.1'];
  prismArgs.push('--errors', '--multiprocess=false', '-v', args.verbose ? 'info' : 'warn');
  const child = spawn(process.execPath, prismArgs, { stdio: options.stdio ?? 'inherit' });
  child.once('exit', (code) => {
    exited.code = code;
  });
  markReady(prismReady(prismPort, exited));
  ready.then(
    () => {
      if (options.stdio === 'ignore') return;
      // Prism's own "listening" line names its port behind the forwarder; this is the one to use.
      const { port } = forwarder.address() as { port: number };
      console.log(`ofkit proxy: listening on http://${args.host}:${port} (in front of ${args.baseUrl})`);
    },
    () => undefined, // requests meanwhile get a 502; the exit code says the rest
  );
  let stopping = false;
  const stop = (signal: NodeJS.Signals) => {
    stopping = true;
    child.kill(signal);
  };
  const onSigint = () => stop('SIGINT');
  const onSigterm = () => stop('SIGTERM');
  const onAbort = () => stop('SIGTERM');
  process.once('SIGINT', onSigint);
  process.once('SIGTERM', onSigterm);
  options.signal?.addEventListener('abort', onAbort, { once: true });
  return new Promise((done) => {
    child.once('exit', (code) => {
      forwarder.closeAllConnections();
      forwarder.close();
      process.off('SIGINT', onSigint);
      process.off('SIGTERM', onSigterm);
      options.signal?.removeEventListener('abort', onAbort);
      done(stopping ? 0 : (code ?? 1));
    });
  });
}

/** The command's run, in main.ts's command table. */
export const proxyCommand: Command['run'] = (argv) => proxy(argv);
