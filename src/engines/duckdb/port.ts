/**
 * The DuckDB adapter of the read port: one store file, opened read-only through a hardened
 * connection pool. Each method's SQL lives in this folder, one module per area.
 */
import { TABLE_NAMES } from '../../build/schema.ts';
import type { Window } from '../../domain/calendar.ts';
import type { SpendingQuery } from '../../domain/spending/model.ts';
import type { PageWindow, ReadPort, TransactionFilters } from '../../port/read-port.ts';
import * as accounts from './accounts.ts';
import * as income from './income.ts';
import * as links from './links.ts';
import { DuckDbPool, type DuckDbPoolOptions } from './pool.ts';
import { hasCurrentDerivedColumns, spendingAggregates } from './spending.ts';
import * as transactions from './transactions.ts';
import * as users from './users.ts';

export type DuckDbPortOptions = DuckDbPoolOptions;

export class DuckDbPort implements ReadPort {
  private constructor(
    /** The connection pool, for the few callers that need raw SQL (benchmarks, tests). */
    readonly pool: DuckDbPool,
    /** The store holds derived columns computed with the current platform rules. */
    private readonly derived: boolean,
  ) {}

  /** Opens the file and checks it before it serves: it answers, and every table is there. */
  static async open(path: string, options: DuckDbPortOptions = {}): Promise<DuckDbPort> {
    const pool = await DuckDbPool.open(path, options);
    try {
      for (const table of TABLE_NAMES) await pool.query(`SELECT * FROM ${table} LIMIT 0`);
      return new DuckDbPort(pool, await hasCurrentDerivedColumns(pool));
    } catch (error) {
      await pool.close();
      throw error;
    }
  }

  get generation(): string {
    return this.pool.generation;
  }

  async ping(): Promise<void> {
    await this.pool.query('SELECT 1 AS ok');
  }

  close(): Promise<void> {
    return this.pool.close();
  }

  tokenOwner(tokenHash: string) {
    return users.tokenOwner(this.pool, tokenHash);
  }

  profile(userId: string) {
    return users.profile(this.pool, userId);
  }

  accounts(userId: string) {
    return accounts.accounts(this.pool, userId);
  }

  transactions(userId: string, filters: TransactionFilters, page: PageWindow) {
    return transactions.transactions(this.pool, userId, filters, page);
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
    return spendingAggregates(this.pool, query, this.derived);
  }
}
