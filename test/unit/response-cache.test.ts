import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import { ResponseCache } from '../../src/http/response-cache.ts';
import { planMemory } from '../../src/memory-plan.ts';

describe('ResponseCache', () => {
  it('answers repeats from the cache within one generation and drops everything on a new one', async () => {
    const cache = new ResponseCache({ maxBytes: 1 << 20, maxEntries: 10 });
    let computed = 0;
    const compute = async () => ({ n: ++computed });
    expect(await cache.get('g1', 'a', compute)).toEqual({ n: 1 });
    expect(await cache.get('g1', 'a', compute)).toEqual({ n: 1 });
    expect(await cache.get('g1', 'b', compute)).toEqual({ n: 2 });
    expect(await cache.get('g2', 'a', compute)).toEqual({ n: 3 });
    expect(cache.stats()).toMatchObject({ hits: 1, misses: 3, entries: 1 });
  });

  it('shares one computation between concurrent misses and never caches a failure', async () => {
    const cache = new ResponseCache({ maxBytes: 1 << 20, maxEntries: 10 });
    let calls = 0;
    let release: (value: number) => void = () => {};
    const slow = () => {
      calls++;
      return new Promise<number>((resolve) => {
        release = resolve;
      });
    };
    const both = Promise.all([cache.get('g', 'k', slow), cache.get('g', 'k', slow)]);
    release(7);
    expect(await both).toEqual([7, 7]);
    expect(calls).toBe(1);
    await expect(cache.get('g', 'bad', () => Promise.reject(new Error('boom')))).rejects.toThrow(
      'boom',
    );
    expect(await cache.get('g', 'bad', async () => 8)).toBe(8);
  });

  it('evicts the least recently used entries past its bounds', async () => {
    const cache = new ResponseCache({ maxBytes: 1 << 20, maxEntries: 2 });
    await cache.get('g', 'a', async () => 'A');
    await cache.get('g', 'b', async () => 'B');
    await cache.get('g', 'a', async () => 'A2');
    await cache.get('g', 'c', async () => 'C');
    expect(await cache.get('g', 'a', async () => 'A3')).toBe('A');
    expect(await cache.get('g', 'b', async () => 'B2')).toBe('B2');
    const tiny = new ResponseCache({ maxBytes: 40, maxEntries: 100 });
    await tiny.get('g', 'x', async () => 'a fairly long answer that does not fit');
    expect(tiny.stats().entries).toBe(0);
  });

  it('is off with RESPONSE_CACHE_MB=0', async () => {
    const plan = planMemory(loadConfig({ RESPONSE_CACHE_MB: '0' }), null);
    const cache = new ResponseCache({ maxBytes: plan.responseCache, maxEntries: 100 });
    let calls = 0;
    await cache.get('g', 'k', async () => ++calls);
    await cache.get('g', 'k', async () => ++calls);
    expect(calls).toBe(2);
  });
});
