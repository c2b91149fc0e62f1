/**
 * `--store` URLs as printed and as connected: the password masked whatever it holds, `rediss://` and
 * `rediss+cluster://` with TLS on every node, and the warnings a Redis beyond loopback gets without a
 * password or without TLS.
 */
import { describe, expect, it } from 'vitest';
import { parseRedisUrl, printableUrl, redisUrlWarnings } from './redis-url.js';

describe('printableUrl', () => {
  it('masks the whole password, an @ or a / in it included, single and cluster alike', () => {
    expect(printableUrl('redis://ofkit:p@ss@redis.example:6379/0')).toBe(
      'redis://ofkit:***@redis.example:6379/0',
    );
    expect(printableUrl('redis://ofkit:pa/ss@redis.example:6379/0')).toBe(
      'redis://ofkit:***@redis.example:6379/0',
    );
    expect(printableUrl('rediss+cluster://:s3cr@t/x@10.0.0.1:6379,10.0.0.2:6379')).toBe(
      'rediss+cluster://:***@10.0.0.1:6379,10.0.0.2:6379',
    );
    expect(printableUrl('redis://127.0.0.1:6379/0')).toBe('redis://127.0.0.1:6379/0');
  });
});

describe('TLS', () => {
  it('rediss:// is one Redis with TLS; rediss+cluster:// builds every seed node with TLS and keeps the credentials for the others', () => {
    expect(parseRedisUrl('rediss://redis.example:6380/0')).toMatchObject({ topology: 'single', tls: true });
    const cluster = parseRedisUrl('rediss+cluster://ofkit:pass%40word@10.0.0.1:6379,10.0.0.2:6379');
    expect(cluster).toMatchObject({
      topology: 'cluster',
      tls: true,
      username: 'ofkit',
      password: 'pass@word',
    });
    expect(cluster.nodes).toEqual([
      'rediss://ofkit:pass%40word@10.0.0.1:6379',
      'rediss://ofkit:pass%40word@10.0.0.2:6379',
    ]);
    expect(parseRedisUrl('redis+cluster://10.0.0.1:6379').tls).toBe(false);
  });
});

describe('redisUrlWarnings', () => {
  it('warns of a Redis beyond loopback without a password or without TLS, never printing the password', () => {
    expect(redisUrlWarnings('redis://127.0.0.1:6379/0')).toEqual([]);
    expect(redisUrlWarnings('rediss://ofkit:s3cret@redis.internal:6380/0')).toEqual([]);
    const plain = redisUrlWarnings('redis://redis.internal:6379/0');
    expect(plain).toEqual([
      expect.stringContaining('without a password'),
      expect.stringContaining('without TLS'),
    ]);
    const clear = redisUrlWarnings('redis://ofkit:s3cret@redis.internal:6379/0');
    expect(clear).toEqual([expect.stringContaining('without TLS')]);
    expect(clear.join()).not.toContain('s3cret');
    expect(redisUrlWarnings('rediss+cluster://10.0.0.1:6379,10.0.0.2:6379')).toEqual([
      expect.stringContaining('without a password'),
    ]);
  });
});
