// Compiled by the packaged test: the package's exported types in use.
import type { OfkitClient } from 'ofkit/client';
import type { components, paths } from 'ofkit/openapi-types';
import type { StartSimulatorOptions } from 'ofkit/simulator';
import { MemoryStore, type RedisStore, type Store } from 'ofkit/store';

type Link = components['schemas']['Link'];
export type LinkId = Link['id'];
export type Accounts = paths['/api/accounts/']['get'];
export const options: StartSimulatorOptions = { port: 0, environment: 'sandbox', store: new MemoryStore() };
/** Replicas share a RedisStore (README, "Running several replicas"). */
export const shared = (store: RedisStore): StartSimulatorOptions => ({ store: store satisfies Store });
export async function links(client: OfkitClient) {
  return client.GET('/api/links/');
}
