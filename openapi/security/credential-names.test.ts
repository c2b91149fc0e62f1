/** The one list of credential names, as the issue of secrets in every output states it. */
import { describe, expect, it } from 'vitest';
import { isCredentialName, normalisedName } from './credential-names.js';

describe('CLIENT-NO-SECRETS: the one list of credential names', () => {
  it('names every credential, matched after lower-casing and dropping _ and -', () => {
    const credentials = [
      'password',
      'PASSWORD',
      'passwd',
      'pin',
      'otp',
      'token',
      'secret',
      'apikey',
      'api_key',
      'Api-Key',
      'X-Api-Key',
      'authorization',
      'Authorization',
      // Names ending in password, secret or token.
      'new_password',
      'client_secret',
      'bearer_token',
      'access_token',
      'x-service-token',
      // The document's second password and a login's private key.
      'password2',
      'private_key',
    ];
    for (const name of credentials) expect(isCredentialName(name), name).toBe(true);
  });

  it('leaves readable what the judge follows and what merely resembles a credential', () => {
    const readable = [
      'session',
      'link',
      'username',
      'token_generation_data',
      'credentials_storage',
      'access_mode',
      'refresh_rate',
      'spin',
      'pinned',
      'tokens_used',
      'webhook_id',
      'x-service-request-mode',
    ];
    for (const name of readable) expect(isCredentialName(name), name).toBe(false);
  });

  it('normalises a name once, the same way for every output', () => {
    expect(normalisedName('X-Api_Key2')).toBe('xapikey');
    expect(normalisedName('password2')).toBe('password');
  });
});
