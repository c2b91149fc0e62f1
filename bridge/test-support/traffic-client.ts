/** Test support: a small client of the API (and the control API) at a base URL, as a real client calls it. */
import { basicAuthorization } from '../../openapi/config/api-keys.js';

export interface Answer {
  status: number;
  // biome-ignore lint/suspicious/noExplicitAny: test traffic reads whatever the API answered
  body: any;
}

export interface Key {
  secretId: string;
  secretPassword: string;
}

export interface TrafficClient {
  readonly baseUrl: string;
  call(
    method: string,
    path: string,
    options?: { body?: unknown; key?: Key | null; headers?: Record<string, string>; rawBody?: string },
  ): Promise<Answer>;
}

const basic = (key: Key) => basicAuthorization(key.secretId, key.secretPassword);

/** A piece of traffic: calls made with the tenants' two keys. */
export interface Scene {
  run(call: TrafficClient['call'], keys: readonly [Key, Key]): Promise<void>;
}

/** One exchange as the client saw it (for tests that look for what was sent and received). */
export interface SeenExchange {
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: string;
  status: number;
  answer: string;
}

/**
 * Calls `baseUrl` as `key` unless a call names another key (or `null`: no credentials); `seen` hears
 * of every exchange.
 */
export function trafficClient(
  baseUrl: string,
  key: Key,
  seen?: (exchange: SeenExchange) => void,
): TrafficClient {
  return {
    baseUrl,
    async call(method, path, options = {}) {
      const chosen = options.key === undefined ? key : options.key;
      const headers: Record<string, string> = { ...options.headers };
      if (chosen !== null) headers.authorization = basic(chosen);
      const body = options.rawBody ?? (options.body === undefined ? undefined : JSON.stringify(options.body));
      if (body !== undefined) headers['content-type'] ??= 'application/json';
      const response = await fetch(`${baseUrl}${path}`, {
        method,
        headers,
        ...(body !== undefined && { body }),
      });
      const text = await response.text();
      seen?.({
        method,
        url: `${baseUrl}${path}`,
        headers,
        ...(body !== undefined && { body }),
        status: response.status,
        answer: text,
      });
      let parsed: unknown = text;
      try {
        parsed = text === '' ? undefined : JSON.parse(text);
      } catch {}
      return { status: response.status, body: parsed };
    },
  };
}
