/** A small client of the control API (`/_ofkit/`, openapi/admin.yaml) for test set-up files. */

import { basicAuthorization } from '../../openapi/config/api-keys.js';
import type { components } from '../../openapi/generated/admin.js';
import type { ApiKey } from './core/keys.js';

/** The client judge's report on one tenant's client (`GET /_ofkit/judge/`). */
export type ClientJudgeReport = components['schemas']['JudgeReport'];

/** A recurrent link's life script with each step's outcome (`/_ofkit/recurrent-lives/`). */
export type RecurrentLifeScript = components['schemas']['RecurrentLife'];
/** One record of the tenant's event log (`GET /_ofkit/events/`). */
export type LoggedEventRecord = components['schemas']['EventRecord'];

/** The control API of one running simulator, called with a tenant's key (default: the first key). */
export interface SimulatorControl {
  /** The control API's base URL, `<url>/_ofkit/` (for a client of your own). */
  readonly url: string;
  /**
   * Calls `<url>/_ofkit/<path>` as `key`'s tenant (`path` with or without the `/_ofkit/` prefix: `judge/`
   * and `/_ofkit/judge/` are the same): a JSON body in, the parsed JSON answer out (undefined for 204).
   * Throws an Error holding the status and the API's error array on any other answer than 2xx.
   */
  request<T = unknown>(method: string, path: string, body?: unknown, key?: ApiKey): Promise<T>;
  /** `POST /_ofkit/reset/`: forgets the tenant's links, records, events, scenarios and faults. */
  reset(key?: ApiKey): Promise<void>;
  /** `POST /_ofkit/clock/advance/`: moves the tenant's virtual clock, running what falls due. */
  advanceClock(seconds: number, key?: ApiKey): Promise<{ now: string; frozen: boolean }>;
  /**
   * `POST /_ofkit/recurrent-lives/`: plays `days` days (4-90, default 28) of a valid recurrent link's
   * life on the tenant's clock; move the clock (`advanceClock(86400)`) a day at a time until it ends.
   */
  startRecurrentLife(link: string, days?: number, key?: ApiKey): Promise<RecurrentLifeScript>;
  /** `GET /_ofkit/recurrent-lives/`: the tenant's scripts; `finished` once every step ran. */
  recurrentLives(key?: ApiKey): Promise<RecurrentLifeScript[]>;
}

const basic = (key: ApiKey) => basicAuthorization(key.secretId, key.secretPassword);

/** `path` relative to the control API's base: `/_ofkit/judge/`, `_ofkit/judge/` and `judge/` alike. */
const relativePath = (path: string) => path.replace(/^\/+/, '').replace(/^_ofkit\//, '');

/** The control API at `controlUrl` (default `<baseUrl>/_ofkit/`), called with `keys` (the first by default). */
export function createSimulatorControl(
  baseUrl: string,
  keys: readonly ApiKey[],
  controlUrl = `${baseUrl}/_ofkit/`,
): SimulatorControl {
  const url = controlUrl.endsWith('/') ? controlUrl : `${controlUrl}/`;
  const keyOf = (key: ApiKey | undefined): ApiKey => {
    const chosen = key ?? keys[0];
    if (chosen === undefined) throw new Error('the simulator has no key of its environment');
    return chosen;
  };
  async function request<T>(method: string, path: string, body?: unknown, key?: ApiKey): Promise<T> {
    const headers: Record<string, string> = { authorization: basic(keyOf(key)) };
    if (body !== undefined) headers['content-type'] = 'application/json';
    const target = new URL(relativePath(path), url);
    const response = await fetch(target, {
      method,
      headers,
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await response.text();
    if (!response.ok) throw new Error(`${method} ${target} answered ${response.status}: ${text}`);
    return (text === '' ? undefined : JSON.parse(text)) as T;
  }
  return {
    url,
    request,
    reset: (key) => request<void>('POST', 'reset/', undefined, key),
    advanceClock: (seconds, key) => request('POST', 'clock/advance/', { seconds }, key),
    startRecurrentLife: (link, days, key) =>
      request('POST', 'recurrent-lives/', { link, ...(days !== undefined && { days }) }, key),
    recurrentLives: (key) => request('GET', 'recurrent-lives/', undefined, key),
  };
}
