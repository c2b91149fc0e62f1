import { describe, expect, it } from 'vitest';
import { RecordCache } from './redis-record-cache.js';

describe('RecordCache', () => {
  it('gives the same object for the same text, a new one for another text', () => {
    const cache = new RecordCache();
    const first = cache.parse('{"id":"a","n":1}');
    expect(first).toEqual({ id: 'a', n: 1 });
    expect(cache.parse('{"id":"a","n":1}')).toBe(first);
    expect(cache.parse('{"id":"a","n":2}')).toEqual({ id: 'a', n: 2 });
  });

  it('gives the same object for the same name and text, a new one when the text under a name changed', () => {
    const cache = new RecordCache(2);
    const first = cache.parseNamed('t/x/a', '{"id":"a","n":1}');
    expect(cache.parseNamed('t/x/a', '{"id":"a","n":1}')).toBe(first);
    const changed = cache.parseNamed('t/x/a', '{"id":"a","n":2}');
    expect(changed).toEqual({ id: 'a', n: 2 });
    expect(cache.parseNamed('t/x/a', '{"id":"a","n":2}')).toBe(changed);
    cache.parseNamed('t/x/b', '{"id":"b"}');
    cache.parseNamed('t/x/c', '{"id":"c"}');
    expect(cache.parseNamed('t/x/a', '{"id":"a","n":2}')).not.toBe(changed);
  });

  it('forgets the least recently used text beyond its capacity', () => {
    const cache = new RecordCache(2);
    const a = cache.parse('{"id":"a"}');
    const b = cache.parse('{"id":"b"}');
    expect(cache.parse('{"id":"a"}')).toBe(a);
    cache.parse('{"id":"c"}');
    expect(cache.parse('{"id":"a"}')).toBe(a);
    expect(cache.parse('{"id":"b"}')).not.toBe(b);
  });
});
