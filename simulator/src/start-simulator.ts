/**
 * The one way to serve the simulator over HTTP: `createSimulator` + the node adapter + the clock ticker,
 * with the body limit given once. `ofkit simulate`, `ofkit exec`, the suite's and Pact's tests, the bench
 * and users' test set-up files (vitest `globalSetup`, jest `globalSetup`) all start it here. With
 * `attach: true`, tests run under `ofkit exec` use exec's simulator instead (connect-simulator.ts).
 */

import { ConfigError } from '../../openapi/config/config-error.js';
import {
  createHostCheck,
  type HostRules,
  hostCheckOff,
  isLoopbackInterface,
} from '../../openapi/security/host-check.js';
import { printableUrl } from '../../openapi/security/masked-values.js';
import { isPublishedKey } from '../../openapi/security/published-keys.js';
import { startClockTicker } from './clock-ticker.js';
import { DEFAULT_KEYS } from './config/simulator-config.js';
import {
  connectSimulator,
  EXEC_VARIABLES,
  judgeThrough,
  SimulatorAttachError,
  type SimulatorHandle,
} from './connect-simulator.js';
import { SNAPSHOT_IMPORT_ROUTE, SNAPSHOT_MAX_BYTES } from './control/snapshot-limits.js';
import type { ApiKey } from './core/keys.js';
import type { ConnectionLimits } from './server/connection-limits.js';
import { closeGracefully } from './server/graceful-shutdown.js';
import { createHttpServer, listen } from './server/http-adapter.js';
import {
  createSimulator,
  DEFAULT_MAX_BODY_BYTES,
  type Simulator,
  type SimulatorOptions,
} from './simulator.js';
import { createSimulatorControl } from './simulator-control.js';
import { createDestinationCheck, type DestinationRules } from './webhooks/destinations.js';

/** The default seed of an in-process simulator: fixed, so a test run replays (pass `seed` to vary it). */
export const DEFAULT_IN_PROCESS_SEED = 'ofkit';
/** How long jobs running at shutdown may finish before their leases are handed back (within the 2 s grace). */
const JOBS_GRACE_MS = 1000;

export interface StartSimulatorOptions extends Partial<Omit<SimulatorOptions, 'maxBodyBytes'>> {
  /** Default 0: the OS chooses a free port (read it from `url`). */
  port?: number;
  /** Default 127.0.0.1. */
  host?: string;
  /** Largest request body accepted (413 beyond); default 1 MiB. Given here only, once. */
  maxBodyBytes?: number;
  /**
   * How often, in ms of real time, a clock that follows real time runs its due jobs (webhook retries,
   * daily refresh, async deletions); default 1000, 0 runs them only on requests and clock moves.
   */
  tickMs?: number;
  /**
   * Under `ofkit exec` (`OFKIT_URL` set), use exec's simulator, the one `ofkit exec --judge` judges,
   * instead of starting one: an option it cannot honour (another environment, seed or first key; a
   * store, breaks, a clock...) is a SimulatorAttachError. Elsewhere a simulator of its own starts.
   */
  attach?: boolean;
  /**
   * Host names answered besides `localhost`, `*.localhost` and IP literals (`--allowed-host`): a name,
   * `.suffix` for a domain and its subdomains, or `all` to turn the check off (a warning says so).
   */
  allowedHosts?: readonly string[];
  /**
   * The URL clients reach the simulator at (`--public-url`, a reverse proxy's): its host is answered
   * and pagination links are built from it.
   */
  publicUrl?: string;
  /**
   * Listen beyond loopback with the published default keys anyway (`--allow-default-keys`): without
   * it such a start is refused, since whoever reaches the address would be a tenant.
   */
  allowDefaultKeys?: boolean;
  /** Time-outs and the connection cap of the socket (server/connection-limits.ts has the defaults). */
  limits?: Partial<ConnectionLimits>;
  /**
   * Internal destinations a simulator listening beyond loopback may deliver webhooks to
   * (`--webhook-allow`): host names (`.suffix` for a domain) or CIDRs. On loopback it delivers anywhere.
   */
  webhookAllow?: readonly string[];
  /** Told of what weakens a default (`allowedHosts: ['all']`); default a process warning. */
  onWarning?: (message: string) => void;
}

/** A simulator listening on a socket. */
export interface StartedSimulator extends SimulatorHandle {
  /** The seed of ids and data (replays a run). */
  readonly seed: string;
  /** The core (`handle(request)`, tenants) for tests that need it. */
  readonly simulator: Simulator;
  /** Stops the clock ticker, the webhook deliveries and the server (open connections included). */
  close(): Promise<void>;
}

/** Why exec's simulator cannot stand for the one `options` ask for, or undefined when it can. */
function attachProblem(options: StartSimulatorOptions, running: SimulatorHandle): string | undefined {
  const { attach: _attach, environment, seed, keys, port, host, ...rest } = options;
  const fixed = Object.keys(rest).filter((name) => rest[name as keyof typeof rest] !== undefined);
  const where = `ofkit exec's simulator (${running.url})`;
  if (fixed.length > 0)
    return `${fixed.join(', ')} cannot apply to ${where}, already running: give them to ofkit exec's options, or leave attach out`;
  if (environment !== undefined && environment !== running.environment)
    return `environment ${environment}, but ${where} is ${running.environment}: ofkit exec --environment ${environment}`;
  if (seed !== undefined && running.seed !== undefined && seed !== running.seed)
    return `seed ${seed}, but ${where} has seed ${running.seed}: ofkit exec --seed ${seed}`;
  const first = keys?.find((key) => key.environment === running.environment);
  if (first && first.secretId !== running.keys[0]?.secretId)
    return `first key ${first.secretId}, but ${where} gives ${running.keys[0]?.secretId}: ofkit exec --keys ${first.secretId}:...`;
  const at = new URL(running.url);
  if (
    (port !== undefined && port !== 0 && String(port) !== at.port) ||
    (host !== undefined && host !== at.hostname)
  )
    return `${host ?? at.hostname}:${port ?? at.port}, but ${where} listens on ${at.host}`;
  return undefined;
}

/** `ofkit exec`'s simulator for `startSimulator({ attach: true })`, when the tests run under exec. */
async function attachToExec(options: StartSimulatorOptions): Promise<SimulatorHandle | undefined> {
  if (!options.attach || !process.env[EXEC_VARIABLES.url]) return undefined;
  const running = await connectSimulator();
  const problem = attachProblem(options, running);
  if (problem) throw new SimulatorAttachError(`startSimulator({ attach: true }): ${problem}`);
  return running;
}

/**
 * Starts an in-process simulator; resolves once it listens. Rejects (e.g. EADDRINUSE) if it cannot.
 * With `attach: true` under `ofkit exec`, resolves with exec's simulator instead (no core, no close).
 */
export function startSimulator(
  options: StartSimulatorOptions & { attach: true },
): Promise<StartedSimulator | SimulatorHandle>;
export function startSimulator(options?: StartSimulatorOptions): Promise<StartedSimulator>;
export async function startSimulator(
  options: StartSimulatorOptions = {},
): Promise<StartedSimulator | SimulatorHandle> {
  return (await attachToExec(options)) ?? startOwn(options);
}

/**
 * Refuses to listen beyond loopback with a published default key among the keys (whoever reaches the
 * address would be a tenant of keys printed in the README), unless told to.
 */
function checkExposure(host: string, keys: readonly ApiKey[], allowDefaultKeys: boolean | undefined): void {
  if (allowDefaultKeys || isLoopbackInterface(host)) return;
  const published = keys.filter(isPublishedKey).map((key) => key.secretId);
  if (published.length === 0) return;
  throw new ConfigError(
    `refusing to listen on ${host} (beyond loopback) with the published default keys (${published.join(', ')}): anyone who reaches it would be a tenant; give your own keys with --keys id:secret, or --allow-default-keys to serve them anyway`,
  );
}

/** The receiver every tenant starts with (`--webhook-url`) must be one the simulator may call. */
async function checkDefaultReceiver(url: string | null | undefined, rules: DestinationRules): Promise<void> {
  if (!url) return;
  const refusal = await createDestinationCheck(rules).refusalOf(url);
  if (refusal) throw new ConfigError(`--webhook-url ${printableUrl(url)}: ${refusal}`);
}

/** The `Host` rules and the base of pagination links; a warning when the check is off. */
function hostRules(options: StartSimulatorOptions): HostRules & { publicOrigin?: string } {
  const rules: HostRules = {
    ...(options.allowedHosts && { allowedHosts: options.allowedHosts }),
    ...(options.publicUrl !== undefined && { publicUrl: options.publicUrl }),
  };
  if (hostCheckOff(rules)) {
    const warn =
      options.onWarning ?? ((message: string) => process.emitWarning(message, 'OfkitSecurityWarning'));
    warn(
      'the Host check is off (--allowed-host all): any web page the machine opens can reach this simulator through DNS rebinding',
    );
  }
  const publicOrigin = options.publicUrl?.replace(/\/+$/, '');
  return { ...rules, ...(publicOrigin !== undefined && { publicOrigin }) };
}

async function startOwn(options: StartSimulatorOptions): Promise<StartedSimulator> {
  const {
    port = 0,
    host = '127.0.0.1',
    tickMs = 1000,
    attach: _attach,
    allowedHosts: _hosts,
    publicUrl: _public,
    allowDefaultKeys,
    limits,
    onWarning: _warn,
    webhookAllow,
    ...rest
  } = options;
  const maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  const environment = options.environment ?? 'production';
  const seed = options.seed ?? DEFAULT_IN_PROCESS_SEED;
  const allKeys = options.keys ?? DEFAULT_KEYS;
  checkExposure(host, allKeys, allowDefaultKeys);
  const rules = hostRules(options);
  const webhookDestinations = { restricted: !isLoopbackInterface(host), allow: webhookAllow ?? [] };
  await checkDefaultReceiver(options.webhook?.url, webhookDestinations);
  const simulator = await createSimulator({
    ...rest,
    seed,
    environment,
    keys: allKeys,
    maxBodyBytes,
    webhookDestinations,
  });
  const server = createHttpServer({
    handle: simulator.handle,
    admit: simulator.admit,
    maxBodyBytes,
    // The snapshot import has its own limit and is parsed as it streams in.
    streamedBodies: new Map([[SNAPSHOT_IMPORT_ROUTE, SNAPSHOT_MAX_BYTES]]),
    hostAllowed: createHostCheck(rules),
    ...(rules.publicOrigin !== undefined && { publicOrigin: rules.publicOrigin }),
    ...(limits && { limits }),
  });
  let url: string;
  try {
    url = await listen(server, port, host);
  } catch (error) {
    await simulator.webhooks.close();
    throw error;
  }
  const stopTicker = tickMs > 0 ? startClockTicker(simulator.knownTenants, tickMs) : async () => {};
  const keys = Object.freeze(allKeys.filter((key) => key.environment === environment));
  let closing: Promise<void> | undefined;
  const close = () => {
    // Requests in flight get a short grace, then their connections are cut; a hanging webhook receiver
    // never holds the shutdown (closeGracefully bounds both).
    closing ??= closeGracefully(server, {
      before: async () => {
        await stopTicker();
        // The jobs this replica runs finish or go back to the store for another replica to run.
        await Promise.all([simulator.webhooks.close(), simulator.stopJobs(JOBS_GRACE_MS)]);
      },
    });
    return closing;
  };
  const control = createSimulatorControl(url, keys);
  return { url, keys, environment, control, seed, simulator, judge: judgeThrough(control), close };
}
