/**
 * Type test, checked by `tsc` in `npm run lint`: each `@ts-expect-error` line must fail to compile,
 * and tsc fails the build if one of them ever compiles (an unused directive is an error).
 */
import { createOfkitClient } from './create-client.js';

const client = createOfkitClient({
  baseUrl: 'http://127.0.0.1:4010',
  secretId: 'id',
  secretPassword: 'secret',
});

export async function typedClientExamples(): Promise<void> {
  // A documented call compiles.
  await client.GET('/api/links/{id}/', { params: { path: { id: '30cb4806-6e00-48a4-91c9-ca55968576c8' } } });
  await client.POST('/api/links/', { body: { institution: 'ofbank_br_retail', username: 'user' } });

  // @ts-expect-error a path that is not in the document
  await client.GET('/api/linkz/');

  // @ts-expect-error a request body without the required field `username`
  await client.POST('/api/links/', { body: { institution: 'ofbank_br_retail' } });

  // @ts-expect-error a parameter of the wrong type (`page` is an integer)
  await client.GET('/api/accounts/', { params: { query: { page: 'two' } } });
}
