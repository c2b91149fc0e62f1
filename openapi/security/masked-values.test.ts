/** Credentials masked outside JSON members: query strings, forms, URLs; unreadable bodies digested. */
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { bodyDigest, looksLikeForm, maskJson, maskPairs, printableUrl } from './masked-values.js';

describe('masked values (CLIENT-NO-SECRETS)', () => {
  it('masks the credentials of a query or form, by name, encoded or not', () => {
    expect(maskPairs('username=ana&password=hunter2&pin=1234')).toBe('username=ana&password=***&pin=***');
    expect(maskPairs('pass%77ord=x&otp=9')).toBe('pass%77ord=***&otp=***');
    expect(maskPairs('a=1&b=2')).toBe('a=1&b=2');
    expect(maskPairs('secret=$OFKIT_SECRET', (value) => value === '$OFKIT_SECRET')).toBe(
      'secret=$OFKIT_SECRET',
    );
    expect(looksLikeForm('username=ana&password=hunter2')).toBe(true);
    expect(looksLikeForm('{"password":"x"')).toBe(false);
  });

  it('masks every scalar under a credential name in JSON, numbers included, keeping session and link', () => {
    const body = {
      passwd: 'a',
      pin: 1234,
      otp: '9',
      nested: { client_secret: 'b' },
      session: 's',
      link: 'l',
    };
    expect(maskJson(body)).toEqual({
      passwd: '***',
      pin: '***',
      otp: '***',
      nested: { client_secret: '***' },
      session: 's',
      link: 'l',
    });
  });

  it('prints a URL with its password masked whatever it holds', () => {
    expect(printableUrl('redis://user:p@ss/w:rd@redis.example:6379/0')).toBe(
      'redis://user:***@redis.example:6379/0',
    );
    expect(printableUrl('rediss://:only@host:6380')).toBe('rediss://:***@host:6380');
    expect(printableUrl('redis://secret@host:6379')).toBe('redis://***@host:6379');
    expect(printableUrl('https://hooks.example/in?token=abc&x=1')).toBe(
      'https://hooks.example/in?token=***&x=1',
    );
    expect(printableUrl('redis://host:6379/0?command_timeout_ms=5')).toBe(
      'redis://host:6379/0?command_timeout_ms=5',
    );
  });

  it('keeps of an unreadable body its length and sha256 only', () => {
    const sha256 = createHash('sha256').update('pässword').digest('hex');
    expect(bodyDigest('pässword')).toEqual({ length: 9, sha256 });
  });
});
