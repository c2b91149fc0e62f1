/**
 * A graceful shutdown that ends within a bound whatever is running: stop accepting, let requests in
 * flight finish for `graceMs`, then cut the connections that remain. Clock moves and snapshot work
 * yield to the event loop in slices, so the timers here fire even while one runs.
 */
import type { Server } from 'node:http';
import { settledWithin } from '../core/settled-within.js';

export interface ShutdownOptions {
  /** How long requests in flight may take before their connections are cut; default 2 s. */
  graceMs?: number;
  /** Called first: stop tickers, close webhook connections. */
  before?: () => void | Promise<void>;
}

/** Resolves once the server is closed, at most about `graceMs` after the call. */
export async function closeGracefully(server: Server, options: ShutdownOptions = {}): Promise<void> {
  const graceMs = options.graceMs ?? 2000;
  const closed = new Promise<void>((resolve) => server.close(() => resolve()));
  server.closeIdleConnections();
  const cut = setTimeout(() => server.closeAllConnections(), graceMs);
  try {
    // Not awaited past the grace: a webhook receiver that hangs must not hold the shutdown.
    await settledWithin(Promise.resolve(options.before?.()), graceMs);
    await closed;
  } finally {
    // Not left pending: it kept a process with nothing left to do (`ofkit exec` once its command ended)
    // running for the whole grace.
    clearTimeout(cut);
  }
}
