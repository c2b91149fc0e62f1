// Compiled by the packaged test: the package's exported types in use.
import type { OfkitClient } from 'ofkit/client';
import type { components, paths } from 'ofkit/openapi-types';
import type { StartSimulatorOptions } from 'ofkit/simulator';
import { MemoryStore, type RedisStore, type Store } from 'ofkit/store';

type Link = components['schemas']['Link'];
export type LinkId = Link['id'];
export type Accounts = paths['/api/accounts/']['get'];
export const options: StartSimulatorOptions = { port: 0, environment: 'sandbox', store: new MemoryStore() };
/** Replicas share a RedisStore (docs/simulator.md, "Running several replicas"). */
export const shared = (store: RedisStore): StartSimulatorOptions => ({ store: store satisfies Store });
export async function links(client: OfkitClient) {
  return client.GET('/api/links/');
}
/** A user's strict tsconfig: after `status === 428` the error items carry the MFA session. */
export async function register(client: OfkitClient): Promise<string | undefined> {
  const registered = await client.POST('/api/links/', {
    body: { institution: 'tokenbank_br_business', username: '76109277673', password: 'secret' },
  });
  if (registered.status !== 428) return registered.status === 201 ? registered.data.id : 'refused';
  const session: string = registered.error[0].session;
  const resumed = await client.resumeMfa(registered, '123456');
  return resumed.status === 200 ? resumed.data.status : session;
}
