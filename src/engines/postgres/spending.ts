/**
 * The spending analysis's reads on the sharded cluster (port/spending.ts, SpendingReader).
 * PostgreSQL pushes an aggregate down to the user's shard only when it groups by user_id with
 * plain columns: never GROUPING SETS, ordered aggregates or date_trunc. So the shard sums the
 * user's scoped rows per day and per the columns the rules and breakdowns need (one pushed-down
 * aggregate over the per-day rollup that build-db derives: a few hundred groups for a typical
 * year), and the domain's fold (domain/spending/fold.ts) finishes the aggregates from those
 * groups. The row-level facts come in further single-shard statements only for what is listed:
 * the rows holding each entry's largest amount, the amounts of the merchants with a recurring
 * cadence (per distinct amount), and the rows of a single day.
 */

import {
  SPENDING_DAILY_TABLE,
  SPENDING_MONTHLY_TABLE,
  SPENDING_MONTHLY_USERS_TABLE,
} from '../../contract/derived.ts';
import { wholeMonthsFor } from '../../domain/calendar.ts';
import type { Exact } from '../../domain/money.ts';
import type {
  DayTransaction,
  LargestCandidate,
  MerchantAmount,
  SpendingGrain,
  SpendingGroup,
} from '../../domain/spending/fold.ts';
import type { SpendingAggregates, SpendingQuery } from '../../domain/spending/model.ts';
import { aggregateSpending, type SpendingReader, type SpendingScope } from '../../port/spending.ts';
import { countedRowSql } from '../../sql/counted.ts';
import type { PgPool, SqlParam } from './pool.ts';

/**
 * Spending rules 1-4 and the link/account scope (the cash-flow basis): $1 user, $2/$3 window,
 * $4 link ('' none), $5 account ids.
 */
const SCOPED = `
  t.user_id = $1 AND t.transacted_at BETWEEN $2::date AND $3::date
  AND ${countedRowSql('t')}
  AND ($4::text = '' OR t.account_link_id = $4::text)
  AND (cardinality($5::text[]) = 0 OR t.account_id = ANY($5::text[]))`;

/**
 * The user's scoped rows per day and per the columns the rules and breakdowns read, from the
 * rollup build-db derives (rules 1-3 already applied; schema.ts). `outsideMonths`: only the
 * days outside $6-$7 (the whole months read from the monthly rollup).
 */
const dailySql = (s: string, outsideMonths = false) => `
  SELECT r.direction, r.category, r.merchant_name, r.subcategory, r.day, r.to_platform,
    sum(r.amount) AS amount, sum(r.count) AS count, max(r.max_amount) AS max_amount
  FROM ${s}.${SPENDING_DAILY_TABLE} r
  WHERE r.user_id = $1 AND r.day BETWEEN $2::date AND $3::date
    AND ($4::text = '' OR r.account_link_id = $4::text)
    AND (cardinality($5::text[]) = 0 OR r.account_id = ANY($5::text[]))
    ${outsideMonths ? 'AND r.day NOT BETWEEN $6::date AND $7::date' : ''}
  GROUP BY r.user_id, r.direction, r.category, r.merchant_name, r.subcategory, r.day,
    r.to_platform`;

/**
 * The scoped groups of the user's dense months (schema.ts, SPENDING_MONTHLY_TABLE): $1 user, $2/$3
 * the window's whole months, $4/$5 the link and account scope. Rows at the rollup's grain (one
 * per account too): the totals are finished here either way.
 */
const monthlySql = (s: string, days: boolean) => `
  SELECT r.direction, r.category, r.merchant_name, r.subcategory, r.month AS day, r.to_platform,
    r.amount, r.count, r.max_amount${days ? ', r.days' : ''}
  FROM ${s}.${SPENDING_MONTHLY_TABLE} r
  WHERE r.user_id = $1 AND r.month BETWEEN $2::date AND $3::date
    AND ($4::text = '' OR r.account_link_id = $4::text)
    AND (cardinality($5::text[]) = 0 OR r.account_id = ANY($5::text[]))`;

/** $1 user, $2/$3 window, $4 link ('' none), $5 account ids. */
const scopeParams = (scope: SpendingScope): SqlParam[] => [
  scope.userId,
  scope.window.start,
  scope.window.end,
  scope.linkId ?? '',
  scope.accountIds,
];

/** The users with a monthly rollup. */
const monthlyUsersSql = (s: string) => `SELECT user_id FROM ${s}.${SPENDING_MONTHLY_USERS_TABLE}`;

/**
 * How many scoped rows of the merchants $6 (and, $7, of none) have each amount (is_recurring
 * reads the amounts' median and spread, once the dates have a cadence).
 */
const merchantAmountsSql = (s: string) => `
  SELECT t.direction, t.category, t.merchant_name, t.to_platform, t.amount, count(*) AS count
  FROM ${s}.transactions t
  WHERE ${SCOPED}
    AND (t.merchant_name = ANY($6::text[]) OR ($7::boolean AND t.merchant_name IS NULL))
  GROUP BY t.user_id, t.direction, t.category, t.merchant_name, t.to_platform, t.amount`;

/** Scoped rows whose amount is one of $6. */
const candidatesSql = (s: string) => `
  SELECT t.id, t.amount, t.transacted_at AS day, t.description, t.merchant_category_code,
    t.direction, t.category, t.merchant_name, t.to_platform
  FROM ${s}.transactions t
  WHERE ${SCOPED} AND t.amount = ANY($6::numeric[])`;

/** Scoped rows of the window (a single day). */
const dayTransactionsSql = (s: string) => `
  SELECT t.id, t.direction, t.category, t.to_platform
  FROM ${s}.transactions t
  WHERE ${SCOPED}`;

type Row<T> = T & Record<string, unknown>;

/** The spending reads of one generation's schema (port/spending.ts, SpendingReader). */
export class SpendingQueries implements SpendingReader {
  private readonly daily: string;
  private readonly dailyOutsideMonths: string;
  private readonly monthly: string;
  private readonly monthlyWithDays: string;
  private readonly amounts: string;
  private readonly candidates: string;
  private readonly dayRows: string;

  private constructor(
    private readonly db: PgPool,
    s: string,
    /** Users whose whole months are read from the monthly rollup. */
    private readonly monthlyUsers: ReadonlySet<string>,
  ) {
    this.daily = dailySql(s);
    this.dailyOutsideMonths = dailySql(s, true);
    this.monthly = monthlySql(s, false);
    this.monthlyWithDays = monthlySql(s, true);
    this.amounts = merchantAmountsSql(s);
    this.candidates = candidatesSql(s);
    this.dayRows = dayTransactionsSql(s);
  }

  /** The statements of schema `s`; a generation published without a monthly rollup has none. */
  static async of(db: PgPool, s: string): Promise<SpendingQueries> {
    const users = await db
      .query<{ user_id: string }>(monthlyUsersSql(s))
      .catch((): { user_id: string }[] => []);
    return new SpendingQueries(db, s, new Set(users.map((row) => row.user_id)));
  }

  spendingAggregates(query: SpendingQuery): Promise<SpendingAggregates> {
    return aggregateSpending(this, query);
  }

  /**
   * By day, or by month for the whole months of a dense user's window: finer than any grain, so
   * that the shard can aggregate (it cannot truncate dates), and always with subcategories.
   */
  groups(scope: SpendingScope, { period, days }: SpendingGrain): Promise<SpendingGroup[]> {
    const params = scopeParams(scope);
    const months = this.monthlyUsers.has(scope.userId)
      ? wholeMonthsFor(scope.window, period)
      : null;
    if (!months) return this.db.query<Row<SpendingGroup>>(this.daily, params);
    return Promise.all([
      this.db.query<Row<SpendingGroup>>(this.dailyOutsideMonths, [
        ...params,
        months.start,
        months.end,
      ]),
      this.db.query<Row<SpendingGroup>>(days ? this.monthlyWithDays : this.monthly, [
        scope.userId,
        months.start,
        months.end,
        scope.linkId ?? '',
        scope.accountIds,
      ]),
    ]).then(([daily, monthly]) => [...daily, ...monthly]);
  }

  /** From the transactions: the cluster's rollups keep no largest rows. */
  largestCandidates(
    scope: SpendingScope,
    _grain: SpendingGrain,
    amounts: readonly Exact[],
  ): Promise<LargestCandidate[]> {
    return this.db.query<Row<LargestCandidate>>(this.candidates, [
      ...scopeParams(scope),
      amounts.map((amount) => amount.toFixed(2)),
    ]);
  }

  merchantAmounts(
    scope: SpendingScope,
    names: readonly (string | null)[],
  ): Promise<MerchantAmount[]> {
    return this.db.query<Row<MerchantAmount>>(this.amounts, [
      ...scopeParams(scope),
      names.filter((name) => name !== null),
      names.includes(null),
    ]);
  }

  dayTransactions(scope: SpendingScope): Promise<DayTransaction[]> {
    return this.db.query<Row<DayTransaction>>(this.dayRows, scopeParams(scope));
  }
}
