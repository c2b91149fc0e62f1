/**
 * `ofkit proxy <base-url> [--port N] [--host H] [--verbose]`: Prism's validation proxy with this
 * document in front of any implementation. Requests and responses that break the document are answered
 * with Prism's violation report (errors mode) and logged; the rest pass through unchanged. Prism's output
 * is forwarded; SIGINT and SIGTERM stop it cleanly.
 */
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { type Command, parseBaseUrl, parsePort, runGuarded, unreachable } from './command-line.js';

const DOCUMENT = resolve(import.meta.dirname, '../../openapi/generated/openapi.json');
/** Not 4010, which the simulator takes by default: both can run side by side. */
export const DEFAULT_PROXY_PORT = 4020;

const USAGE = `Usage: ofkit proxy <base-url> [--port ${DEFAULT_PROXY_PORT}] [--host 127.0.0.1] [--verbose]

Runs Prism's validation proxy (@stoplight/prism-cli, errors mode) with openapi/generated/openapi.json in front
of <base-url>. Point a client at http://<host>:<port>: answers that keep the document pass through unchanged;
a request or response that breaks it is answered with Prism's violation report (application/problem+json,
header sl-violations) and logged. --verbose logs every request too. Stop with Ctrl-C.`;

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

function runPrism(args: ReturnType<typeof parse>, options: ProxyOptions): Promise<number> {
  const prismArgs = [prismBin(), 'proxy', DOCUMENT, args.baseUrl, '-p', String(args.port), '-h', args.host];
  prismArgs.push('--errors', '--multiprocess=false', '-v', args.verbose ? 'info' : 'warn');
  const child = spawn(process.execPath, prismArgs, { stdio: options.stdio ?? 'inherit' });
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
      process.off('SIGINT', onSigint);
      process.off('SIGTERM', onSigterm);
      options.signal?.removeEventListener('abort', onAbort);
      done(stopping ? 0 : (code ?? 1));
    });
  });
}

/** The command's run, in main.ts's command table. */
export const proxyCommand: Command['run'] = (argv) => proxy(argv);
