/**
 * The cluster's packed ledgers (contract/ledger.ts; schema.ts, `ledgers`): a full load copies
 * the built DuckDB store's rows into their buckets, and a change set packs again, on the loader,
 * the ledgers of the users it touched, from their rows on the shard. The ledgers are written
 * as bytes (a binary COPY); the records are read as bytea's hex text (pg 8 cannot read a
 * binary-format result: PgPool.queryBytes).
 */
import { Buffer } from 'node:buffer';
import { DuckDBBlobVector, type DuckDBConnection } from '@duckdb/node-api';
import type pg from 'pg';
import {
  LEDGERS_TABLE,
  LedgerTooLargeError,
  PACKED_LEDGER_VERSION,
  packLedger,
} from '../../contract/ledger.ts';
import {
  ledgerBatches,
  ledgerRecordsSql,
  PACKED_LEDGER_MAX_ROWS,
  parseLedgerRecords,
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

/**
 * Change set `seq` on one shard, in its transaction once its new rows are written: per bucket,
 * closes the ledgers of the bucket's `users` (gen_to = seq) and writes those of the ones still
 * there, packed from their rows visible at `seq` (gen_from = seq). A removed user, one over
 * PACKED_LEDGER_MAX_ROWS or one whose ledger cannot be held exactly gets none: the engine
 * answers for them. The shard reads a batch's records while the loader packs the one before.
 */
export async function repackLedgers(
  client: pg.Client,
  dataSchema: string,
  seq: number,
  usersByBucket: ReadonlyMap<number, readonly string[]>,
): Promise<LedgersWritten> {
  const jobs: { bucket: number; users: string[] }[] = [];
  let notPacked = 0;
  for (const [bucket, users] of usersByBucket) {
    await client.query(
      `UPDATE ${dataSchema}.${LEDGERS_TABLE}_p${bucket} SET gen_to = ${seq}
       WHERE gen_to IS NULL AND user_id = ANY($1::text[])`,
      [users],
    );
    const { rows: planned } = await client.query<{ user_id: string; transactions: number }>(
      `SELECT u.id AS user_id, count(t.user_id)::integer AS transactions
       FROM ${dataSchema}.${bucketTable('users', bucket)} u
       LEFT JOIN ${dataSchema}.${bucketTable('transactions', bucket)} t
         ON t.user_id = u.id AND ${visibleAt(seq, 't.')}
       WHERE ${visibleAt(seq, 'u.')} AND u.id = ANY($1::text[])
       GROUP BY u.id ORDER BY u.id`,
      [users],
    );
    const held = planned.filter((user) => user.transactions <= PACKED_LEDGER_MAX_ROWS);
    notPacked += planned.length - held.length;
    for (const batch of ledgerBatches(held)) {
      jobs.push({ bucket, users: batch.map((user) => user.user_id) });
    }
  }
  // In text format: pg 8 would read binary-format values as UTF-8 text (PgPool.queryBytes).
  const read = (job: { bucket: number; users: string[] }) =>
    client.query<[string, number, Buffer]>({
      text: ledgerRecordsSql(
        'postgres',
        `${dataSchema}.${bucketTable('transactions', job.bucket)}`,
        `${visibleAt(seq, 't.')} AND t.user_id = ANY($1::text[])`,
      ),
      values: [job.users],
      rowMode: 'array',
    } as pg.QueryConfig);
  let packed = 0;
  let reading = jobs[0] && read(jobs[0]);
  let copying: Promise<number> | undefined;
  for (const [index, job] of jobs.entries()) {
    const { rows } = await (reading as ReturnType<typeof read>);
    const following = jobs[index + 1];
    reading = following && read(following);
    const records = new Map(rows.map(([userId, count, bytes]) => [userId, { count, bytes }]));
    const ledgers: LedgerRow[] = [];
    for (const userId of job.users) {
      const found = records.get(userId) ?? { count: 0, bytes: Buffer.alloc(0) };
      try {
        ledgers.push({
          userId,
          packed: packLedger(parseLedgerRecords(found.bytes, found.count)),
          transactions: found.count,
          formatVersion: PACKED_LEDGER_VERSION,
        });
      } catch (error) {
        if (!(error instanceof LedgerTooLargeError)) throw error;
        notPacked++;
      }
    }
    packed += await (copying ?? 0);
    copying = copyBinary(client, `${dataSchema}.${LEDGERS_TABLE}_p${job.bucket}`, COPY_COLUMNS, [
      ledgerTuples(ledgers, seq),
    ]);
    // Awaited with the next batch, or at the end; a failure is not left unheard before.
    copying.catch(() => {});
  }
  packed += await (copying ?? 0);
  return { packed, notPacked };
}
