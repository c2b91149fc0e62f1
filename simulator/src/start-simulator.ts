/**
 * The one way to serve the simulator over HTTP: `createSimulator` + the node adapter + the clock ticker,
 * with the body limit given once. `ofkit simulate`, `ofkit exec`, the suite's and Pact's tests, the bench
 * and users' test set-up files (vitest `globalSetup`, jest `globalSetup`) all start it here.
 */

import { startClockTicker } from './clock-ticker.js';
import { DEFAULT_KEYS } from './config/simulator-config.js';
import { SNAPSHOT_IMPORT_ROUTE, SNAPSHOT_MAX_BYTES } from './control/snapshot-limits.js';
import type { ApiKey } from './core/keys.js';
import { closeGracefully } from './server/graceful-shutdown.js';
import { createHttpServer, listen } from './server/http-adapter.js';
import { createSimulator, type Simulator, type SimulatorOptions } from './simulator.js';
import { createSimulatorControl, type SimulatorControl } from './simulator-control.js';

/** The default seed of an in-process simulator: fixed, so a test run replays (pass `seed` to vary it). */
export const DEFAULT_IN_PROCESS_SEED = 'ofkit';
const DEFAULT_MAX_BODY_BYTES = 1_048_576;
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
}

/** A simulator listening on a socket. */
export interface StartedSimulator {
  /** Base URL, e.g. `http://127.0.0.1:53127` (the API under `/api/`, `/payments/`...). */
  readonly url: string;
  /** The keys of the simulator's environment: `{ secretId, secretPassword, environment }`, one tenant each. */
  readonly keys: readonly ApiKey[];
  /** The control API (clock, reset, scenarios...), called as a tenant. */
  readonly control: SimulatorControl;
  /** The seed of ids and data (replays a run). */
  readonly seed: string;
  /** The core (`handle(request)`, tenants) for tests that need it. */
  readonly simulator: Simulator;
  /** Stops the clock ticker, the webhook deliveries and the server (open connections included). */
  close(): Promise<void>;
}

/** Starts an in-process simulator; resolves once it listens. Rejects (e.g. EADDRINUSE) if it cannot. */
export async function startSimulator(options: StartSimulatorOptions = {}): Promise<StartedSimulator> {
  const { port = 0, host = '127.0.0.1', tickMs = 1000, ...rest } = options;
  const maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  const environment = options.environment ?? 'production';
  const seed = options.seed ?? DEFAULT_IN_PROCESS_SEED;
  const allKeys = options.keys ?? DEFAULT_KEYS;
  const simulator = await createSimulator({ ...rest, seed, environment, keys: allKeys, maxBodyBytes });
  const server = createHttpServer({
    handle: simulator.handle,
    maxBodyBytes,
    // The snapshot import has its own limit and is parsed as it streams in.
    streamedBodies: new Map([[SNAPSHOT_IMPORT_ROUTE, SNAPSHOT_MAX_BYTES]]),
  });
  let url: string;
  try {
    url = await listen(server, port, host);
  } catch (error) {
    await simulator.webhooks.close();
    throw error;
  }
  const stopTicker = tickMs > 0 ? startClockTicker(simulator.knownTenants, tickMs) : () => {};
  const keys = Object.freeze(allKeys.filter((key) => key.environment === environment));
  let closing: Promise<void> | undefined;
  const close = () => {
    // Requests in flight get a short grace, then their connections are cut; a hanging webhook receiver
    // never holds the shutdown (closeGracefully bounds both).
    closing ??= closeGracefully(server, {
      before: async () => {
        stopTicker();
        // The jobs this replica runs finish or go back to the store for another replica to run.
        await Promise.all([simulator.webhooks.close(), simulator.stopJobs(JOBS_GRACE_MS)]);
      },
    });
    return closing;
  };
  return { url, keys, control: createSimulatorControl(url, keys), seed, simulator, close };
}
