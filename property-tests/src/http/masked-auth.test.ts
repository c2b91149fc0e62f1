import { describe, expect, it } from 'vitest';
import { toCurl } from '../report/curl-commands.js';
import type { TargetConfig } from '../target/target-config.js';
import type { Exchange } from './http-client.js';
import { basicHeader, resolveCredentials } from './masked-auth.js';

const keys: TargetConfig['keys'] = {
  primary: { id: 'key-a', secret: 's3cr3t-primary' },
  second: { id: 'key-b', secret: 's3cr3t-second' },
  otherEnvironment: { id: 'sandbox-key', secret: 's3cr3t-sandbox' },
};

function exchange(auth: Exchange['request']['auth'], body?: string): Exchange {
  return {
    request: {
      method: 'POST',
      url: 'http://127.0.0.1:4010/api/links/',
      headers: { 'content-type': 'application/json' },
      auth,
      ...(body ? { body } : {}),
    },
    response: { status: 401, contentType: 'application/json', body: '[]' },
    durationMs: 1,
  };
}

describe('credentials in records and curl commands (CLIENT-NO-SECRETS for reports)', () => {
  it('records configured keys as shell variables and sends the real header', () => {
    const { header, recorded } = resolveCredentials('primary', keys);
    expect(header).toBe(basicHeader(keys.primary));
    expect(recorded).toEqual({ kind: 'basic', user: '$OFKIT_KEY', password: '$OFKIT_SECRET' });
    expect(resolveCredentials('otherEnvironment', keys).recorded).toMatchObject({ user: '$OFKIT_OTHER_KEY' });
  });

  it('masks a configured id in a wrong-credentials header but keeps the wrong secret visible', () => {
    const { recorded } = resolveCredentials({ header: basicHeader({ id: 'key-a', secret: 'nope' }) }, keys);
    expect(recorded).toEqual({ kind: 'basic', user: '$OFKIT_KEY', password: 'nope' });
  });

  it('never records a header made from a configured secret', () => {
    const sneaky = `Basic ${Buffer.from('s3cr3t-primary').toString('base64')}`;
    expect(resolveCredentials({ header: sneaky }, keys).recorded).toEqual({
      kind: 'header',
      value: '<masked: made from a configured secret>',
    });
    expect(
      JSON.stringify(resolveCredentials({ header: `Bearer s3cr3t-second` }, keys).recorded),
    ).not.toContain('s3cr3t');
  });

  it('renders curl commands a shell can run, with the variables left to expand', () => {
    const curl = toCurl(
      exchange({ kind: 'basic', user: '$OFKIT_KEY', password: '$OFKIT_SECRET' }, `{"name":"O'Brien"}`),
      0,
    );
    expect(curl).toContain(`-u "$OFKIT_KEY:$OFKIT_SECRET"`);
    expect(curl).toContain(`--data-raw '{"name":"O'\\''Brien"}'`);
    expect(curl).toContain("-X POST 'http://127.0.0.1:4010/api/links/'");
    expect(curl.split('\n')[0]).toBe('# 1. answered 401 application/json');
  });

  it('escapes literal text inside the double-quoted -u argument', () => {
    const curl = toCurl(exchange({ kind: 'basic', user: '$OFKIT_KEY', password: 'a"$b`' }), 0);
    expect(curl).toContain('-u "$OFKIT_KEY:a\\"\\$b\\`"');
    expect(toCurl(exchange({ kind: 'none' }), 0)).not.toContain('-u');
  });
});
