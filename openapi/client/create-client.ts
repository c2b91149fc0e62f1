/**
 * A typed client for the API on openapi-fetch: base URL and keys in, Basic auth, the spec's retries,
 * answers told apart by status, and the resumption of an MFA pause.
 */
import createClient from 'openapi-fetch';
import { basicAuthorization } from '../config/api-keys.js';
import type { paths } from '../generated/openapi.js';
import { retryWaitSeconds } from './retry-policy.js';
import type { MfaPause, OfkitClient } from './typed-result.js';

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

const METHODS = ['GET', 'PUT', 'POST', 'DELETE', 'OPTIONS', 'HEAD', 'PATCH', 'TRACE'] as const;
type Method = (typeof METHODS)[number];

/** The calls as the wrapper makes them: the typing is OfkitClient's. */
type LooseCall = (
  url: string,
  init?: { body?: unknown; [key: string]: unknown },
) => Promise<{ data?: unknown; error?: unknown; response: Response }>;
type Answer = Awaited<ReturnType<LooseCall>> & { status: number };

/** Where a 428 came from, to resume it there (LINK-MFA-428). */
interface PausedCall {
  path: string;
  saveData: unknown;
}

/** Creates the client. Credentials go only into the Authorization header (CLIENT-NO-SECRETS). */
export function createOfkitClient(options: OfkitClientOptions): OfkitClient {
  const base = createClient<paths>({
    baseUrl: options.baseUrl.replace(/\/+$/, ''),
    headers: { Authorization: basicAuthorization(options.secretId, options.secretPassword) },
    fetch: withRetries(options),
  });
  const pauses = new WeakMap<object, PausedCall>();
  const call =
    (method: Method): LooseCall =>
    async (url, init) => {
      const answer: Answer = await (base[method] as unknown as LooseCall)(url, init).then((result) => ({
        ...result,
        status: result.response.status,
      }));
      const body = init?.body as { save_data?: unknown } | undefined;
      if (answer.status === 428) pauses.set(answer, { path: url, saveData: body?.save_data });
      return answer;
    };
  const client = Object.fromEntries(METHODS.map((method) => [method, call(method)]));
  const resumeMfa = (pause: MfaPause, token: string) => {
    const paused = pauses.get(pause);
    const [item] = pause.error;
    if (paused === undefined || item === undefined)
      throw new TypeError('resumeMfa takes a 428 answer of this client, with its error item');
    const saveData = paused.saveData === undefined ? {} : { save_data: paused.saveData };
    return call('PATCH')(paused.path, {
      body: { session: item.session, token, link: item.link, ...saveData },
    });
  };
  return {
    ...client,
    resumeMfa,
    use: (...middleware) => base.use(...middleware),
    eject: (...middleware) => base.eject(...middleware),
  } as OfkitClient;
}
