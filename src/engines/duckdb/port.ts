/**
 * The DuckDB adapter of the read port: one store file, opened read-only through a hardened
 * connection pool. Each method's SQL lives in this folder, one module per area.
 */
import { createHash } from 'node:crypto';
import { type StoreFormatFields, storeFormatProblem } from '../../contract/store-format.ts';
import { STORE_META_TABLE, TABLE_NAMES } from '../../contract/tables.ts';
import type { Window } from '../../domain/calendar.ts';
import type { SpendingQuery } from '../../domain/spending/model.ts';
import type {
  AccountRecord,
  ChangeRange,
  PageWindow,
  ReadPort,
  SyncState,
  TokenOwner,
  TransactionFilters,
} from '../../port/read-port.ts';
import { StoreFormatError } from '../../port/read-port.ts';
import { FollowedTokens } from '../../tokens/followed-tokens.ts';
import { tokensPathFor } from '../../tokens/path.ts';
import { PLATFORM_RULES_FINGERPRINT } from '../sql/platform.ts';
import * as accounts from './accounts.ts';
import * as income from './income.ts';
import * as links from './links.ts';
import { DuckDbPool, type DuckDbPoolOptions } from './pool.ts';
import { type SpendingReads, spendingAggregates, spendingReadsOf } from './spending.ts';
import * as transactions from './transactions.ts';
import * as users from './users.ts';

export interface DuckDbPortOptions extends DuckDbPoolOptions {
  /**
   * The token store, followed and shared across generations (the server's). Without it the
   * port follows the one beside the store file itself, and closes it with the port.
   */
  tokens?: FollowedTokens;
}

/**
 * The store's place among change sets (store_meta); a store built before change sets is the
 * start of its own lineage, its cursors signed with a key derived from it.
 */
function syncStateOf(row: Record<string, unknown> | undefined, poolGeneration: string): SyncState {
  const generation = String(row?.generation ?? poolGeneration);
  const key = row?.cursor_key;
  return {
    lineage: typeof row?.lineage === 'string' ? row.lineage : generation,
    seq: Number(row?.seq ?? 0),
    logFloor: Number(row?.log_floor ?? 0),
    cursorKey:
      typeof key === 'string' && key
        ? key
        : createHash('sha256').update(`sync:${generation}`).digest('base64url'),
  };
}

/** Users known to exist, per port (one generation): bounded, cleared when full. */
const KNOWN_USERS_LIMIT = 100_000;

export class DuckDbPort implements ReadPort {
  private readonly knownUsers = new Set<string>();
  private readonly accountsByUser = new Map<string, Promise<AccountRecord[]>>();

  private constructor(
    /** The connection pool, for the few callers that need raw SQL (benchmarks, tests). */
    readonly pool: DuckDbPool,
    readonly sync: SyncState,
    /** How the spending analysis reads (the store's fastest). */
    private readonly spendingReads: SpendingReads,
    private readonly tokens: FollowedTokens,
    private readonly ownsTokens: boolean,
  ) {}

  /** Opens the file and checks it before it serves: it answers, and every table is there. */
  static async open(path: string, options: DuckDbPortOptions = {}): Promise<DuckDbPort> {
    const { tokens, ...poolOptions } = options;
    const pool = await DuckDbPool.open(path, poolOptions);
    let followed = tokens;
    try {
      for (const table of TABLE_NAMES) await pool.query(`SELECT * FROM ${table} LIMIT 0`);
      const [meta] = await pool.query<StoreFormatFields & Record<string, unknown>>(
        `SELECT * FROM ${STORE_META_TABLE}`,
      );
      const problem = storeFormatProblem(meta, PLATFORM_RULES_FINGERPRINT);
      if (problem) throw new StoreFormatError(path, problem);
      const spendingReads = await spendingReadsOf(pool);
      const sync = syncStateOf(meta, pool.generation);
      followed ??= await FollowedTokens.open(tokensPathFor(path));
      return new DuckDbPort(pool, sync, spendingReads, followed, tokens === undefined);
    } catch (error) {
      if (tokens === undefined) followed?.close();
      await pool.close();
      throw error;
    }
  }

  get generation(): string {
    return this.pool.generation;
  }

  /** The store answers, and its file is intact as far as can be told (DuckDbPool.ping). */
  ping(): Promise<void> {
    return this.pool.ping();
  }

  close(): Promise<void> {
    if (this.ownsTokens) this.tokens.close();
    return this.pool.close();
  }

  /** From the followed token store (no analytics query), provided the user exists here. */
  async tokenOwner(tokenHash: string): Promise<TokenOwner | null> {
    const token = this.tokens.find(tokenHash);
    if (!token || token.revokedAtMs !== null) return null;
    if (!this.knownUsers.has(token.userId)) {
      if (!(await users.userExists(this.pool, token.userId))) return null;
      if (this.knownUsers.size >= KNOWN_USERS_LIMIT) this.knownUsers.clear();
      this.knownUsers.add(token.userId);
    }
    return { userId: token.userId, expiresAtMs: token.expiresAtMs };
  }

  profile(userId: string) {
    return users.profile(this.pool, userId);
  }

  /** Per port, so per generation: a user's accounts change only with a new store. */
  accounts(userId: string): Promise<AccountRecord[]> {
    let known = this.accountsByUser.get(userId);
    if (!known) {
      known = accounts.accounts(this.pool, userId);
      known.catch(() => this.accountsByUser.delete(userId));
      if (this.accountsByUser.size >= KNOWN_USERS_LIMIT) this.accountsByUser.clear();
      this.accountsByUser.set(userId, known);
    }
    return known;
  }

  transactions(userId: string, filters: TransactionFilters, page: PageWindow) {
    return transactions.transactions(this.pool, userId, filters, page);
  }

  transactionCount(userId: string, filters: TransactionFilters) {
    return transactions.transactionCount(this.pool, userId, filters);
  }

  transactionChunks(userId: string, filters: TransactionFilters) {
    return transactions.transactionChunks(this.pool, userId, filters);
  }

  transaction(userId: string, id: string) {
    return transactions.transaction(this.pool, userId, id);
  }

  transactionsById(userId: string, after: string | null, limit: number) {
    return transactions.transactionsById(this.pool, userId, after, limit);
  }

  transactionChanges(userId: string, range: ChangeRange) {
    return transactions.transactionChanges(this.pool, userId, range);
  }

  links(userId: string, page: PageWindow) {
    return links.links(this.pool, userId, page);
  }

  latestBalances(userId: string) {
    return accounts.latestBalances(this.pool, userId);
  }

  balanceHistory(userId: string, days: readonly string[]) {
    return accounts.balanceHistory(this.pool, userId, days);
  }

  payStatements(userId: string, window: Window) {
    return income.payStatements(this.pool, userId, window);
  }

  monthlyIncome(userId: string, window: Window) {
    return income.monthlyIncome(this.pool, userId, window);
  }

  liabilities(userId: string) {
    return accounts.liabilities(this.pool, userId);
  }

  spendingAggregates(query: SpendingQuery) {
    return spendingAggregates(this.pool, query, this.spendingReads);
  }
}
