/**
 * The change log as both engines read it back: its rows (written by ingest/changes.ts), and
 * the key its sync cursors are signed with.
 */
import { createHash } from 'node:crypto';
import type { TransactionChange, TransactionRecord } from './read-port.ts';

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
