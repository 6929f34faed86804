/**
 * The cluster's monthly rollup (ingest/postgres/schema.ts): a dense user's whole months are
 * read from it, and every answer is the one the DuckDB store answers from its transactions
 * (the same data, shaped the same), on windows of whole and partial months, every grouping,
 * scope and period; each statement still runs on the user's shard, aggregated there.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  SPENDING_MONTHLY_TABLE,
  SPENDING_MONTHLY_USERS_TABLE,
} from '../../../src/contract/derived.ts';
import { shapeSpendingAnalysis } from '../../../src/domain/spending/shape.ts';
import { DuckDbPool } from '../../../src/engines/duckdb/pool.ts';
import { spendingAggregates } from '../../../src/engines/duckdb/spending.ts';
import { openPostgresPort, type PostgresPort } from '../../../src/engines/postgres/port.ts';
import {
  createTestDatabase,
  expectOnUserShard,
  loadStoreFile,
  RecordingPool,
} from '../../helpers/postgres.ts';
import { buildDenseStore, spendingQueriesFor } from '../../helpers/spending-cases.ts';

let pool: RecordingPool;
let port: PostgresPort;
let duckdb: DuckDbPool;
let denseUserId: string;

beforeAll(async () => {
  const dense = await buildDenseStore();
  denseUserId = dense.denseUserId;
  const databaseUrl = await createTestDatabase();
  await loadStoreFile(databaseUrl, dense.databasePath);
  pool = new RecordingPool(databaseUrl);
  port = await openPostgresPort(pool);
  duckdb = await DuckDbPool.open(dense.databasePath, { poolSize: 2 });
});
afterAll(async () => {
  await pool?.close();
  await duckdb?.close();
});

/** The DuckDB store read from its transactions, not its rollups. */
const ROWS = { source: 'rows', monthlyUsers: new Set<string>() } as const;

// Many query shapes, each answered on both engines: minutes on a loaded two-core machine.
describe('the monthly rollup on the cluster', { timeout: 180_000 }, () => {
  it('holds the dense user only', async () => {
    const users = await pool.query<{ user_id: string }>(
      `SELECT user_id FROM ${port.schema}.${SPENDING_MONTHLY_USERS_TABLE}`,
    );
    expect(users.map((row) => row.user_id)).toEqual([denseUserId]);
  });

  it('answers as the DuckDB store’s transactions do, on the user’s shard', async () => {
    const [typical] = await duckdb.query<{ id: string }>(
      'SELECT id FROM users WHERE id <> $1 ORDER BY id LIMIT 1',
      [denseUserId],
    );
    let monthly = 0;
    for (const userId of [denseUserId, typical?.id as string]) {
      for (const query of await spendingQueriesFor(duckdb, userId)) {
        const before = pool.statements.length;
        const answer = shapeSpendingAnalysis(query, await port.spendingAggregates(query));
        const expected = shapeSpendingAnalysis(
          query,
          await spendingAggregates(duckdb, query, ROWS),
        );
        expect(answer, JSON.stringify(query)).toEqual(expected);
        const statements = pool.statements.slice(before);
        if (statements.some(({ sql }) => sql.includes(`.${SPENDING_MONTHLY_TABLE} `))) monthly++;
        for (const { sql, params } of statements) await expectOnUserShard(pool, sql, params);
      }
    }
    // The dense user's month, quarter and partial-month windows read the monthly rollup.
    expect(monthly).toBeGreaterThan(20);
  });
});
