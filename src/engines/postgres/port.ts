/**
 * The PostgreSQL adapter of the read port: one published generation (a schema) of a cluster
 * sharded by user, read through the coordinator. Every statement names one user, so the
 * coordinator prunes it to that user's bucket and runs it on one shard. The connection pool is
 * shared by the generations a server reads in turn; tokens are read from the coordinator. Each
 * area's statements live in this folder, one module per area, each a factory of the area's
 * reads over the pool and the generation's schema.
 */
import { type StoreFormatFields, storeFormatProblem } from '../../contract/store-format.ts';
import { cursorKeyOf, generationsOf } from '../../port/change-log.ts';
import { memoizedPort } from '../../port/memo.ts';
import {
  PartsUnavailableError,
  type PublishedSync,
  type ReadPort,
  StoreFormatError,
  StoreUnavailableError,
  type SyncState,
} from '../../port/read-port.ts';
import { withoutUnmatchableText } from '../../port/unmatchable.ts';
import { type WorkingSet, withWorkingSet } from '../../port/working-set/port.ts';
import { PLATFORM_RULES_FINGERPRINT } from '../../sql/platform.ts';
import type { FollowedTokens } from '../../tokens/followed-tokens.ts';
import { balanceReads } from './balances.ts';
import { changeReads } from './changes.ts';
import { incomeReads } from './income.ts';
import { ledgerReads } from './ledger.ts';
import { liabilityReads } from './liabilities.ts';
import { linkReads } from './links.ts';
import { CHANGE_SETS_SQL, CURRENT_GENERATION_SQL, SYNC_STATE_SQL } from './meta.ts';
import { PgPool, type PgPoolOptions } from './pool.ts';
import { recurringReads } from './recurring.ts';
import { SpendingQueries } from './spending.ts';
import { type CoordinatorTokens, lookupToken } from './tokens.ts';
import { SHARD_PROBE_PREFIX } from './topology.ts';
import { transactionReads } from './transactions.ts';
import { userReads } from './users.ts';

export interface PostgresPortOptions extends PgPoolOptions {
  /**
   * A token store file to read tokens from instead of the coordinator's table (tests that
   * share their token fixtures with the DuckDB engine).
   */
  tokens?: FollowedTokens;
  /** The process's cache of the coordinator's tokens; without it, each token is looked up. */
  coordinatorTokens?: CoordinatorTokens;
  /** The process's working set of users' transactions (port/working-set/), if any. */
  workingSet?: WorkingSet;
}

interface Published extends StoreFormatFields {
  generation: string;
  schema_name: string;
  shards: number;
}

/** The generation published now; StoreUnavailableError before the first load. */
async function currentGeneration(pool: PgPool): Promise<Published> {
  const [row] = await pool
    .query<Published & Record<string, unknown>>(CURRENT_GENERATION_SQL)
    .catch((error: unknown) => {
      if ((error as { code?: string }).code === '42P01' || error instanceof StoreUnavailableError)
        throw new StoreUnavailableError(
          'no data has been loaded into the cluster (npm run build-db)',
          {
            cause: error,
          },
        );
      throw error;
    });
  if (!row)
    throw new StoreUnavailableError('no data has been loaded into the cluster (npm run build-db)');
  return row;
}

/**
 * The generation's place among change sets and the cursors' key (read with it: a generation
 * published meanwhile is read by the next port). A cluster loaded before change sets is the
 * start of its own lineage, without a change log.
 */
async function syncStateOf(
  pool: PgPool,
  published: Published,
): Promise<{ sync: SyncState; dataSchema: string | null }> {
  const [row] = await pool.query<{
    lineage: string | null;
    data_schema: string | null;
    seq: number | null;
    log_floor: number | null;
    cursor_key: string | null;
  }>(SYNC_STATE_SQL);
  const current = row?.lineage !== null && row?.lineage !== undefined;
  const lineage = current ? (row?.lineage as string) : published.generation;
  const seq = current ? Number(row?.seq ?? 0) : 0;
  const dataSchema = current ? (row?.data_schema ?? null) : null;
  const applied =
    dataSchema === null
      ? []
      : await pool.query<{ seq: number; generation: string }>(CHANGE_SETS_SQL, [dataSchema, seq]);
  return {
    sync: {
      lineage,
      seq,
      logFloor: current ? Number(row?.log_floor ?? 0) : 0,
      generations: generationsOf(lineage, seq, applied),
      cursorKey: cursorKeyOf(row?.cursor_key, published.generation),
    },
    dataSchema,
  };
}

/** What the coordinator publishes now (a newer generation than a port's, once one is out). */
async function publishedSync(pool: PgPool, port: SyncState): Promise<PublishedSync> {
  const [row] = await pool.query<{ lineage: string | null; seq: number | null }>(SYNC_STATE_SQL);
  if (!row?.lineage) return { lineage: port.lineage, seq: port.seq };
  return { lineage: row.lineage, seq: Number(row.seq ?? 0) };
}

/** The read port of one generation of a cluster. */
export interface PostgresPort extends ReadPort {
  readonly pool: PgPool;
  /** The generation's schema (tests and benchmarks that EXPLAIN a statement). */
  readonly schema: string;
}

/** The coordinator answers, and so does every shard (the one that does not is named). */
async function pingShards(pool: PgPool, shardCount: number): Promise<void> {
  await pool.query('SELECT 1 AS ok');
  const shards = Array.from({ length: shardCount }, (_, k) => k + 1);
  const failures = await Promise.all(
    shards.map((shard) =>
      pool.query(`SELECT ok FROM public.${SHARD_PROBE_PREFIX}${shard}`).then(
        () => null,
        (error: unknown) => ({ shard: `shard_${shard}`, error }),
      ),
    ),
  );
  const missing = failures.filter((failure) => failure !== null);
  if (missing.length > 0) {
    throw new PartsUnavailableError(
      missing.map((failure) => failure.shard),
      { cause: missing[0]?.error },
    );
  }
}

/**
 * Opens the generation published now, on a shared pool (kept open by `close`) or on a
 * database URL (a pool of its own, closed with the port).
 */
export async function openPostgresPort(
  target: PgPool | string,
  options: PostgresPortOptions = {},
): Promise<PostgresPort> {
  const { tokens, coordinatorTokens, workingSet, ...poolOptions } = options;
  const ownsPool = typeof target === 'string';
  const pool = typeof target === 'string' ? new PgPool(target, poolOptions) : target;
  try {
    const published = await currentGeneration(pool);
    const problem = storeFormatProblem(published, PLATFORM_RULES_FINGERPRINT);
    if (problem)
      throw new StoreFormatError(`the cluster's generation ${published.generation}`, problem);
    const { sync, dataSchema } = await syncStateOf(pool, published);
    const s = published.schema_name;
    const spending = await SpendingQueries.of(pool, s);
    const port = memoizedPort(
      withWorkingSet(
        {
          generation: published.generation,
          sync,
          ping: () => pingShards(pool, published.shards),
          publishedSync: () => publishedSync(pool, sync),
          close: async () => {
            if (ownsPool) await pool.close();
          },
          // From the token file when there is one, else from the coordinator's token table,
          // through the process's cache when there is one.
          liveTokenOwner: async (tokenHash) =>
            tokens
              ? tokens.liveOwner(tokenHash)
              : coordinatorTokens
                ? coordinatorTokens.owner(tokenHash)
                : lookupToken(pool, tokenHash),
          ...userReads(pool, s),
          ...transactionReads(pool, s, dataSchema),
          ...changeReads(pool, dataSchema),
          ...linkReads(pool, s),
          ...balanceReads(pool, s),
          ...incomeReads(pool, s),
          ...liabilityReads(pool, s),
          ...recurringReads(pool, s),
          spendingAggregates: (query) => spending.spendingAggregates(query),
        },
        ledgerReads(pool, s),
        workingSet,
      ),
    );
    return { ...withoutUnmatchableText(port), pool, schema: s };
  } catch (error) {
    if (ownsPool) await pool.close();
    throw error;
  }
}
