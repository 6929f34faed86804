/**
 * Sync cursors (src/areas/transactions/sync.ts): signed, naming the generation of each change
 * set they stand at; a cursor is followed only along the store's own history.
 */
import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  type CursorState,
  decodeCursor,
  encodeCursor,
  syncPage,
} from '../../src/areas/transactions/sync.ts';
import type { PublishedSync, ReadPort, SyncState } from '../../src/port/read-port.ts';

const KEY = 'key';
const USER = 'usr_a';

/** A port of change set `seq` of lineage `g0` whose change sets published g0, g1, g2, ... */
function portAt(seq: number, published: PublishedSync, generations?: string[]): ReadPort {
  const sync: SyncState = {
    lineage: 'g0',
    seq,
    logFloor: 0,
    generations: generations ?? Array.from({ length: seq + 1 }, (_, k) => `g${k}`),
    cursorKey: KEY,
  };
  return {
    generation: sync.generations[seq],
    sync,
    publishedSync: async () => published,
    transactionChanges: async () => [],
    transactionsById: async () => [],
  } as unknown as ReadPort;
}

const at = (from: number, generation = `g${from}`): CursorState => ({
  lineage: 'g0',
  from,
  fromGeneration: generation,
  to: null,
  toGeneration: null,
  after: null,
});

describe('a sync cursor', () => {
  it('round-trips, and is refused when edited or of another user', () => {
    const text = encodeCursor(KEY, USER, at(2));
    expect(decodeCursor(KEY, USER, text)).toEqual(at(2));
    expect(decodeCursor(KEY, 'usr_b', text)).toBeNull();
    expect(decodeCursor('other', USER, text)).toBeNull();
  });

  it('of the version before generations were named is read as stale: the client starts over', () => {
    const payload = Buffer.from(JSON.stringify([1, 'g0', 2, null, null])).toString('base64url');
    const mac = createHmac('sha256', KEY)
      .update(`${USER}\n${payload}`)
      .digest()
      .subarray(0, 16)
      .toString('base64url');
    expect(decodeCursor(KEY, USER, `${payload}.${mac}`)).toBe('stale');
  });

  it('is followed along the store’s own history only', async () => {
    const page = await syncPage(portAt(3, { lineage: 'g0', seq: 3 }), USER, at(2), 10);
    expect(page).toMatchObject({ hasMore: false, generation: 'g3' });
    // The store's change set 2 published another generation: its history went another way.
    expect(await syncPage(portAt(3, { lineage: 'g0', seq: 3 }), USER, at(2, 'gX'), 10)).toBe(
      'gone',
    );
  });

  it('ahead of the port: 503 while the store publishes it, 410 once the store went back', async () => {
    // A replica a moment behind its coordinator.
    expect(await syncPage(portAt(2, { lineage: 'g0', seq: 3 }), USER, at(3), 10)).toBe('ahead');
    // The store itself is at change set 2 (a restored copy): nothing will bring change set 3.
    expect(await syncPage(portAt(2, { lineage: 'g0', seq: 2 }), USER, at(3), 10)).toBe('gone');
    // Another lineage published since (a full rebuild).
    expect(await syncPage(portAt(2, { lineage: 'h0', seq: 9 }), USER, at(3), 10)).toBe('gone');
  });
});
