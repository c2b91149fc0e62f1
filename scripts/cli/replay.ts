/**
 * `ofkit replay <recording.har...> [--target URL] [--keys id:secret] [--source-key ID]`: the records a
 * recording holds become the state of one tenant of an ofkit simulator (its control API's snapshot
 * import), with their recorded ids and values; without --target a simulator is started and served
 * with them until Ctrl-C. Exit 2 when it cannot run.
 */
import { parseArgs } from 'node:util';
import { loadBridgeDocument } from '../../bridge/src/document/bridge-document.js';
import { describePlan, importPlan, planReplay } from '../../bridge/src/replay/replay-recordings.js';
import { parseAllowedHost, parsePublicUrl } from '../../openapi/security/host-check.js';
import { printableKey } from '../../openapi/security/published-keys.js';
import { DEFAULT_KEYS } from '../../simulator/src/config/simulator-config.js';
import { startSimulator } from '../../simulator/src/start-simulator.js';
import { type Command, parseBaseUrl, parseKey, parsePort, runGuarded, UsageError } from './command-line.js';
import { stopped } from './record.js';

const USAGE = `Usage: ofkit replay <recording.har...> [options]

Turns the records a recording holds (links, accounts, owners, transactions, invoices, tax and employment
records, payments objects...) into the state of one tenant of an ofkit simulator, with their recorded ids
and values, through the control API's snapshot import: the stateful simulator then serves that data with
every rule on top (pagination, filters, MFA, cooldowns, webhooks, payment schedules, the clock). Records the
document rejects are listed with the reason, not imported.

Options:
  --target URL          an ofkit simulator to load (default: start one here and serve it until Ctrl-C)
  --keys id:secret      the tenant to load (default ${DEFAULT_KEYS[0]!.secretId}:${DEFAULT_KEYS[0]!.secretPassword}, the simulator's first key)
  --source-key ID       the recorded key whose records to replay, when the recordings hold several
                        (a redacted recording names its keys by their pseudonyms)
  --frozen              freeze the replayed clock at the recording's last instant (default: it follows
                        real time from there)
  --port N, --host H    where the started simulator listens (default 4010, 127.0.0.1); beyond loopback
                        the published default key is refused: give --keys, or --allow-default-keys
  --allow-default-keys  listen beyond loopback with the published default key anyway
  --allowed-host NAME   a Host name the started simulator answers besides localhost and IP addresses
                        (repeatable; .example.com for a domain and its subdomains)
  --public-url URL      the URL clients reach the started simulator at (a reverse proxy)
  --seed S              the started simulator's seed (default ofkit)
  -h, --help            this text

Exit code: 0 replayed, 2 could not run (or the recordings hold no record to replay).`;

function parse(argv: string[]) {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    strict: true,
    options: {
      target: { type: 'string' },
      keys: { type: 'string' },
      'source-key': { type: 'string' },
      frozen: { type: 'boolean' },
      port: { type: 'string', default: '4010' },
      host: { type: 'string', default: '127.0.0.1' },
      seed: { type: 'string', default: 'ofkit' },
      'allow-default-keys': { type: 'boolean' },
      'allowed-host': { type: 'string', multiple: true },
      'public-url': { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) return { help: true as const };
  if (positionals.length === 0) throw new UsageError('give one or more HAR files');
  return {
    help: false as const,
    files: positionals,
    target: values.target === undefined ? undefined : parseBaseUrl(values.target, '--target'),
    key: values.keys === undefined ? DEFAULT_KEYS[0]! : parseKey(values.keys),
    sourceKey: values['source-key'],
    frozen: values.frozen === true,
    port: parsePort(values.port),
    host: values.host,
    seed: values.seed,
    exposure: {
      allowDefaultKeys: values['allow-default-keys'] === true,
      allowedHosts: (values['allowed-host'] ?? []).map(parseAllowedHost),
      ...(values['public-url'] !== undefined && { publicUrl: parsePublicUrl(values['public-url']) }),
    },
  };
}

export interface ReplayRunOptions {
  signal?: AbortSignal;
  print?: (line: string) => void;
  onListening?: (url: string) => void;
}

/** `ofkit replay ...`; resolves with the exit code (after Ctrl-C when it serves its own simulator). */
export function replay(argv: string[], options: ReplayRunOptions = {}): Promise<number> {
  const print = options.print ?? ((line: string) => console.log(line));
  return runGuarded('replay', async () => {
    const args = parse(argv);
    if (args.help) {
      print(USAGE);
      return 0;
    }
    const plan = await planReplay({
      document: loadBridgeDocument(),
      files: args.files,
      ...(args.sourceKey !== undefined && { sourceKey: args.sourceKey }),
      frozen: args.frozen,
    });
    if (args.target !== undefined) {
      await importPlan(plan, args.target, args.key);
      for (const line of describePlan(plan, `${args.target} (tenant ${args.key.secretId})`)) print(line);
      return 0;
    }
    const keys = [{ ...args.key, environment: 'production' as const }];
    const simulator = await startSimulator({
      port: args.port,
      host: args.host,
      seed: args.seed,
      keys,
      ...args.exposure,
      onWarning: (message) => print(`WARNING: ${message}`),
    });
    try {
      await importPlan(plan, simulator.url, args.key);
      // A secret given with --keys is never printed: only the published default is.
      print(
        `ofkit replay: simulator listening on ${simulator.url} (seed ${args.seed}); key ${printableKey(args.key)}`,
      );
      for (const line of describePlan(plan, `tenant ${args.key.secretId}`)) print(line);
      options.onListening?.(simulator.url);
      await stopped(options.signal);
    } finally {
      await simulator.close();
    }
    return 0;
  });
}

/** The command's run, in main.ts's command table. */
export const replayCommand: Command['run'] = (argv) => replay(argv);
