/**
 * Type test, checked by `tsc` in `npm run lint`: each `@ts-expect-error` line must fail to compile,
 * and tsc fails the build if one of them ever compiles (an unused directive is an error).
 */
import type { components } from '../generated/openapi.js';
import { createOfkitClient } from './create-client.js';

type TokenRequiredError = components['schemas']['TokenRequiredError'];
type Link = components['schemas']['Link'];

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

/** The answer narrows by `status`: 201 is the link, 428 the MFA item, 400 the plain error array. */
export async function narrowingByStatus(): Promise<void> {
  const registered = await client.POST('/api/links/', {
    body: { institution: 'ofbank_br_retail', username: 'mfa-user', password: 'secret' },
  });
  if (registered.status === 201) {
    const link: Link = registered.data;
    // @ts-expect-error a success carries no error
    registered.error.length;
    void link;
  }
  if (registered.status === 428) {
    // Destructured or not, the error is the 428's: each item has the session to resume with.
    const item: TokenRequiredError | undefined = registered.error[0];
    const session: string | undefined = registered.error[0]?.session;
    const { error, status } = registered;
    const expiry: number | undefined = error[0]?.expiry;
    const resumed = await client.resumeMfa(registered, '123456');
    if (resumed.status === 200) resumed.data.status satisfies Link['status'];
    void [item, session, expiry, status];
  }
  if (registered.status === 400) {
    // @ts-expect-error a 400 item has no session
    registered.error[0]?.session;
  }
  // @ts-expect-error before narrowing, the answer may be a success without an error
  registered.error[0];
  // @ts-expect-error a status the operation does not document
  if (registered.status === 418) return;
}

/** The resumption takes a 428 answer, not just any answer. */
export async function resumeNeedsAPause(): Promise<void> {
  const accounts = await client.POST('/api/accounts/', { body: { link: 'l' } });
  // @ts-expect-error not narrowed to the 428 yet
  await client.resumeMfa(accounts, '123456');
  if (accounts.status === 428) await client.resumeMfa(accounts, '123456');
}
