import { describe, expect, it } from 'vitest';
import { redisSkipReason } from './start-redis-servers.js';

describe('whether the bench runs the Redis servers', () => {
  it('runs them when asked and redis-server is installed', () => {
    expect(redisSkipReason(true, true)).toBeUndefined();
  });

  it('says in one line why it skips them: --no-redis, or no redis-server', () => {
    expect(redisSkipReason(false, true)).toBe('simulator-redis and simulator-redis-x2 skipped (--no-redis)');
    const absent = redisSkipReason(true, false);
    expect(absent).toMatch(/^redis-server not found: simulator-redis and simulator-redis-x2 skipped/);
    expect(absent).not.toContain('\n');
  });
});
