/**
 * The fair queue (src/port/fair-queue.ts), the store's and admission's: a freed slot to the
 * client using the fewest, turns between clients, each client's own work in order, the deepest
 * line refused first when full, a full queue reported as pressure, and the client taken from
 * the work's context (src/port/client-context.ts).
 */
import { describe, expect, it } from 'vitest';
import { ANONYMOUS_CLIENT, currentClient, runAsClient } from '../../src/port/client-context.ts';
import { FairQueue, type ReleaseSlot, StoreQueuePressure } from '../../src/port/fair-queue.ts';
import { StoreUnavailableError } from '../../src/port/read-port.ts';

/** Asks a queue for slots and records, in order, what was granted or refused. */
class Recorder {
  readonly order: string[] = [];
  /** Releases of the work granted and not yet released, oldest first. */
  private readonly held: ReleaseSlot[] = [];

  constructor(private readonly queue: FairQueue) {}

  ask(client: string, label: string): Promise<void> {
    const outcome = this.queue.acquire(client).then(
      (release) => {
        this.order.push(label);
        this.held.push(release);
      },
      (error: unknown) => {
        this.order.push(`refused ${label}`);
        throw error;
      },
    );
    outcome.catch(() => {});
    return outcome;
  }

  /** Ends the oldest work running, and lets the next grant land. */
  async releaseOne(): Promise<void> {
    this.held.shift()?.();
    await settle();
  }

  /** Ends work one at a time until none runs. */
  async drain(): Promise<void> {
    await settle();
    while (this.queue.running > 0) await this.releaseOne();
  }
}

const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('the store queue', () => {
  it('grants at once while slots are free, then queues', async () => {
    const queue = new FairQueue({ slots: 2, maxWaiting: 0 });
    const asks = new Recorder(queue);
    for (const label of ['a1', 'a2', 'a3']) asks.ask('a', label);
    await settle();
    expect(asks.order).toEqual(['a1', 'a2']);
    expect(queue.running).toBe(2);
    expect(queue.waiting).toBe(1);
    await asks.releaseOne();
    expect(asks.order).toEqual(['a1', 'a2', 'a3']);
    await asks.drain();
    expect(queue.running).toBe(0);
  });

  it('takes turns between the clients with work waiting, each client’s work in order', async () => {
    const asks = new Recorder(new FairQueue({ slots: 1, maxWaiting: 0 }));
    asks.ask('flood', 'running');
    for (let i = 1; i <= 4; i++) asks.ask('flood', `f${i}`);
    asks.ask('other', 'o1');
    asks.ask('polite', 'p1');
    asks.ask('other', 'o2');
    await asks.drain();
    // The flood's running work is its turn: the two others, using no slot, go first.
    expect(asks.order).toEqual(['running', 'o1', 'p1', 'f1', 'o2', 'f2', 'f3', 'f4']);
  });

  it('a polite client waits for at most one turn of each other client, however deep their lines', async () => {
    const asks = new Recorder(new FairQueue({ slots: 1, maxWaiting: 0 }));
    asks.ask('f1', 'running');
    for (let i = 0; i < 50; i++) {
      for (const flooder of ['f1', 'f2', 'f3']) asks.ask(flooder, flooder);
    }
    asks.ask('polite', 'polite');
    await asks.drain();
    // Behind the running one: one turn each of the two flooders using no slot, then the
    // polite client; f1's work was running, so its next waits its turn.
    expect(asks.order.slice(0, 5)).toEqual(['running', 'f2', 'f3', 'polite', 'f1']);
    expect(asks.order).toHaveLength(152);
  });

  it('gives a freed slot to the client using the fewest, however many slots there are', async () => {
    const asks = new Recorder(new FairQueue({ slots: 3, maxWaiting: 0 }));
    // The flood takes every slot while nobody else asks, and queues more.
    for (let i = 1; i <= 6; i++) asks.ask('flood', `f${i}`);
    asks.ask('busy', 'b1');
    asks.ask('busy', 'b2');
    asks.ask('polite', 'p1');
    await settle();
    expect(asks.order).toEqual(['f1', 'f2', 'f3']);
    // Each freed slot goes to a client using none, in turn: busy, polite; then busy (one)
    // before the flood (two).
    await asks.releaseOne();
    await asks.releaseOne();
    expect(asks.order.slice(3)).toEqual(['b1', 'p1']);
    // f3 ends: the flood's work all did, so it uses none, busy one: the flood's turn.
    await asks.releaseOne();
    expect(asks.order.slice(5)).toEqual(['f4']);
    await asks.drain();
    expect(asks.order.slice(6)).toEqual(['b2', 'f5', 'f6']);
  });

  it('one grant per turn of the event loop when asked to: work arriving meanwhile takes part in each choice', async () => {
    const queue = new FairQueue({ slots: 2, maxWaiting: 0, grants: 'one-per-turn' });
    const asks = new Recorder(queue);
    // Even with slots free, nothing is granted before the loop's next turn...
    for (const label of ['f1', 'f2', 'f3']) asks.ask('flood', label);
    asks.ask('polite', 'p1');
    expect(asks.order).toEqual([]);
    // ...then one a turn, to the client using the fewest, in turn.
    await settle();
    expect(asks.order).toEqual(['f1']);
    await settle();
    expect(asks.order).toEqual(['f1', 'p1']);
    await settle();
    expect(asks.order).toEqual(['f1', 'p1']);
    // f1 ends: the flood uses none, and its next is granted in the next turn.
    await asks.releaseOne();
    expect(asks.order).toEqual(['f1', 'p1', 'f2']);
    // p1 ends, and a late client asks before the next turn: it takes part in that choice,
    // and comes before the flood, which uses a slot.
    const released = asks.releaseOne();
    asks.ask('late', 'l1');
    await released;
    expect(asks.order).toEqual(['f1', 'p1', 'f2', 'l1']);
    await asks.drain();
    expect(asks.order).toEqual(['f1', 'p1', 'f2', 'l1', 'f3']);
  });

  it('forgets waiting work whose signal aborts; granted work is not taken back', async () => {
    const queue = new FairQueue({ slots: 1, maxWaiting: 0 });
    const asks = new Recorder(queue);
    asks.ask('a', 'running');
    const gone = new AbortController();
    const abandoned = queue.acquire('b', gone.signal);
    let settled = false;
    abandoned.then(
      () => {
        settled = true;
      },
      () => {
        settled = true;
      },
    );
    asks.ask('c', 'c1');
    expect(queue.waitingOf('b')).toBe(1);
    gone.abort();
    expect(queue.waitingOf('b')).toBe(0);
    expect(queue.waiting).toBe(1);
    await asks.drain();
    expect(asks.order).toEqual(['running', 'c1']);
    expect(settled).toBe(false);
    // Aborted once granted: nothing happens, the slot is the holder's until released.
    const held = new AbortController();
    const release = await queue.acquire('d', held.signal);
    held.abort();
    expect(queue.running).toBe(1);
    release();
    expect(queue.running).toBe(0);
  });

  it('counts each client’s work in flight, and calls heavy a client holding at least the mean', async () => {
    const queue = new FairQueue({ slots: 2, maxWaiting: 0 });
    const asks = new Recorder(queue);
    for (let i = 0; i < 4; i++) asks.ask('flood', `f${i}`);
    asks.ask('light', 'l1');
    await settle();
    expect([queue.runningOf('flood'), queue.waitingOf('flood'), queue.inFlightOf('flood')]).toEqual(
      [2, 2, 4],
    );
    expect(queue.inFlightOf('light')).toBe(1);
    expect(queue.isHeavy('flood')).toBe(true);
    expect(queue.isHeavy('light')).toBe(false);
    // A client with nothing in flight is never heavy.
    expect(queue.isHeavy('polite')).toBe(false);
    await asks.drain();
    expect(queue.inFlightOf('flood')).toBe(0);
  });

  it('refuses with the error it is given', async () => {
    class Full extends Error {}
    const queue = new FairQueue({ slots: 1, maxWaiting: 1, refusal: () => new Full('full') });
    const asks = new Recorder(queue);
    asks.ask('a', 'running');
    asks.ask('a', 'a1');
    await expect(asks.ask('a', 'a2')).rejects.toBeInstanceOf(Full);
    await asks.drain();
  });

  it('when full, refuses the arriving work if its client’s line is the deepest', async () => {
    const queue = new FairQueue({ slots: 1, maxWaiting: 3 });
    const asks = new Recorder(queue);
    asks.ask('a', 'running');
    asks.ask('a', 'a1');
    asks.ask('a', 'a2');
    asks.ask('b', 'b1');
    // Full (3 waiting): a holds 2, the deepest; a's next is refused, not b's.
    const refused = asks.ask('a', 'a3');
    await expect(refused).rejects.toBeInstanceOf(StoreUnavailableError);
    await expect(refused).rejects.toThrow('store is saturated');
    expect(queue.waitingOf('a')).toBe(2);
    expect(queue.waitingOf('b')).toBe(1);
    await asks.drain();
    expect(asks.order).toEqual(['running', 'refused a3', 'b1', 'a1', 'a2']);
  });

  it('when full, refuses the newest waiting work of the deepest client to make room for another', async () => {
    const queue = new FairQueue({ slots: 1, maxWaiting: 3 });
    const asks = new Recorder(queue);
    asks.ask('deep', 'running');
    const d1 = asks.ask('deep', 'd1');
    const d2 = asks.ask('deep', 'd2');
    asks.ask('middle', 'm1');
    asks.ask('polite', 'p1');
    // d2, the newest of the deepest line, gave way; the polite client waits in its place.
    await expect(d2).rejects.toThrow('store is saturated');
    expect(asks.order).toEqual(['running', 'refused d2']);
    expect(queue.waiting).toBe(3);
    // With the arriving work, middle would be as deep as the deepest other: it is refused.
    await expect(asks.ask('middle', 'm2')).rejects.toThrow('store is saturated');
    await asks.drain();
    await d1;
    expect(asks.order).toEqual(['running', 'refused d2', 'refused m2', 'm1', 'p1', 'd1']);
  });

  it('when full of one waiting work per client, refuses the arriving work rather than another client’s only one', async () => {
    const queue = new FairQueue({ slots: 1, maxWaiting: 3 });
    const asks = new Recorder(queue);
    asks.ask('flood', 'running');
    for (const client of ['polite', 'other', 'third']) asks.ask(client, client);
    // The flood's line is empty (its work runs): with the arriving work it would hold 1, as
    // deep as every other line.
    await expect(asks.ask('flood', 'f1')).rejects.toThrow('store is saturated');
    await asks.drain();
    expect(asks.order).toEqual(['running', 'refused f1', 'polite', 'other', 'third']);
  });

  it('reports pressure for a look in which it refused work or stayed full, not otherwise', async () => {
    const queue = new FairQueue({ slots: 1, maxWaiting: 2 });
    const pressure = new StoreQueuePressure();
    const unwatch = pressure.watch(queue);
    const asks = new Recorder(queue);
    expect(pressure.takeSaturated()).toBe(false);
    asks.ask('a', 'running');
    asks.ask('a', 'a1');
    asks.ask('b', 'b1');
    await settle();
    // It became full during this look and refused nothing: no pressure yet.
    expect(pressure.takeSaturated()).toBe(false);
    // Full for the whole of the next look: pressure.
    expect(pressure.takeSaturated()).toBe(true);
    // It drained below full during the look (a1 granted), then filled again: not throughout.
    await asks.releaseOne();
    asks.ask('c', 'c1');
    expect(queue.waiting).toBe(2);
    expect(pressure.takeSaturated()).toBe(false);
    // A refusal is pressure for its look, even when the queue drained meanwhile.
    await expect(asks.ask('c', 'c2')).rejects.toThrow('store is saturated');
    await asks.releaseOne();
    expect(queue.waiting).toBe(1);
    expect(pressure.takeSaturated()).toBe(true);
    expect(pressure.takeSaturated()).toBe(false);
    // A queue no longer watched (its pool closed) reports nothing.
    unwatch();
    asks.ask('d', 'd1');
    await expect(asks.ask('d', 'd2')).rejects.toThrow('store is saturated');
    expect(pressure.takeSaturated()).toBe(false);
    await asks.drain();
  });

  it('without a bound, never refuses and never reports pressure', async () => {
    const queue = new FairQueue({ slots: 1, maxWaiting: 0 });
    const pressure = new StoreQueuePressure();
    pressure.watch(queue);
    const asks = new Recorder(queue);
    for (let i = 0; i < 1000; i++) asks.ask('a', `a${i}`);
    await settle();
    expect(queue.waiting).toBe(999);
    expect(pressure.takeSaturated()).toBe(false);
    expect(pressure.takeSaturated()).toBe(false);
    await asks.drain();
    expect(asks.order).toHaveLength(1000);
  });

  it('closes whichever levels of slots in use its clients reached', async () => {
    const queue = new FairQueue({ slots: 3, maxWaiting: 0 });
    const asks = new Recorder(queue);
    // A client reaches two slots in use (and waits) before any client has waited at one.
    asks.ask('a', 'a1');
    asks.ask('a', 'a2');
    asks.ask('b', 'b1');
    asks.ask('a', 'a3');
    const waiting = asks.ask('a', 'a4');
    await settle();
    queue.close(new StoreUnavailableError('store is closed'));
    await expect(waiting).rejects.toThrow('store is closed');
    await asks.drain();
  });

  it('closed: refuses the waiting work and all work to come; running work ends as usual', async () => {
    const queue = new FairQueue({ slots: 1, maxWaiting: 0 });
    const asks = new Recorder(queue);
    asks.ask('a', 'running');
    const waiting = asks.ask('b', 'b1');
    queue.close(new StoreUnavailableError('store is closed'));
    await expect(waiting).rejects.toThrow('store is closed');
    await expect(queue.acquire('c')).rejects.toThrow('store is closed');
    expect(queue.running).toBe(1);
    await asks.drain();
    expect(queue.running).toBe(0);
  });

  it('work waiting past maxWaitMs fails, and leaves its place to the next', async () => {
    const queue = new FairQueue({ slots: 1, maxWaiting: 0, maxWaitMs: 20 });
    const asks = new Recorder(queue);
    asks.ask('a', 'running');
    await expect(asks.ask('b', 'b1')).rejects.toThrow('no store connection within 20 ms');
    expect(queue.waiting).toBe(0);
    asks.ask('c', 'c1');
    await asks.drain();
    expect(asks.order).toEqual(['running', 'refused b1', 'c1']);
  });

  it('a release counts once however often it is called', async () => {
    const queue = new FairQueue({ slots: 1, maxWaiting: 0 });
    const release = await queue.acquire('a');
    const asks = new Recorder(queue);
    asks.ask('b', 'b1');
    asks.ask('c', 'c1');
    release();
    release();
    await settle();
    expect(asks.order).toEqual(['b1']);
    expect(queue.running).toBe(1);
    await asks.drain();
    expect(asks.order).toEqual(['b1', 'c1']);
  });
});

describe('the client of the work', () => {
  it('is the one the work runs as, through awaits and timers; anonymous outside any', async () => {
    expect(currentClient()).toBe(ANONYMOUS_CLIENT);
    const seen = await runAsClient('token:abc', async () => {
      await settle();
      const inTimer = await new Promise<string>((resolve) =>
        setTimeout(() => resolve(currentClient()), 1),
      );
      return [currentClient(), inTimer];
    });
    expect(seen).toEqual(['token:abc', 'token:abc']);
    expect(currentClient()).toBe(ANONYMOUS_CLIENT);
  });

  it('queues work in the line of the client it runs as', async () => {
    const queue = new FairQueue({ slots: 1, maxWaiting: 0 });
    const release = await queue.acquire();
    const waiting = runAsClient('ip:203.0.113.9', () => queue.acquire());
    const anonymous = queue.acquire();
    expect(queue.waitingOf('ip:203.0.113.9')).toBe(1);
    expect(queue.waitingOf(ANONYMOUS_CLIENT)).toBe(1);
    release();
    (await waiting)();
    (await anonymous)();
  });
});
