/**
 * `ofkit simulate [options]`: the stateful simulator on a socket until SIGINT or SIGTERM. `ofkit exec`
 * starts it the same way (`startFromConfig`) around a command of the user's.
 */

import { importWithPeers } from '../../openapi/config/optional-peers.js';
import { printableUrl } from '../../openapi/security/masked-values.js';
import { isPublishedKey, printableKey } from '../../openapi/security/published-keys.js';
import { shellQuote } from '../../openapi/security/shell-quote.js';
import {
  BREAKS_HELP,
  DEFAULT_KEYS,
  parseSimulatorConfig,
  SIMULATE_USAGE,
  type SimulatorConfig,
} from '../../simulator/src/config/simulator-config.js';
import { applyStartSwitches, finishJudge, type JudgeOutcome } from '../../simulator/src/judge/judge-cli.js';
import { type StartedSimulator, startSimulator } from '../../simulator/src/start-simulator.js';
import { redisUrlWarnings } from '../../simulator/src/store/redis-url.js';
import type { Store } from '../../simulator/src/store/store.js';
import { type Command, ConfigError, runGuarded, UsageError } from './command-line.js';
import { checkReportPaths } from './report-path.js';
import { createWebhookLog, type WebhookLog } from './webhook-log.js';

/** A simulator the command line started: its webhook lines' summary goes out at shutdown. */
export interface CommandLineSimulator extends StartedSimulator {
  readonly webhookLog: WebhookLog;
}

function webhookLine(config: SimulatorConfig): string {
  const { delivery_delay_seconds: delay, delivery_order: order } = config.webhookDelivery;
  const held =
    delay === 0
      ? ''
      : `; each delivery held back ${delay} s${order === 'interleaved' ? ', interleaved' : ''}`;
  if (config.webhook === null) {
    return `webhooks: no receiver (events are only logged; PUT /_ofkit/webhooks/ or --webhook-url to deliver)${held}`;
  }
  const bearer = config.webhook.bearer_token === null ? '' : ' with a bearer token';
  return `webhooks: every tenant delivers to ${printableUrl(config.webhook.url)}${bearer} (event log: GET /_ofkit/events/)${held}`;
}

/** The start-up output names every operation no stateful handler serves, so coverage is visible. */
function fallbackLines(config: SimulatorConfig, simulator: StartedSimulator['simulator']): string[] {
  const { unservedOperations: unserved, documentOperations: theirs } = simulator;
  const lines = [
    unserved.length === 0
      ? 'every operation of the bundled document is stateful (a handler serves each one)'
      : `no stateful handler: ${unserved.length} operations:\n  ${unserved.join(', ')}`,
  ];
  if (config.document === null) return lines;
  if (theirs.length === 0)
    lines.push(`--document ${config.document}: no operation the bundled document lacks`);
  else
    lines.push(
      `--document ${config.document}: ${theirs.length} operations the bundled document lacks, answered by Prism from its examples (no state, no rules):\n  ${theirs.join(', ')}`,
    );
  return lines;
}

/** A first curl line: with the key when it is a published default, else reading the secret from a variable. */
function tryLine(key: StartedSimulator['keys'][number] | undefined, url: string): string {
  if (key === undefined) return `try: curl ${url}/api/institutions/`;
  if (isPublishedKey(key))
    return `try: curl -u ${shellQuote(`${key.secretId}:${key.secretPassword}`)} ${url}/api/institutions/`;
  return `try: curl -u ${shellQuote(`${key.secretId}:`)}"$OFKIT_SECRET" ${url}/api/institutions/   (set OFKIT_SECRET to ${key.secretId}'s secret)`;
}

/** Which Host names the simulator answers (DNS rebinding is refused for the others). */
function hostsLine(config: SimulatorConfig): string {
  if (config.allowedHosts.includes('all')) return 'hosts: any (--allowed-host all: the Host check is off)';
  const named = [...config.allowedHosts, ...(config.publicUrl ? [new URL(config.publicUrl).hostname] : [])];
  return `hosts: localhost, *.localhost, IP addresses${named.length > 0 ? `, ${named.join(', ')}` : ''} (others get 421; --allowed-host NAME adds one)`;
}

function storeLine(config: SimulatorConfig): string {
  if (config.store.kind === 'memory')
    return 'store: memory (this process only; --store redis://HOST:PORT/DB or redis+cluster://... to share)';
  return `store: ${printableUrl(config.store.url)} (shared by every simulator started on it)`;
}

/** The store `--store` names, connected; a RedisStoreError (exit code 2) when Redis cannot be reached. */
async function openStore(
  choice: SimulatorConfig['store'],
  print: (line: string) => void,
): Promise<{ store?: Store; close(): Promise<void> }> {
  if (choice.kind === 'memory') return { close: async () => {} };
  // node-redis loads only for a Redis store: `ofkit simulate`'s default start stays as fast as before.
  const { RedisStore } = await importWithPeers(
    () => import('../../simulator/src/store/redis-store.js'),
    ['redis'],
    'ofkit simulate --store redis://',
  );
  // Beyond loopback, Redis wants a password and TLS: said at start, before anything is stored there.
  for (const warning of redisUrlWarnings(choice.url)) print(`WARNING: ${warning}`);
  const store = new RedisStore({ url: choice.url, onError: (error) => print(error.message) });
  await store.connect();
  return { store, close: () => store.close() };
}

function startLines(config: SimulatorConfig, started: StartedSimulator): string {
  const { url, keys, simulator } = started;
  return [
    `ofkit simulator (API 1.223.0, ${config.environment}) listening on ${url}`,
    `seed: ${config.seed}   (replay with --seed ${config.seed})`,
    // A secret given with --keys is never printed: only the published defaults are.
    `keys (tenants): ${keys.map(printableKey).join('  ')}`,
    tryLine(keys[0], url),
    'scenario triggers: username starting with "mfa" -> 428 (resume with token 123456); password "wrong-password" -> 400',
    `control API: ${url}/_ofkit/ (openapi/admin.yaml)`,
    `dashboard: ${url}/_ofkit/ui/`,
    hostsLine(config),
    storeLine(config),
    webhookLine(config),
    ...(config.storm
      ? ['forward-compatibility storm: on for every tenant (answers marked x-ofkit-storm)']
      : []),
    ...(config.recurrentLife === null
      ? []
      : [
          `recurrent life: every recurrent link registered lives ${config.recurrentLife} days on its tenant's clock (GET /_ofkit/recurrent-lives/)`,
        ]),
    config.judgeEnabled
      ? `client judge: ${url}/_ofkit/judge/ (request log: ${url}/_ofkit/requests/); summary at shutdown`
      : 'client judge: off (--no-judge): nothing is logged or judged',
    ...fallbackLines(config, simulator),
    ...(config.brokenRules.length > 0 ? [`BROKEN ON PURPOSE: ${config.brokenRules.join(', ')}`] : []),
  ].join('\n');
}

/** Prints the start-up lines: where the simulator listens, its seed and keys (the line to wait for). */
export function announceStart(
  config: SimulatorConfig,
  started: CommandLineSimulator,
  print: (line: string) => void,
): void {
  print(startLines(config, started));
}

/**
 * Starts the simulator a parsed command line asks for and prints its start-up lines through `print`
 * (`announce: false`: the caller prints them with `announceStart` once it is ready itself).
 */
export async function startFromConfig(
  config: SimulatorConfig,
  print: (line: string) => void,
  { announce = true }: { announce?: boolean } = {},
): Promise<CommandLineSimulator> {
  // A judge report that cannot be written is found now, not at shutdown after the whole run.
  checkReportPaths('--judge-report', config.judge.reports);
  const opened = await openStore(config.store, print);
  const webhookLog = createWebhookLog(config.logLevel, print);
  let simulator: StartedSimulator;
  try {
    simulator = await startSimulator({
      port: config.port,
      host: config.host,
      brokenRules: config.brokenRules,
      seed: config.seed,
      environment: config.environment,
      keys: config.keys,
      webhook: { url: null, bearer_token: null, ...config.webhook, ...config.webhookDelivery },
      storm: config.storm,
      ...(config.recurrentLife !== null && { recurrentLife: config.recurrentLife }),
      judge: config.judgeEnabled,
      ...(config.document !== null && { document: config.document }),
      judgeProbes: { duplicates: config.judge.duplicates, forged: config.judge.forged },
      onJudgeLogError: (error) => print(error.message),
      onWebhookAttempt: (report) => webhookLog.onAttempt(report),
      allowedHosts: config.allowedHosts,
      ...(config.publicUrl !== null && { publicUrl: config.publicUrl }),
      allowDefaultKeys: config.allowDefaultKeys,
      webhookAllow: config.webhookAllow,
      onWarning: (message) => print(`WARNING: ${message}`),
      ...(opened.store ? { store: opened.store } : {}),
    });
  } catch (error) {
    await opened.close();
    throw error;
  }
  // Closing the simulator closes its store's connection after the last request.
  const started: CommandLineSimulator = {
    ...simulator,
    webhookLog,
    close: () => simulator.close().then(() => opened.close()),
  };
  await applyStartSwitches(
    started.simulator,
    config.judge,
    config.keys.map((key) => key.secretId),
  );
  if (announce) announceStart(config, started, print);
  return started;
}

/** Stops a simulator started from the command line: the judge's verdicts and reports, then the socket. */
export async function stopFromConfig(
  config: SimulatorConfig,
  started: CommandLineSimulator,
  print: (line: string) => void,
): Promise<JudgeOutcome> {
  // The documented default keys are public: their secrets may be printed in the evidence's export line.
  const publicSecrets = new Map(
    config.keys
      .filter((key) =>
        DEFAULT_KEYS.some(
          (known) => known.secretId === key.secretId && known.secretPassword === key.secretPassword,
        ),
      )
      .map((key) => [key.secretId, key.secretPassword]),
  );
  const judged = await finishJudge(started.simulator, config.judge, publicSecrets);
  print(judged.summary);
  for (const target of judged.written) print(`client judge report written: ${target}`);
  await started.close();
  // After the close: the deliveries still in flight have ended.
  print(started.webhookLog.summary());
  return judged;
}

const SEED_FROM_USAGE = `  --seed-from FILE        start with the records of a recording (ofkit record's HAR, or any HAR) as the
                          first key's state (repeatable); see ofkit replay`;

/** `--seed-from FILE` (repeatable) taken out of the simulator's own options. */
export function splitSeedFrom(argv: readonly string[]): { recordings: string[]; rest: string[] } {
  const recordings: string[] = [];
  const rest: string[] = [];
  for (let index = 0; index < argv.length; index++) {
    const arg = argv[index]!;
    if (arg === '--') {
      rest.push(...argv.slice(index));
      break;
    }
    if (arg.startsWith('--seed-from=')) recordings.push(arg.slice('--seed-from='.length));
    else if (arg === '--seed-from') {
      const file = argv[index + 1];
      if (file === undefined || file.startsWith('-'))
        throw new UsageError('--seed-from wants a recording (a HAR file)');
      recordings.push(file);
      index += 1;
    } else rest.push(arg);
  }
  return { recordings, rest };
}

/** The recordings' records as the first key's state (the bridge's replay, through the control API). */
async function seedFrom(
  recordings: readonly string[],
  started: StartedSimulator,
  print: (line: string) => void,
) {
  const { loadBridgeDocument } = await import('../../bridge/src/document/bridge-document.js');
  const { describePlan, importPlan, planReplay } = await import(
    '../../bridge/src/replay/replay-recordings.js'
  );
  const plan = await planReplay({ document: loadBridgeDocument(), files: recordings });
  const key = started.keys[0]!;
  await importPlan(plan, started.url, key);
  for (const line of describePlan(plan, `tenant ${key.secretId} (--seed-from)`)) print(line);
}

/** The command's run, in main.ts's command table. */
export const simulateCommand: Command['run'] = (argv) =>
  runGuarded(
    'simulate',
    async () => {
      const { recordings, rest } = splitSeedFrom(argv);
      const config = parseSimulatorConfig(rest);
      if (config.help) {
        console.log(`${SIMULATE_USAGE}\n${SEED_FROM_USAGE}\n\n${BREAKS_HELP}`);
        return 0;
      }
      const started = await startFromConfig(config, (line) => console.log(line), { announce: false });
      // The recordings are loaded before "listening on" is printed: a script that waits for that line
      // must find the recorded state there.
      const seeded: string[] = [];
      if (recordings.length > 0) {
        try {
          await seedFrom(recordings, started, (line) => seeded.push(line));
        } catch (error) {
          await started.close();
          // A recording that cannot be read: the one boundary prints it, naming the option.
          throw error instanceof ConfigError ? new ConfigError(`--seed-from: ${error.message}`) : error;
        }
      }
      const stop = (signal: string) => {
        console.log(`\n${signal}: closing the simulator`);
        void stopFromConfig(config, started, (line) => console.log(line)).then(() => process.exit(0));
      };
      // Before the start-up lines: a signal sent as soon as they are read still gets the closing lines.
      process.once('SIGINT', () => stop('SIGINT'));
      process.once('SIGTERM', () => stop('SIGTERM'));
      announceStart(config, started, (line) => console.log(line));
      for (const line of seeded) console.log(line);
      return 0;
    },
    { usage: `${SIMULATE_USAGE}\n${SEED_FROM_USAGE}` },
  );
