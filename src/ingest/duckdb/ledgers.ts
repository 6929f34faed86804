/**
 * The `ledgers` derived table of a DuckDB store (contract/ledger.ts): one row per user of at
 * most PACKED_LEDGER_MAX_ROWS transactions (a user without any included), packed from his rows
 * by a build for every user and by a change set for the users it touched. (The cluster packs a
 * touched user from his ledger before and the delta, sparing the shards his rows; here the rows
 * read quickly, and the bench's change set packed its 2,000 users in 8.8 to 12.4 s from them,
 * against 11.3 to 14.0 s from their ledgers and the delta.)
 */
import { DuckDBBlobVector, type DuckDBConnection, listValue } from '@duckdb/node-api';
import { LEDGERS_TABLE, PACKED_LEDGER_VERSION } from '../../contract/ledger.ts';
import {
  LEDGER_BATCH_ROWS,
  ledgerAccountsSql,
  ledgerBatches,
  ledgerRecordsSql,
  NO_ACCOUNTS,
  PACKED_LEDGER_MAX_ROWS,
  packFromRecords,
} from '../ledgers.ts';
import { formatCount, seconds } from '../progress.ts';

export function ledgersDdl(catalog: string): string {
  return `CREATE TABLE IF NOT EXISTS ${catalog}.main.${LEDGERS_TABLE} (user_id VARCHAR NOT NULL, packed BLOB NOT NULL, transactions INTEGER NOT NULL, format_version INTEGER NOT NULL)`;
}

const EMPTY = new Uint8Array(0);
const encoder = new TextEncoder();

/** Where a statement keeps the rows `alias` of a batch of users ($1 to $3: batchParams). */
const inBatch = (alias: string) =>
  `${alias}.user_id >= $1 AND ${alias}.user_id <= $2 AND list_contains($3, ${alias}.user_id)`;

/**
 * The parameters of inBatch for `batch` (users in id order): the range lets the scan skip the
 * row groups of other users (rows are stored by user).
 */
const batchParams = (batch: readonly { user_id: string }[]) => [
  batch[0]?.user_id as string,
  batch.at(-1)?.user_id as string,
  listValue(batch.map((user) => user.user_id)),
];

/** The accounts (JSON text in UTF-8: ledgerAccountsSql) of those of `batch` who have any. */
async function readAccounts(
  conn: DuckDBConnection,
  store: string,
  batch: readonly { user_id: string }[],
): Promise<Map<string, Uint8Array>> {
  const listed = await conn.runAndReadAll(
    ledgerAccountsSql('duckdb', `${store}.accounts`, inBatch('a')),
    batchParams(batch),
  );
  const accounts = new Map<string, Uint8Array>();
  for (const row of listed.getRowObjectsJson() as { user_id: string; accounts: string }[]) {
    accounts.set(row.user_id, encoder.encode(row.accounts));
  }
  return accounts;
}

/**
 * Packs and appends the ledgers of the users `users` selects (a query of user ids; every user
 * of the store when null) into `catalog`'s ledgers table, in user id order. The caller has
 * removed their previous rows, users read `batchRows` transactions at a time at most. Returns
 * how many were packed, and how many users are not (over the row bound, or amounts a ledger
 * cannot hold exactly): the engine answers for them.
 */
export async function writeLedgers(
  conn: DuckDBConnection,
  catalog: string,
  users: string | null,
  progress: (line: string) => void,
  batchRows = LEDGER_BATCH_ROWS,
): Promise<{ packed: number; notPacked: number }> {
  const started = performance.now();
  const store = `${catalog}.main`;
  await conn.run(ledgersDdl(catalog));
  const planned = (
    await conn.runAndReadAll(
      `SELECT u.id AS user_id, count(t.user_id)::INTEGER AS transactions
       FROM ${store}.users u LEFT JOIN ${store}.transactions t ON t.user_id = u.id
       ${users === null ? '' : `WHERE u.id IN (${users})`}
       GROUP BY u.id ORDER BY u.id`,
    )
  ).getRowObjectsJson() as { user_id: string; transactions: number }[];
  const held = planned.filter((user) => user.transactions <= PACKED_LEDGER_MAX_ROWS);
  let notPacked = planned.length - held.length;
  const appender = await conn.createAppender(LEDGERS_TABLE, 'main', catalog);
  const append = (userId: string, packed: Uint8Array, transactions: number) => {
    appender.appendVarchar(userId);
    appender.appendBlob(packed);
    appender.appendInteger(transactions);
    appender.appendInteger(PACKED_LEDGER_VERSION);
    appender.endRow();
  };
  try {
    for (const batch of ledgerBatches(held, batchRows)) {
      const result = await conn.run(
        ledgerRecordsSql('duckdb', `${store}.transactions`, inBatch('t')),
        batchParams(batch),
      );
      const accounts = await readAccounts(conn, store, batch);
      const records = new Map<string, { rows: number; bytes: Uint8Array }>();
      for (let chunk = 0; chunk < result.chunkCount; chunk++) {
        const data = result.getChunk(chunk);
        const ids = data.getColumnVector(0);
        const counts = data.getColumnVector(1);
        const blobs = data.getColumnVector(2);
        if (!(blobs instanceof DuckDBBlobVector))
          throw new TypeError('ledger records are not a BLOB');
        for (let row = 0; row < data.rowCount; row++) {
          records.set(String(ids.getItem(row)), {
            rows: Number(counts.getItem(row)),
            bytes: blobs.getItemBytes(row) ?? EMPTY,
          });
        }
      }
      for (const user of batch) {
        const found = records.get(user.user_id) ?? { rows: 0, bytes: EMPTY };
        const ledger = packFromRecords(
          found.bytes,
          found.rows,
          accounts.get(user.user_id) ?? NO_ACCOUNTS,
        );
        if (ledger === null) notPacked++;
        else append(user.user_id, ledger.packed, ledger.rows);
      }
    }
    appender.flushSync();
  } finally {
    appender.closeSync();
  }
  // The server reads one row by user: an index finds it without scanning every user's.
  await conn.run(`CREATE INDEX IF NOT EXISTS ledgers_user ON ${store}.${LEDGERS_TABLE} (user_id)`);
  const packed = planned.length - notPacked;
  progress(
    `ledgers: ${formatCount(packed)} packed, ${formatCount(notPacked)} left to the engine (${seconds(started)})`,
  );
  return { packed, notPacked };
}
