/** A typed client for the API on openapi-fetch: base URL and keys in, Basic auth, the spec's retries. */
import createClient, { type Client } from 'openapi-fetch';
import type { paths } from '../generated/openapi.js';
import { retryWaitSeconds } from './retry-policy.js';

export interface OfkitClientOptions {
  baseUrl: string;
  secretId: string;
  secretPassword: string;
  /** Waits between retries; tests inject one that does not really wait. */
  sleep?: (milliseconds: number) => Promise<void>;
  /** The underlying fetch (defaults to the global one). */
  fetch?: (request: Request) => Promise<Response>;
  /** Called before each retry, e.g. to log; never receives credentials (CLIENT-NO-SECRETS). */
  onRetry?: (event: {
    method: string;
    url: string;
    status: number;
    retry: number;
    waitSeconds: number;
  }) => void;
}

export type OfkitClient = Client<paths>;

const realSleep = (milliseconds: number) => new Promise<void>((done) => setTimeout(done, milliseconds));

async function readErrorBody(response: Response): Promise<unknown> {
  if (!(response.headers.get('content-type') ?? '').includes('json')) return undefined;
  try {
    return await response.clone().json();
  } catch {
    return undefined;
  }
}

/** Wraps fetch with CLIENT-RETRY-5XX, CLIENT-NO-RETRY-4XX and CLIENT-TOO-MANY-SESSIONS. */
export function withRetries(options: OfkitClientOptions): (request: Request) => Promise<Response> {
  const send = options.fetch ?? ((request: Request) => globalThis.fetch(request));
  const sleep = options.sleep ?? realSleep;
  return async (request) => {
    for (let retries = 0; ; retries += 1) {
      const response = await send(request.clone());
      if (response.ok) return response;
      const wait = retryWaitSeconds(response.status, await readErrorBody(response), retries);
      if (wait === undefined) return response;
      options.onRetry?.({
        method: request.method,
        url: request.url,
        status: response.status,
        retry: retries + 1,
        waitSeconds: wait,
      });
      await response.body?.cancel();
      await sleep(wait * 1000);
    }
  };
}

/** Creates the client. Credentials go only into the Authorization header (CLIENT-NO-SECRETS). */
export function createOfkitClient(options: OfkitClientOptions): OfkitClient {
  const credentials = Buffer.from(`${options.secretId}:${options.secretPassword}`).toString('base64');
  return createClient<paths>({
    baseUrl: options.baseUrl.replace(/\/+$/, ''),
    headers: { Authorization: `Basic ${credentials}` },
    fetch: withRetries(options),
  });
}
