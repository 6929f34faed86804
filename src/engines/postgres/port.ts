/**
 * The PostgreSQL adapter of the read port: one published generation (a schema) of a cluster
 * sharded by user, read through the coordinator. Every statement names one user, so the
 * coordinator prunes it to that user's bucket and runs it on one shard. The connection pool is
 * shared by the generations a server reads in turn; tokens are read from the coordinator.
 */
import { createHash } from 'node:crypto';
import { type StoreFormatFields, storeFormatProblem } from '../../contract/store-format.ts';
import type { Window } from '../../domain/calendar.ts';
import type { SpendingQuery } from '../../domain/spending/model.ts';
import {
  type AccountRecord,
  type ChangeRange,
  type PageWindow,
  PartsUnavailableError,
  type ReadPort,
  StoreFormatError,
  StoreUnavailableError,
  type SyncState,
  type TokenOwner,
  type TransactionFilters,
} from '../../port/read-port.ts';
import type { FollowedTokens } from '../../tokens/followed-tokens.ts';
import { PLATFORM_RULES_FINGERPRINT } from '../sql/platform.ts';
import * as accounts from './accounts.ts';
import * as income from './income.ts';
import * as links from './links.ts';
import { CURRENT_GENERATION_SQL, SYNC_STATE_SQL } from './meta.ts';
import { PgPool, type PgPoolOptions } from './pool.ts';
import { SpendingQueries } from './spending.ts';
import { type CoordinatorTokens, lookupToken } from './tokens.ts';
import { SHARD_PROBE_PREFIX } from './topology.ts';
import { TransactionQueries } from './transactions.ts';
import * as users from './users.ts';

export interface PostgresPortOptions extends PgPoolOptions {
  /**
   * A token store file to read tokens from instead of the coordinator's table (tests that
   * share their token fixtures with the DuckDB engine).
   */
  tokens?: FollowedTokens;
  /** The process's cache of the coordinator's tokens; without it, each token is looked up. */
  coordinatorTokens?: CoordinatorTokens;
}

/** Users known to exist, per port (one generation): bounded, cleared when full. */
const KNOWN_USERS_LIMIT = 100_000;

interface Published extends StoreFormatFields {
  generation: string;
  schema_name: string;
  shards: number;
}

/** The generation published now; StoreUnavailableError before the first load. */
export async function currentGeneration(pool: PgPool): Promise<Published> {
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
  return {
    sync: {
      lineage: current ? (row?.lineage as string) : published.generation,
      seq: current ? Number(row?.seq ?? 0) : 0,
      logFloor: current ? Number(row?.log_floor ?? 0) : 0,
      cursorKey:
        row?.cursor_key ??
        createHash('sha256').update(`sync:${published.generation}`).digest('base64url'),
    },
    dataSchema: current ? (row?.data_schema ?? null) : null,
  };
}

export class PostgresPort implements ReadPort {
  private readonly knownUsers = new Set<string>();
  private readonly accountsByUser = new Map<string, Promise<AccountRecord[]>>();
  private readonly transactionQueries: TransactionQueries;
  private readonly spendingQueries: SpendingQueries;

  private constructor(
    readonly pool: PgPool,
    private readonly published: Published,
    readonly sync: SyncState,
    private readonly tokens: FollowedTokens | undefined,
    private readonly coordinatorTokens: CoordinatorTokens | undefined,
    private readonly ownsPool: boolean,
    spendingQueries: SpendingQueries,
    transactionQueries: TransactionQueries,
  ) {
    this.transactionQueries = transactionQueries;
    this.spendingQueries = spendingQueries;
  }

  /**
   * Opens the generation published now, on a shared pool (kept open by `close`) or on a
   * database URL (a pool of its own, closed with the port).
   */
  static async open(
    target: PgPool | string,
    options: PostgresPortOptions = {},
  ): Promise<PostgresPort> {
    const { tokens, coordinatorTokens, ...poolOptions } = options;
    const pool = typeof target === 'string' ? new PgPool(target, poolOptions) : target;
    try {
      const published = await currentGeneration(pool);
      const problem = storeFormatProblem(published, PLATFORM_RULES_FINGERPRINT);
      if (problem)
        throw new StoreFormatError(`the cluster's generation ${published.generation}`, problem);
      const { sync, dataSchema } = await syncStateOf(pool, published);
      const [spending, transactions] = await Promise.all([
        SpendingQueries.of(pool, published.schema_name),
        TransactionQueries.of(pool, published.schema_name, dataSchema),
      ]);
      return new PostgresPort(
        pool,
        published,
        sync,
        tokens,
        coordinatorTokens,
        typeof target === 'string',
        spending,
        transactions,
      );
    } catch (error) {
      if (typeof target === 'string') await pool.close();
      throw error;
    }
  }

  get generation(): string {
    return this.published.generation;
  }

  /** The generation's schema (tests and benchmarks that EXPLAIN a statement). */
  get schema(): string {
    return this.published.schema_name;
  }

  /** The coordinator answers, and so does every shard (the one that does not is named). */
  async ping(): Promise<void> {
    await this.pool.query('SELECT 1 AS ok');
    const shards = Array.from({ length: this.published.shards }, (_, k) => k + 1);
    const failures = await Promise.all(
      shards.map((shard) =>
        this.pool.query(`SELECT ok FROM public.${SHARD_PROBE_PREFIX}${shard}`).then(
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

  async close(): Promise<void> {
    if (this.ownsPool) await this.pool.close();
  }

  async tokenOwner(tokenHash: string): Promise<TokenOwner | null> {
    const token = this.tokens ? this.fileToken(tokenHash) : await this.tableToken(tokenHash);
    if (!token) return null;
    if (!this.knownUsers.has(token.userId)) {
      if (!(await users.userExists(this.pool, this.schema, token.userId))) return null;
      if (this.knownUsers.size >= KNOWN_USERS_LIMIT) this.knownUsers.clear();
      this.knownUsers.add(token.userId);
    }
    return token;
  }

  private fileToken(tokenHash: string): TokenOwner | null {
    const token = this.tokens?.find(tokenHash);
    if (!token || token.revokedAtMs !== null) return null;
    return { userId: token.userId, expiresAtMs: token.expiresAtMs };
  }

  /** From the coordinator's token table, through the process's cache when there is one. */
  private tableToken(tokenHash: string): Promise<TokenOwner | null> {
    return this.coordinatorTokens
      ? this.coordinatorTokens.owner(tokenHash)
      : lookupToken(this.pool, tokenHash);
  }

  profile(userId: string) {
    return users.profile(this.pool, this.schema, userId);
  }

  /** Per port, so per generation: a user's accounts change only with a new generation. */
  accounts(userId: string): Promise<AccountRecord[]> {
    let known = this.accountsByUser.get(userId);
    if (!known) {
      known = accounts.accounts(this.pool, this.schema, userId);
      known.catch(() => this.accountsByUser.delete(userId));
      if (this.accountsByUser.size >= KNOWN_USERS_LIMIT) this.accountsByUser.clear();
      this.accountsByUser.set(userId, known);
    }
    return known;
  }

  transactions(userId: string, filters: TransactionFilters, page: PageWindow) {
    return this.transactionQueries.transactions(userId, filters, page);
  }

  transactionCount(userId: string, filters: TransactionFilters) {
    return this.transactionQueries.transactionCount(userId, filters);
  }

  transactionChunks(userId: string, filters: TransactionFilters) {
    return this.transactionQueries.transactionChunks(userId, filters);
  }

  transaction(userId: string, id: string) {
    return this.transactionQueries.transaction(userId, id);
  }

  transactionsById(userId: string, after: string | null, limit: number) {
    return this.transactionQueries.transactionsById(userId, after, limit);
  }

  transactionChanges(userId: string, range: ChangeRange) {
    return this.transactionQueries.transactionChanges(userId, range);
  }

  links(userId: string, page: PageWindow) {
    return links.links(this.pool, this.schema, userId, page);
  }

  latestBalances(userId: string) {
    return accounts.latestBalances(this.pool, this.schema, userId);
  }

  async balanceHistory(userId: string, days: readonly string[]) {
    return accounts.balanceHistory(
      this.pool,
      this.schema,
      userId,
      days,
      await this.accounts(userId),
    );
  }

  payStatements(userId: string, window: Window) {
    return income.payStatements(this.pool, this.schema, userId, window);
  }

  monthlyIncome(userId: string, window: Window) {
    return income.monthlyIncome(this.pool, this.schema, userId, window);
  }

  liabilities(userId: string) {
    return accounts.liabilities(this.pool, this.schema, userId);
  }

  spendingAggregates(query: SpendingQuery) {
    return this.spendingQueries.spendingAggregates(query);
  }
}
