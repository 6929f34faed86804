/**
 * Who is shed under pressure (src/http/admission.ts, with the admission queue's counts,
 * src/port/fair-queue.ts): only a client holding more than its fair share of the requests in
 * flight, running or waiting; never one that waits for each answer.
 */
import { describe, expect, it } from 'vitest';
import { FairQueue, type ReleaseSlot } from '../../src/port/fair-queue.ts';

/** An admission queue with room for everything: every request runs at once. */
function admissions() {
  const queue = new FairQueue({ slots: 1_000, maxWaiting: 0 });
  const start = (client: string): Promise<ReleaseSlot> => queue.acquire(client);
  return { queue, start };
}

describe('a heavy client', () => {
  it('has requests in flight: a client that waits for each answer is never heavy', async () => {
    const { queue, start } = admissions();
    const floods = await Promise.all(Array.from({ length: 16 }, () => start('flooder')));
    expect(queue.isHeavy('polite')).toBe(false);
    const answer = await start('polite');
    answer();
    expect(queue.isHeavy('polite')).toBe(false);
    expect(queue.isHeavy('flooder')).toBe(true);
    for (const done of floods) done();
    expect(queue.isHeavy('flooder')).toBe(false);
    expect(queue.running).toBe(0);
  });

  it('holds at least the mean of the clients with requests in flight: one with fewer is served', async () => {
    const { queue, start } = admissions();
    for (let i = 0; i < 12; i++) await start('deep');
    for (let i = 0; i < 4; i++) await start('middle');
    await start('dashboard');
    await start('dashboard');
    // (12 + 4 + 2) / 3 = 6 in flight on average.
    expect(queue.isHeavy('deep')).toBe(true);
    expect(queue.isHeavy('middle')).toBe(false);
    expect(queue.isHeavy('dashboard')).toBe(false);
    // Alone, a client with a request in flight holds all of it.
    const alone = admissions();
    await alone.start('only');
    expect(alone.queue.isHeavy('only')).toBe(true);
  });

  it('counts its waiting requests too: a flood queued behind few places is heavy', async () => {
    const queue = new FairQueue({ slots: 1, maxWaiting: 0 });
    const running = await queue.acquire('other');
    for (let i = 0; i < 8; i++) void queue.acquire('flooder');
    expect(queue.runningOf('flooder')).toBe(0);
    expect(queue.isHeavy('flooder')).toBe(true);
    expect(queue.isHeavy('other')).toBe(false);
    running();
  });

  it('counts a request once however often its end is reported', async () => {
    const { queue, start } = admissions();
    const done = await start('a');
    await start('b');
    done();
    done();
    expect(queue.inFlightOf('a')).toBe(0);
    expect(queue.inFlightOf('b')).toBe(1);
    expect(queue.isHeavy('b')).toBe(true);
  });
});
