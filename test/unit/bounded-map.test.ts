import { describe, expect, it } from 'vitest';
import { BoundedMap } from '../../src/platform/cache/bounded-map.js';

describe('BoundedMap', () => {
  it('keeps the newest entries and never more than its size', () => {
    const map = new BoundedMap<number, string>(10);
    for (let i = 1; i <= 1000; i++) {
      map.set(i, `v${i}`);
      expect(map.size).toBeLessThanOrEqual(10);
    }
    expect(map.size).toBeGreaterThanOrEqual(5);
    for (let i = 996; i <= 1000; i++) expect(map.get(i)).toBe(`v${i}`);
    expect(map.get(1)).toBeUndefined();
    expect(map.has(990)).toBe(false);
  });

  it('drops the oldest entries first', () => {
    const map = new BoundedMap<string, number>(4);
    for (const k of ['a', 'b', 'c', 'd', 'e']) map.set(k, 0);
    expect(['a', 'b', 'c', 'd', 'e'].map((k) => map.has(k))).toEqual([false, false, true, true, true]);
  });

  it('moves a key set again to the new generation, so it outlives older keys', () => {
    const map = new BoundedMap<string, number>(4);
    map.set('a', 1);
    map.set('b', 2);
    map.set('c', 3);
    map.set('a', 4);
    map.set('d', 5);
    map.set('e', 6);
    expect(map.get('a')).toBe(4);
    expect(map.has('b')).toBe(false);
    expect(map.size).toBeLessThanOrEqual(4);
  });

  it('deletes from either generation and clears', () => {
    const map = new BoundedMap<string, number>(4);
    map.set('a', 1);
    map.set('b', 2);
    map.set('c', 3);
    expect(map.delete('a')).toBe(true);
    expect(map.delete('c')).toBe(true);
    expect(map.delete('c')).toBe(false);
    expect(map.get('a')).toBeUndefined();
    expect(map.get('b')).toBe(2);
    map.clear();
    expect(map.size).toBe(0);
    expect(map.get('b')).toBeUndefined();
  });

  it('keeps null values apart from misses', () => {
    const map = new BoundedMap<string, number | null>(4);
    map.set('a', null);
    map.set('b', 1);
    map.set('c', 2);
    expect(map.get('a')).toBeNull();
    expect(map.has('a')).toBe(true);
    expect(map.get('z')).toBeUndefined();
  });
});
