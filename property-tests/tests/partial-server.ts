/**
 * A server that implements a few operations and answers everything else with a valid 404 error array,
 * as a new implementation does early on: the operations it has are the simulator's (the altering proxy
 * forwards them), the rest is "not found". Wrong credentials get 401 everywhere; there is no control API.
 */

import { basicAuthorization } from '../../openapi/config/api-keys.js';
import {
  type ProxiedAnswer,
  type RunningServer,
  startAlteringProxy,
} from '../../tests/test-support/altering-proxy.js';

/** A method and a path pattern (`{id}` any one segment). */
export type Implemented = readonly [method: string, path: string];

const pattern = (path: string) => new RegExp(`^${path.replace(/\{[^}]+\}/g, '[^/]+')}$`);

const errorArray = (status: number, code: string, message: string): ProxiedAnswer => ({
  status,
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify([{ request_id: 'partial-server', message, code }]),
});

/** Listens on 127.0.0.1 (port 0); `implemented` operations go to `upstream`, the rest get 404. */
export function startPartialServer(
  upstream: string,
  key: { id: string; secret: string },
  implemented: readonly Implemented[],
): Promise<RunningServer> {
  const accepted = basicAuthorization(key.id, key.secret);
  const routes = implemented.map(([method, path]) => ({ method, path: pattern(path) }));
  return startAlteringProxy(upstream, {
    answer({ method, path, headers }) {
      if (headers.authorization !== accepted)
        return errorArray(401, 'authentication_failed', 'Invalid credentials.');
      if (routes.some((route) => route.method === method && route.path.test(path))) return undefined;
      return errorArray(404, 'not_found', `Nothing at ${method} ${path}.`);
    },
  });
}
