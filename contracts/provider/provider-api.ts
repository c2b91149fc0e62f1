/**
 * The provider as the state handlers reach it: its public API and, where it has one, its control API
 * (`openapi/admin.yaml`), both with the provider's Basic credentials. Nothing else: states are set up
 * the way any client could set them up, so any provider can be verified.
 */
import { basicAuthorization } from '../../openapi/config/api-keys.js';

export interface ProviderKey {
  secretId: string;
  secretPassword: string;
}

export interface ProviderAnswer {
  status: number;
  body: unknown;
}

/** A provider state could not be set up: the provider answered something the state does not allow. */
export class StateSetupError extends Error {}

export interface ProviderApi {
  readonly baseUrl: string;
  /** The request's answer, whatever its status. */
  send(
    method: string,
    path: string,
    options?: { body?: unknown; headers?: Record<string, string> },
  ): Promise<ProviderAnswer>;
  /** The body of an answer with one of the `expected` statuses; any other throws a StateSetupError. */
  expect(
    expected: number | readonly number[],
    method: string,
    path: string,
    options?: { body?: unknown; headers?: Record<string, string> },
  ): Promise<unknown>;
}

async function readBody(response: Response): Promise<unknown> {
  const text = await response.text();
  if (text === '') return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** `Basic base64(id:secret)` of the provider's key (AUTH-BASIC). */
export const providerAuthorization = (key: ProviderKey) =>
  basicAuthorization(key.secretId, key.secretPassword);

export function createProviderApi(baseUrl: string, key: ProviderKey): ProviderApi {
  const root = baseUrl.replace(/\/+$/, '');
  const authorization = providerAuthorization(key);
  const send: ProviderApi['send'] = async (method, path, options = {}) => {
    const headers: Record<string, string> = { authorization, ...options.headers };
    if (options.body !== undefined) headers['content-type'] = 'application/json';
    const body = options.body === undefined ? undefined : JSON.stringify(options.body);
    const response = await fetch(`${root}${path}`, { method, headers, body });
    return { status: response.status, body: await readBody(response) };
  };
  return {
    baseUrl: root,
    send,
    async expect(expected, method, path, options) {
      const answer = await send(method, path, options);
      const statuses = [expected].flat();
      if (statuses.includes(answer.status)) return answer.body;
      const snippet = JSON.stringify(answer.body ?? '').slice(0, 300);
      throw new StateSetupError(
        `${method} ${path} answered ${answer.status}, expected ${statuses.join(' or ')}: ${snippet}`,
      );
    },
  };
}

export interface ControlApiSupport {
  available: boolean;
  /** Why it is (not) there, in words. */
  reason: string;
}

/**
 * The control API is there when `GET /_ofkit/clock/` answers 200 to the provider's credentials. A
 * provider that cannot be reached at all rejects (the verification cannot run).
 */
export async function detectControlApi(api: ProviderApi): Promise<ControlApiSupport> {
  const answer = await api.send('GET', '/_ofkit/clock/');
  if (answer.status === 200) return { available: true, reason: 'GET /_ofkit/clock/ answered 200' };
  return { available: false, reason: `GET /_ofkit/clock/ answered ${answer.status}` };
}
