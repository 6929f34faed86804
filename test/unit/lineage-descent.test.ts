/**
 * How the change log leads from a generation a client knew to the one served (descent, in
 * port/change-log.ts): from its change set when the served lineage went through it and the
 * log still holds what followed, else why not, as the sync feed's 410 decides it.
 */
import { describe, expect, it } from 'vitest';
import { descent, type ServedGeneration } from '../../src/port/change-log.ts';
import type { SyncState } from '../../src/port/read-port.ts';

/** Lineage `L` at change set 4, its log kept from change set 2 on. */
const SYNC: SyncState = {
  lineage: 'L',
  seq: 4,
  logFloor: 2,
  generations: ['L', 'g1', 'g2', 'g3', 'g4'],
  cursorKey: 'key',
};

const at = (generation: string, seq: number, lineage = 'L'): ServedGeneration => ({
  generation,
  lineage,
  seq,
});

describe('descent', () => {
  it('leads from a generation served before, of the lineage and within the log', () => {
    expect(descent(at('g2', 2), SYNC)).toEqual({ from: 2 });
    expect(descent(at('g3', 3), SYNC)).toEqual({ from: 3 });
    expect(descent(at('g4', 4), SYNC)).toEqual({ from: 4 });
  });

  it('resets after a full build (another lineage)', () => {
    expect(descent(at('g3', 3, 'M'), SYNC)).toEqual({ reset: 'rebuild' });
  });

  it('resets after a restore: the lineage went another way, or back', () => {
    expect(descent(at('other', 3), SYNC)).toEqual({ reset: 'restore' });
    expect(descent(at('g5', 5), SYNC)).toEqual({ reset: 'restore' });
  });

  it('resets from a generation older than the kept log', () => {
    expect(descent(at('g1', 1), SYNC)).toEqual({ reset: 'expired' });
    expect(descent(at('L', 0), SYNC)).toEqual({ reset: 'expired' });
  });

  it('reads a generation named alone (Last-Event-ID) by its place in the lineage', () => {
    expect(descent('g2', SYNC)).toEqual({ from: 2 });
    expect(descent('g4', SYNC)).toEqual({ from: 4 });
    expect(descent('g1', SYNC)).toEqual({ reset: 'expired' });
    for (const unknown of ['g5', 'M', '', 'garbage \n']) {
      expect(descent(unknown, SYNC)).toEqual({ reset: 'unknown' });
    }
    expect(descent('L', { ...SYNC, logFloor: 0 })).toEqual({ from: 0 });
  });
});
