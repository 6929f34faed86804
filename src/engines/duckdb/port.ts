/**
 * The DuckDB adapter of the read port: one store file, opened read-only through a hardened
 * connection pool. Each area's SQL lives in this folder, one module per area, each a factory
 * of the area's reads over the pool.
 */

import { LEDGERS_TABLE } from '../../contract/ledger.ts';
import { type StoreFormatFields, storeFormatProblem } from '../../contract/store-format.ts';
import { CHANGE_SETS_TABLE, STORE_META_TABLE, TABLE_NAMES } from '../../contract/tables.ts';
import { cursorKeyOf, generationsOf } from '../../port/change-log.ts';
import { memoizedPort } from '../../port/memo.ts';
import { type ReadPort, StoreFormatError, type SyncState } from '../../port/read-port.ts';
import { withoutUnmatchableText } from '../../port/unmatchable.ts';
import { type WorkingSet, withWorkingSet } from '../../port/working-set/port.ts';
import { PLATFORM_RULES_FINGERPRINT } from '../../sql/platform.ts';
import { FollowedTokens } from '../../tokens/followed-tokens.ts';
import { tokensPathFor } from '../../tokens/path.ts';
import { balanceReads } from './balances.ts';
import { changeReads } from './changes.ts';
import { incomeReads } from './income.ts';
import { ledgerReads } from './ledger.ts';
import { liabilityReads } from './liabilities.ts';
import { linkReads } from './links.ts';
import { DuckDbPool, type DuckDbPoolOptions } from './pool.ts';
import { recurringReads } from './recurring.ts';
import { spendingAggregates, spendingReadsOf } from './spending.ts';
import { transactionReads } from './transactions.ts';
import { userReads } from './users.ts';

export interface DuckDbPortOptions extends DuckDbPoolOptions {
  /**
   * The token store, followed and shared across generations (the server's). Without it the
   * port follows the one beside the store file itself, and closes it with the port.
   */
  tokens?: FollowedTokens;
  /** The process's working set of users' transactions (port/working-set/), if any. */
  workingSet?: WorkingSet;
}

/** The read port of a store file. */
export interface DuckDbPort extends ReadPort {
  /** The connection pool, for the few callers that need raw SQL (benchmarks, tests). */
  readonly pool: DuckDbPool;
}

/**
 * The store's place among change sets (store_meta); a store built before change sets is the
 * start of its own lineage.
 */
async function syncStateOf(
  pool: DuckDbPool,
  row: Record<string, unknown> | undefined,
): Promise<SyncState> {
  const generation = String(row?.generation ?? pool.generation);
  const key = row?.cursor_key;
  const lineage = typeof row?.lineage === 'string' ? row.lineage : generation;
  const seq = Number(row?.seq ?? 0);
  const applied = await pool.query<{ seq: number; generation: string }>(
    `SELECT seq, generation FROM ${CHANGE_SETS_TABLE} WHERE seq <= $1::INTEGER ORDER BY seq`,
    [seq],
  );
  return {
    lineage,
    seq,
    logFloor: Number(row?.log_floor ?? 0),
    generations: generationsOf(lineage, seq, applied),
    cursorKey: cursorKeyOf(typeof key === 'string' ? key : null, generation),
  };
}

/** Opens the file and checks it before it serves: it answers, and every table is there. */
export async function openDuckDbPort(
  path: string,
  options: DuckDbPortOptions = {},
): Promise<DuckDbPort> {
  const { tokens, workingSet, ...poolOptions } = options;
  const pool = await DuckDbPool.open(path, poolOptions);
  let followed = tokens;
  try {
    for (const table of [...TABLE_NAMES, LEDGERS_TABLE]) {
      await pool.query(`SELECT * FROM ${table} LIMIT 0`);
    }
    const [meta] = await pool.query<StoreFormatFields & Record<string, unknown>>(
      `SELECT * FROM ${STORE_META_TABLE}`,
    );
    const problem = storeFormatProblem(meta, PLATFORM_RULES_FINGERPRINT);
    if (problem) throw new StoreFormatError(path, problem);
    // How the spending analysis reads (the store's fastest).
    const spendingReads = await spendingReadsOf(pool);
    const sync = await syncStateOf(pool, meta);
    followed ??= await FollowedTokens.open(tokensPathFor(path), {
      spillBase: poolOptions.tempDirectory,
    });
    const fileTokens = followed;
    const port = memoizedPort(
      withWorkingSet(
        {
          generation: pool.generation,
          sync,
          // The store answers, and its file is intact as far as can be told (DuckDbPool.ping).
          ping: () => pool.ping(),
          engineMemory: async () => {
            const [row] = await pool.query<{ bytes: string | number | null }>(
              'SELECT sum(memory_usage_bytes)::BIGINT AS bytes FROM duckdb_memory()',
            );
            return Number(row?.bytes ?? 0);
          },
          // The file is what is published: a newer one is another port.
          publishedSync: async () => sync,
          close: () => {
            if (tokens === undefined) fileTokens.close();
            return pool.close();
          },
          // From the followed token store: no analytics query.
          liveTokenOwner: async (tokenHash) => fileTokens.liveOwner(tokenHash),
          ...userReads(pool),
          ...transactionReads(pool),
          ...changeReads(pool),
          ...linkReads(pool),
          ...balanceReads(pool),
          ...incomeReads(pool),
          ...liabilityReads(pool),
          ...recurringReads(pool),
          spendingAggregates: (query) => spendingAggregates(pool, query, spendingReads),
        },
        ledgerReads(pool),
        workingSet,
        () => pool.assertReadable(),
      ),
    );
    return { ...withoutUnmatchableText(port), pool };
  } catch (error) {
    if (tokens === undefined) followed?.close();
    await pool.close();
    throw error;
  }
}
