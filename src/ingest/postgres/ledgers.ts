/**
 * The cluster's packed ledgers (contract/ledger.ts; schema.ts, `ledgers`): a full load copies
 * the built DuckDB store's rows into their buckets, and a change set packs again, on the loader,
 * the ledgers of the users it touched: each one's ledger before it with the change set's delta
 * applied, or, for a user without one, his rows on the shard; either way with his accounts as
 * the shard holds them after the change set. Ledgers are written as bytes (a binary COPY); the
 * loader reads a closed ledger as bytea's hex text (a query with bind parameters), the server
 * reads a user's as bytes (engines/postgres/ledger.ts: a binary COPY).
 */
import { Buffer } from 'node:buffer';
import { DuckDBBlobVector, type DuckDBConnection } from '@duckdb/node-api';
import type pg from 'pg';
import { LEDGERS_TABLE, PACKED_LEDGER_VERSION } from '../../contract/ledger.ts';
import {
  type LedgerDelta,
  ledgerAccountsSql,
  ledgerBatches,
  ledgerRecordsSql,
  NO_ACCOUNTS,
  PACKED_LEDGER_MAX_ROWS,
  packChangedLedger,
  packFromRecords,
} from '../ledgers.ts';
import { copyBinary } from './client.ts';
import { BUCKETS, bucketTable, LEDGER_COLUMNS, shardOfBucket, visibleAt } from './schema.ts';

/** A ledgers row as a binary COPY writes it. */
interface LedgerRow {
  userId: string;
  packed: Uint8Array;
  transactions: number;
  formatVersion: number;
}

/** The columns a COPY of ledger tuples fills. */
const COPY_COLUMNS = [...LEDGER_COLUMNS, 'gen_from'];

/** `rows` as tuples of a binary COPY into COPY_COLUMNS, each written by change set `genFrom`. */
function ledgerTuples(rows: readonly LedgerRow[], genFrom: number): Buffer {
  // Per row: the field count, then per field its length and its bytes (three int4 fields).
  let size = 0;
  for (const row of rows) size += 2 + 8 + Buffer.byteLength(row.userId) + row.packed.length + 24;
  const out = Buffer.allocUnsafe(size);
  let at = 0;
  for (const row of rows) {
    at = out.writeInt16BE(COPY_COLUMNS.length, at);
    const idLength = out.write(row.userId, at + 4);
    at = out.writeInt32BE(idLength, at) + idLength;
    at = out.writeInt32BE(row.packed.length, at);
    out.set(row.packed, at);
    at += row.packed.length;
    for (const value of [row.transactions, row.formatVersion, genFrom]) {
      at = out.writeInt32BE(4, at);
      at = out.writeInt32BE(value, at);
    }
  }
  return out;
}

/**
 * Copies the built store's ledgers (`duckdb`: the store, with `memory.main.user_bucket`, where
 * the coordinator put each user) into `schema`'s buckets on the shards; returns the rows copied.
 * A bucket is read while the other shards still take theirs; each shard takes one at a time, so
 * at most one bucket per shard is held in memory.
 */
export async function copyBuiltLedgers(
  duckdb: DuckDBConnection,
  shardClients: readonly pg.Client[],
  schema: string,
): Promise<number> {
  const copying = new Map<number, Promise<number>>();
  for (let bucket = 0; bucket < BUCKETS; bucket++) {
    const shard = shardOfBucket(bucket, shardClients.length);
    const copied = await (copying.get(shard) ?? 0);
    const result = await duckdb.run(
      `SELECT l.user_id, l.packed, l.transactions, l.format_version
       FROM ${LEDGERS_TABLE} l JOIN memory.main.user_bucket b ON b.user_id = l.user_id
       WHERE b.bucket = ${bucket}`,
    );
    const tuples: Buffer[] = [];
    for (let chunk = 0; chunk < result.chunkCount; chunk++) {
      const data = result.getChunk(chunk);
      const [ids, blobs, counts, versions] = [0, 1, 2, 3].map((k) => data.getColumnVector(k));
      if (!(blobs instanceof DuckDBBlobVector)) throw new TypeError('packed is not a BLOB');
      const rows: LedgerRow[] = [];
      for (let row = 0; row < data.rowCount; row++) {
        rows.push({
          userId: String(ids?.getItem(row)),
          packed: blobs.getItemBytes(row) ?? new Uint8Array(0),
          transactions: Number(counts?.getItem(row)),
          formatVersion: Number(versions?.getItem(row)),
        });
      }
      tuples.push(ledgerTuples(rows, 0));
    }
    const client = shardClients[shard - 1] as pg.Client;
    const next = copyBinary(client, `${schema}.${LEDGERS_TABLE}_p${bucket}`, COPY_COLUMNS, tuples);
    // Awaited at this shard's next bucket, or at the end; a failure is not left unheard before.
    next.catch(() => {});
    copying.set(
      shard,
      next.then((rows) => copied + rows),
    );
  }
  const perShard = await Promise.all(copying.values());
  return perShard.reduce((sum, rows) => sum + rows, 0);
}

/** What packing the ledgers of a change set's users came to. */
export interface LedgersWritten {
  packed: number;
  /** Users left without a ledger: over PACKED_LEDGER_MAX_ROWS, or not held exactly. */
  notPacked: number;
}

const EMPTY = Buffer.alloc(0);

/** What a batch's read brings, per user (ids): see repackLedgers. */
interface Read {
  /** The accounts (ledgerAccountsSql's JSON text in UTF-8) of those who have any. */
  accounts: Map<string, Uint8Array>;
  /** The closed ledger's bytes, or the records and their count of those who have rows. */
  found: Map<string, { bytes: Buffer; count: number }>;
}

/** Reading a batch of users (ids), then packing each. */
interface Job {
  bucket: number;
  users: string[];
  /** From the ledgers the change set closed, with its delta; or from the shard's rows. */
  from: 'ledgers' | 'rows';
}

/**
 * Change set `seq` on one shard, in its transaction once its new rows are written: per bucket,
 * closes the ledgers of the bucket's `users` (gen_to = seq) and writes those of the ones still
 * there (gen_from = seq). A user's new ledger is his closed one with the change set's `delta`
 * applied (unpacked, changed, packed again: none of his rows read); without one of this
 * layout (a new user, one over the bound before), it is packed from his rows visible at `seq`.
 * Either way its accounts are his accounts visible at `seq`, never the closed ledger's.
 * A removed user, one over PACKED_LEDGER_MAX_ROWS or one whose ledger cannot be held exactly
 * gets none: the engine answers for them. The shard reads a batch while the loader packs the one
 * before.
 */
export async function repackLedgers(
  client: pg.Client,
  dataSchema: string,
  seq: number,
  usersByBucket: ReadonlyMap<number, readonly string[]>,
  delta: LedgerDelta,
): Promise<LedgersWritten> {
  const table = (bucket: number) => `${dataSchema}.${LEDGERS_TABLE}_p${bucket}`;
  const jobs: Job[] = [];
  let notPacked = 0;
  for (const [bucket, users] of usersByBucket) {
    const { rows: closed } = await client.query<{
      user_id: string;
      transactions: number;
      current: boolean;
    }>(
      `UPDATE ${table(bucket)} SET gen_to = ${seq}
       WHERE gen_to IS NULL AND user_id = ANY($1::text[])
       RETURNING user_id, transactions, format_version = ${PACKED_LEDGER_VERSION} AS current`,
      [users],
    );
    const held = closed.filter((user) => user.current && !delta.removed.has(user.user_id));
    const fromLedgers = new Set(held.map((user) => user.user_id));
    for (const batch of ledgerBatches(held)) {
      jobs.push({ bucket, users: batch.map((user) => user.user_id), from: 'ledgers' });
    }
    const others = users.filter((user) => !fromLedgers.has(user) && !delta.removed.has(user));
    if (others.length === 0) continue;
    const { rows: planned } = await client.query<{ user_id: string; transactions: number }>(
      `SELECT u.id AS user_id, count(t.user_id)::integer AS transactions
       FROM ${dataSchema}.${bucketTable('users', bucket)} u
       LEFT JOIN ${dataSchema}.${bucketTable('transactions', bucket)} t
         ON t.user_id = u.id AND ${visibleAt(seq, 't.')}
       WHERE ${visibleAt(seq, 'u.')} AND u.id = ANY($1::text[])
       GROUP BY u.id ORDER BY u.id`,
      [others],
    );
    const bounded = planned.filter((user) => user.transactions <= PACKED_LEDGER_MAX_ROWS);
    notPacked += planned.length - bounded.length;
    for (const batch of ledgerBatches(bounded)) {
      jobs.push({ bucket, users: batch.map((user) => user.user_id), from: 'rows' });
    }
  }
  // In text format: pg 8 would read binary-format values as UTF-8 text (a bytea arrives as its
  // hex text, which pg decodes). Per user read, his closed ledger's bytes, or his records and
  // their count (none: no rows); and his accounts as the change set leaves them, whichever way
  // his ledger is packed.
  const read = async (job: Job): Promise<Read> => {
    const { rows: listed } = await client.query<{ user_id: string; accounts: string }>(
      ledgerAccountsSql(
        'postgres',
        `${dataSchema}.${bucketTable('accounts', job.bucket)}`,
        `${visibleAt(seq, 'a.')} AND a.user_id = ANY($1::text[])`,
      ),
      [job.users],
    );
    const accounts = new Map(listed.map((row) => [row.user_id, Buffer.from(row.accounts)]));
    if (job.from === 'ledgers') {
      const { rows } = await client.query<{ user_id: string; packed: Buffer }>(
        `SELECT user_id, packed FROM ${table(job.bucket)}
         WHERE gen_to = ${seq} AND user_id = ANY($1::text[])`,
        [job.users],
      );
      return {
        accounts,
        found: new Map(rows.map((row) => [row.user_id, { bytes: row.packed, count: 0 }])),
      };
    }
    const { rows } = await client.query<{ user_id: string; transactions: number; records: Buffer }>(
      ledgerRecordsSql(
        'postgres',
        `${dataSchema}.${bucketTable('transactions', job.bucket)}`,
        `${visibleAt(seq, 't.')} AND t.user_id = ANY($1::text[])`,
      ),
      [job.users],
    );
    return {
      accounts,
      found: new Map(
        rows.map((row) => [row.user_id, { bytes: row.records, count: row.transactions }]),
      ),
    };
  };
  let packed = 0;
  let reading = jobs[0] && read(jobs[0]);
  let copying: Promise<number> | undefined;
  for (const [index, job] of jobs.entries()) {
    const { accounts, found } = await (reading as Promise<Read>);
    const following = jobs[index + 1];
    reading = following && read(following);
    const ledgers: LedgerRow[] = [];
    for (const userId of job.users) {
      const own = accounts.get(userId) ?? NO_ACCOUNTS;
      const stored = found.get(userId);
      const ledger =
        job.from === 'ledgers'
          ? packChangedLedger(delta, userId, stored?.bytes ?? EMPTY, own)
          : packFromRecords(stored?.bytes ?? EMPTY, stored?.count ?? 0, own);
      if (ledger === null) notPacked++;
      else {
        ledgers.push({
          userId,
          packed: ledger.packed,
          transactions: ledger.rows,
          formatVersion: PACKED_LEDGER_VERSION,
        });
      }
    }
    packed += await (copying ?? 0);
    copying = copyBinary(client, table(job.bucket), COPY_COLUMNS, [ledgerTuples(ledgers, seq)]);
    // Awaited with the next batch, or at the end; a failure is not left unheard before.
    copying.catch(() => {});
  }
  packed += await (copying ?? 0);
  return { packed, notPacked };
}
