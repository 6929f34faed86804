/**
 * The change log as both engines read it back: its rows (written by ingest/changes.ts), and
 * the key its sync cursors are signed with.
 */
import { createHash } from 'node:crypto';
import type { SyncState, TransactionChange, TransactionRecord } from './read-port.ts';

/** A change log row as a change: its images (JSON text of listed rows) parsed. */
export function changeOf(row: {
  id: string;
  before: string | null;
  after: string | null;
}): TransactionChange {
  const parse = (image: string | null) =>
    image === null ? null : (JSON.parse(image) as TransactionRecord);
  return { id: row.id, before: parse(row.before), after: parse(row.after) };
}

/**
 * The key a generation's sync cursors are signed with: the stored one, or, for a store built
 * before change sets (none stored), one derived from its generation, the start of its lineage.
 */
export function cursorKeyOf(stored: string | null | undefined, generation: string): string {
  return stored || createHash('sha256').update(`sync:${generation}`).digest('base64url');
}

/**
 * The generations of a lineage's change sets 0 to `seq` (SyncState.generations): the lineage's
 * own (the full build's) first, then each applied one's, from the store's record of them.
 */
export function generationsOf(
  lineage: string,
  seq: number,
  applied: readonly { seq: number | string; generation: string }[],
): string[] {
  const generations = [lineage];
  for (const change of applied) generations[Number(change.seq)] = change.generation;
  for (let k = 1; k <= seq; k++) {
    if (generations[k] === undefined) {
      throw new Error(`the store records no generation for its change set ${k} of ${seq}`);
    }
  }
  return generations.slice(0, seq + 1);
}

/**
 * Why a client's copy cannot be brought to a generation by the change log (the sync feed's
 * 410): `rebuild`, a full build started another lineage; `restore`, the store went back (a
 * copy of an earlier generation published again, change sets applied to one); `expired`, the
 * copy is older than the change log kept; `unknown`, a generation this lineage never had.
 */
export type ResetReason = 'rebuild' | 'restore' | 'expired' | 'unknown';

/** From which change set the log leads to a generation, or why it cannot. */
export type Descent = { from: number } | { reset: ResetReason };

/** A generation as a server served it: where it stood in its lineage. */
export interface ServedGeneration {
  generation: string;
  lineage: string;
  seq: number;
}

/** `port`'s generation as served. */
export const servedGeneration = (port: {
  generation: string;
  sync: SyncState;
}): ServedGeneration => ({
  generation: port.generation,
  lineage: port.sync.lineage,
  seq: port.sync.seq,
});

/**
 * How the change log of `sync` leads from `known` (a generation served before, or a
 * generation's id alone, as a client names it) to `sync`'s generation: exactly when a sync
 * cursor standing at `known` would be followed (src/areas/transactions/sync.ts).
 */
export function descent(known: ServedGeneration | string, sync: SyncState): Descent {
  let seq: number;
  if (typeof known === 'string') {
    seq = sync.generations.indexOf(known);
    if (seq < 0) return { reset: 'unknown' };
  } else {
    if (known.lineage !== sync.lineage) return { reset: 'rebuild' };
    seq = known.seq;
    if (seq > sync.seq || sync.generations[seq] !== known.generation) return { reset: 'restore' };
  }
  return seq < sync.logFloor ? { reset: 'expired' } : { from: seq };
}
