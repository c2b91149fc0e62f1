/**
 * What one client can hold of the server: the time its request line and headers may take, the time
 * its whole request may take, how long an idle kept-alive connection stays, and how many connections
 * are open at once. The defaults leave room for what the simulator is for: a 1 GiB snapshot import
 * (10 minutes is 1.8 MB/s), a clock advance of a year (its answer may take minutes: no time-out
 * applies once the request is in), and a load balancer's pool of kept-alive connections (idle ones
 * are kept past the 60 s that load balancers and proxies keep theirs, so the simulator never closes
 * one they are about to reuse).
 */
import type { ServerOptions } from 'node:http';

export interface ConnectionLimits {
  /** The request line and headers, from the connection's first byte (a client trickling them). */
  headersTimeoutMs: number;
  /** The whole request, body included (the answer's time is not counted). */
  requestTimeoutMs: number;
  /** An idle kept-alive connection between two requests. */
  keepAliveTimeoutMs: number;
  /** Connections open at once; past it a new one is closed at once. */
  maxConnections: number;
}

export const DEFAULT_CONNECTION_LIMITS: ConnectionLimits = Object.freeze({
  headersTimeoutMs: 10_000,
  requestTimeoutMs: 600_000,
  keepAliveTimeoutMs: 65_000,
  maxConnections: 1_024,
});

/**
 * Node's server options for the limits. The time-outs are checked every second (Node's default is
 * every 30 s, which let a trickling client hold a socket about half a minute past its time-out).
 */
export function serverTimeouts(limits: ConnectionLimits): ServerOptions {
  return {
    headersTimeout: limits.headersTimeoutMs,
    requestTimeout: limits.requestTimeoutMs,
    keepAliveTimeout: limits.keepAliveTimeoutMs,
    connectionsCheckingInterval: 1_000,
  };
}
