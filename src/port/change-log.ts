/** The change log's rows (written by ingest/changes.ts), read back by both engines. */
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
