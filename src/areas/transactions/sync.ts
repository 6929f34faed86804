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
  /** The generation that change set published (null with `from`). */
  fromGeneration: string | null;
  /** While a sync is under way: the change set it reads up to, and the last id it sent. */
  to: number | null;
  toGeneration: string | null;
  after: string | null;
}

/**
 * 2: a cursor names the generation of each change set it stands at. A cursor of version 1
 * (without them) is read, and answers 410: its store's history cannot be checked against it.
 */
const VERSION = 2;
const MAC_BYTES = 16;

function mac(key: string, userId: string, payload: string): Buffer {
  return createHmac('sha256', key).update(`${userId}\n${payload}`).digest().subarray(0, MAC_BYTES);
}

export function encodeCursor(key: string, userId: string, state: CursorState): string {
  const fields = [
    VERSION,
    state.lineage,
    state.from,
    state.fromGeneration,
    state.to,
    state.toGeneration,
    state.after,
  ];
  const payload = Buffer.from(JSON.stringify(fields)).toString('base64url');
  return `${payload}.${mac(key, userId, payload).toString('base64url')}`;
}

const isSeq = (value: unknown): value is number =>
  typeof value === 'number' && Number.isSafeInteger(value) && value >= 0;
const isText = (value: unknown): value is string | null =>
  value === null || typeof value === 'string';

/**
 * The cursor's state, or null when it is not one this store signed for this user; `'stale'`
 * for one of an earlier version this store signed (it must start over).
 */
export function decodeCursor(
  key: string,
  userId: string,
  text: string,
): CursorState | 'stale' | null {
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
  if (!Array.isArray(parsed)) return null;
  if (parsed[0] === 1 && parsed.length === 5) return 'stale';
  if (parsed.length !== 7 || parsed[0] !== VERSION) return null;
  const [, lineage, from, fromGeneration, to, toGeneration, after] = parsed as unknown[];
  if (typeof lineage !== 'string') return null;
  if (from !== null && !isSeq(from)) return null;
  if (to !== null && !isSeq(to)) return null;
  if (!isText(fromGeneration) || !isText(toGeneration) || !isText(after)) return null;
  if ((from === null) !== (fromGeneration === null) || (to === null) !== (toGeneration === null)) {
    return null;
  }
  return { lineage, from, fromGeneration, to, toGeneration, after };
}

/** Why a cursor cannot be followed here. */
export type SyncRefusal =
  /**
   * Start again: older than the kept change log, of a lineage replaced by a full build, or of a
   * history the store's differs from (a restored copy, a rolled-back sequence).
   */
  | 'gone'
  /** Ahead of the generation this replica serves (another one already serves a newer one). */
  | 'ahead';

export interface SyncPage {
  added: TransactionRecord[];
  modified: TransactionRecord[];
  removed: { id: string }[];
  next: CursorState;
  hasMore: boolean;
  /** The generation the page was read at (the one the sync started on). */
  generation: string;
}

/**
 * Whether the cursor's history is the store's: each change set it names published, here, the
 * generation it names. Null when it is; else why not. A change set past this generation's is
 * `ahead` only while the store publishes it already (a replica a moment behind its
 * coordinator); otherwise the store went back (a restore) and the cursor is `gone`.
 */
async function refusal(port: ReadPort, cursor: CursorState): Promise<SyncRefusal | null> {
  const { sync } = port;
  if (cursor.lineage !== sync.lineage) return 'gone';
  const named = [
    [cursor.from, cursor.fromGeneration],
    [cursor.to, cursor.toGeneration],
  ] as const;
  let newest = -1;
  for (const [seq, generation] of named) {
    if (seq === null) continue;
    if (seq > sync.seq) newest = Math.max(newest, seq);
    else if (sync.generations[seq] !== generation) return 'gone';
  }
  if (newest >= 0) {
    const published = await port.publishedSync();
    return published.lineage === sync.lineage && published.seq >= newest ? 'ahead' : 'gone';
  }
  if (cursor.from !== null && cursor.from < sync.logFloor) return 'gone';
  return null;
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
  if (cursor) {
    const refused = await refusal(port, cursor);
    if (refused) return refused;
  }
  const from = cursor ? cursor.from : null;
  const to = cursor?.to ?? sync.seq;
  const after = cursor?.after ?? null;
  const generationAt = (seq: number) => sync.generations[seq] as string;
  const page: SyncPage = {
    added: [],
    modified: [],
    removed: [],
    next: {
      lineage: sync.lineage,
      from: to,
      fromGeneration: generationAt(to),
      to: null,
      toGeneration: null,
      after: null,
    },
    hasMore: false,
    generation: generationAt(to),
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
    page.next = {
      lineage: sync.lineage,
      from,
      fromGeneration: from === null ? null : generationAt(from),
      to,
      toGeneration: generationAt(to),
      after: ids[count - 1] as string,
    };
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
