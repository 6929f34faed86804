/**
 * The hot swap's listeners (the event streams follow generations through them): told once the
 * new generation serves, with a lease on it and the port it replaced; the replaced port closes
 * only once the promise a listener returns has settled (closing a DuckDB instance holds the
 * event loop, which would otherwise come before what the listener writes), at once when the
 * listener returns nothing, and whatever a listener throws.
 */
import { setImmediate as turn } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { type PortLease, SwappablePort } from '../../src/port/hot-swap.ts';
import type { ReadPort } from '../../src/port/read-port.ts';

interface FakePort {
  port: ReadPort;
  closed: () => boolean;
}

function fakePort(generation: string): FakePort {
  let closed = false;
  const port = {
    generation,
    ping: async () => {},
    close: async () => {
      closed = true;
    },
  };
  return { port: port as unknown as ReadPort, closed: () => closed };
}

type Listener = Parameters<SwappablePort['onServe']>[0];

/** Swaps port a for port b, `listener` (given the store) told of it. */
async function swapped(listener: (store: SwappablePort) => Listener) {
  const a = fakePort('a');
  const b = fakePort('b');
  const warnings: string[] = [];
  const store = new SwappablePort(a.port, {
    open: async () => b.port,
    log: { info() {}, warn: (_object, message) => warnings.push(message), error() {} },
  });
  store.onServe(listener(store));
  expect(await store.reload('test')).toBe('swapped');
  return { a, b, store, warnings };
}

describe('the hot swap tells its listeners', () => {
  it('once the new port serves; the port it replaced closes once the listener is done', async () => {
    let told: { lease: PortLease; previous: string; current: string } | undefined;
    let done: () => void = () => {};
    const { a, b } = await swapped((store) => (lease, previous) => {
      told = { lease, previous: previous.generation, current: store.current.generation };
      return new Promise<void>((resolve) => {
        done = resolve;
      });
    });
    expect(told?.lease.port).toBe(b.port);
    expect(told).toMatchObject({ previous: 'a', current: 'b' });
    await turn();
    await turn();
    expect(a.closed()).toBe(false);
    done();
    told?.lease.release();
    await turn();
    await turn();
    expect(a.closed()).toBe(true);
    expect(b.closed()).toBe(false);
  });

  it('closes the replaced port at once when the listener returns nothing, or throws', async () => {
    const cases: [Listener, string[]][] = [
      [(lease) => lease.release(), []],
      [
        (lease) => {
          lease.release();
          throw new Error('listener failed');
        },
        ['a listener of the swap failed'],
      ],
    ];
    for (const [listener, logged] of cases) {
      const { a, warnings } = await swapped(() => listener);
      await turn();
      expect(a.closed()).toBe(true);
      expect(warnings).toEqual(logged);
    }
  });
});
