/**
 * Who is shed under pressure (src/http/load-shedding.ts): only a client holding more than its
 * fair share of the requests running; never one that waits for each answer.
 */
import { describe, expect, it } from 'vitest';
import { ClientLoad } from '../../src/http/load-shedding.ts';

describe('a heavy client', () => {
  it('has requests running: a client that waits for each answer is never heavy', () => {
    const load = new ClientLoad();
    const floods = Array.from({ length: 16 }, () => load.start('flooder'));
    expect(load.isHeavy('polite')).toBe(false);
    const answer = load.start('polite');
    answer();
    expect(load.isHeavy('polite')).toBe(false);
    expect(load.isHeavy('flooder')).toBe(true);
    for (const done of floods) done();
    expect(load.isHeavy('flooder')).toBe(false);
    expect(load.size).toBe(0);
  });

  it('holds at least the mean of the clients with requests running: one with fewer is served', () => {
    const load = new ClientLoad();
    for (let i = 0; i < 12; i++) load.start('deep');
    for (let i = 0; i < 4; i++) load.start('middle');
    load.start('dashboard');
    load.start('dashboard');
    // (12 + 4 + 2) / 3 = 6 running on average.
    expect(load.isHeavy('deep')).toBe(true);
    expect(load.isHeavy('middle')).toBe(false);
    expect(load.isHeavy('dashboard')).toBe(false);
    // Alone, a client with a request running holds all of it.
    const alone = new ClientLoad();
    alone.start('only');
    expect(alone.isHeavy('only')).toBe(true);
  });

  it('counts a request once however often its end is reported', () => {
    const load = new ClientLoad();
    const done = load.start('a');
    load.start('b');
    done();
    done();
    expect(load.inFlight('a')).toBe(0);
    expect(load.inFlight('b')).toBe(1);
    expect(load.isHeavy('b')).toBe(true);
  });

  it('tracks at most maxClients clients at once; the others count as light', () => {
    const load = new ClientLoad(2);
    load.start('a');
    load.start('b');
    const untracked = load.start('c');
    expect(load.inFlight('c')).toBe(0);
    expect(load.isHeavy('c')).toBe(false);
    untracked();
    expect(load.size).toBe(2);
  });
});
