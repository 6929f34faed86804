/**
 * The sync feed (`GET /v2/users/transactions/sync`): what changed in a user's transactions
 * since a cursor, read from the change log (ingest/changes.ts).
 *
 * A cursor names a lineage (the full build the data descends from), the change set a client's
 * copy stands at (`from`; none before the first sync), and, while a sync is under way, the
 * change set it reads up to (`to`, fixed when it started, so every page reads the same
 * generation) and the last id sent. It is signed (HMAC-SHA256 with the store's cursor key,
 * over the user's id too): an edited, truncated or foreign cursor is refused, never read.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { ReadPort, TransactionRecord } from '../../port/read-port.ts';

export interface CursorState {
  lineage: string;
  /** The change set the client's copy stands at; null: it holds nothing yet. */
  from: number | null;
  /** While a sync is under way: the change set it reads up to, and the last id it sent. */
  to: number | null;
  after: string | null;
}

const VERSION = 1;
const MAC_BYTES = 16;

function mac(key: string, userId: string, payload: string): Buffer {
  return createHmac('sha256', key).update(`${userId}\n${payload}`).digest().subarray(0, MAC_BYTES);
}

export function encodeCursor(key: string, userId: string, state: CursorState): string {
  const payload = Buffer.from(
    JSON.stringify([VERSION, state.lineage, state.from, state.to, state.after]),
  ).toString('base64url');
  return `${payload}.${mac(key, userId, payload).toString('base64url')}`;
}

const isSeq = (value: unknown): value is number =>
  typeof value === 'number' && Number.isSafeInteger(value) && value >= 0;

/** The cursor's state, or null when it is not one this store signed for this user. */
export function decodeCursor(key: string, userId: string, text: string): CursorState | null {
  const [payload, signature, ...rest] = text.split('.');
  if (!payload || !signature || rest.length > 0) return null;
  const expected = mac(key, userId, payload);
  const given = Buffer.from(signature, 'base64url');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
  } catch {
    return null;
  }
  if (!Array.isArray(parsed) || parsed.length !== 5 || parsed[0] !== VERSION) return null;
  const [, lineage, from, to, after] = parsed as unknown[];
  if (typeof lineage !== 'string') return null;
  if (from !== null && !isSeq(from)) return null;
  if (to !== null && !isSeq(to)) return null;
  if (after !== null && typeof after !== 'string') return null;
  return { lineage, from, to, after };
}

/** Why a cursor cannot be followed here. */
export type SyncRefusal =
  /** Older than the kept change log, or of a lineage replaced by a full build: start again. */
  | 'gone'
  /** Ahead of the generation this replica serves (another replica is already on a newer one). */
  | 'ahead';

export interface SyncPage {
  added: TransactionRecord[];
  modified: TransactionRecord[];
  removed: { id: string }[];
  next: CursorState;
  hasMore: boolean;
}

/**
 * One page of a sync, read from `port` (the generation the request started on): `count`
 * changes at most, by id, from the cursor's state (null: a first sync).
 */
export async function syncPage(
  port: ReadPort,
  userId: string,
  cursor: CursorState | null,
  count: number,
): Promise<SyncPage | SyncRefusal> {
  const { sync } = port;
  const from = cursor ? cursor.from : null;
  const to = cursor?.to ?? sync.seq;
  const after = cursor?.after ?? null;
  if (cursor && cursor.lineage !== sync.lineage) return 'gone';
  if (to > sync.seq || (from !== null && from > sync.seq)) return 'ahead';
  if (from !== null && from < sync.logFloor) return 'gone';
  const page: SyncPage = {
    added: [],
    modified: [],
    removed: [],
    next: { lineage: sync.lineage, from: to, to: null, after: null },
    hasMore: false,
  };
  let ids: string[];
  if (from === null) {
    const rows = await snapshot(port, userId, to, after, count + 1);
    if (rows === 'gone') return 'gone';
    page.added = rows.slice(0, count);
    ids = rows.map((row) => row.id);
  } else {
    const changes =
      from === to
        ? []
        : await port.transactionChanges(userId, { from, to, after, limit: count + 1 });
    for (const change of changes.slice(0, count)) {
      if (change.after === null) page.removed.push({ id: change.id });
      else if (change.before === null) page.added.push(change.after);
      else page.modified.push(change.after);
    }
    ids = changes.map((change) => change.id);
  }
  if (ids.length > count) {
    page.hasMore = true;
    page.next = { lineage: sync.lineage, from, to, after: ids[count - 1] as string };
  }
  return page;
}

/**
 * The user's transactions as change set `to` left them, ids after `after`, by id: the current
 * ones, unless later change sets were published since `to`, whose changes are then undone from
 * the change log (each transaction they touched as it was before the first of them). Ids
 * compare as the stores compare them: by UTF-8 bytes, which is code point order.
 */
async function snapshot(
  port: ReadPort,
  userId: string,
  to: number,
  after: string | null,
  limit: number,
): Promise<TransactionRecord[] | 'gone'> {
  if (to === port.sync.seq) return port.transactionsById(userId, after, limit);
  if (to < port.sync.logFloor) return 'gone';
  const later = await port.transactionChanges(userId, {
    from: to,
    to: port.sync.seq,
    after,
    limit: null,
  });
  const touched = new Set(later.map((change) => change.id));
  const current = await port.transactionsById(userId, after, limit + touched.size);
  const rows = [
    ...current.filter((row) => !touched.has(row.id)),
    ...later.flatMap((change) => (change.before ? [change.before] : [])),
  ];
  rows.sort((a, b) => Buffer.compare(Buffer.from(a.id), Buffer.from(b.id)));
  return rows.slice(0, limit);
}
