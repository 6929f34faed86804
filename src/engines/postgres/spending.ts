/**
 * The spending analysis on the sharded cluster. PostgreSQL pushes an aggregate down to the
 * user's shard only when it groups by user_id with plain columns: never GROUPING SETS, ordered
 * aggregates or date_trunc. So the shard sums the user's scoped rows per day and per the
 * columns the rules and breakdowns need (one pushed-down aggregate over the per-day rollup that
 * build-db derives: a few hundred groups for a typical year), and the domain's fold
 * (domain/spending/fold.ts) finishes the aggregates from those groups.
 * The row-level facts come in further single-shard statements only for what is listed: the
 * rows holding each entry's largest amount, the amounts of the merchants with a recurring
 * cadence (per distinct amount), and the ids of a single day.
 */

import {
  SPENDING_DAILY_TABLE,
  SPENDING_MONTHLY_TABLE,
  SPENDING_MONTHLY_USERS_TABLE,
} from '../../contract/derived.ts';
import { wholeMonthsFor } from '../../domain/calendar.ts';
import {
  type Direction,
  type GroupKeys,
  type MerchantAmount,
  SpendingFold,
  type SpendingGroup,
} from '../../domain/spending/fold.ts';
import {
  type SpendingAggregates,
  type SpendingQuery,
  singleDayTransactionIds,
  UNKNOWN_MERCHANT,
} from '../../domain/spending/model.ts';
import { countedRowSql } from '../sql/counted.ts';
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
const monthlySql = (s: string) => `
  SELECT r.direction, r.category, r.merchant_name, r.subcategory, r.month AS day, r.to_platform,
    r.amount, r.count, r.max_amount, r.days
  FROM ${s}.${SPENDING_MONTHLY_TABLE} r
  WHERE r.user_id = $1 AND r.month BETWEEN $2::date AND $3::date
    AND ($4::text = '' OR r.account_link_id = $4::text)
    AND (cardinality($5::text[]) = 0 OR r.account_id = ANY($5::text[]))`;

/** The users with a monthly rollup. */
const monthlyUsersSql = (s: string) => `SELECT user_id FROM ${s}.${SPENDING_MONTHLY_USERS_TABLE}`;

/**
 * How many counted rows of the given merchants have each amount (is_recurring reads the
 * amounts' median and spread, once the dates have a cadence): $6 include_income, $7
 * categories, $8 merchant names, $9 also the rows without one (the Unknown entry).
 */
const merchantAmountsSql = (s: string) => `
  SELECT t.direction, t.merchant_name, t.amount, count(*) AS count
  FROM ${s}.transactions t
  WHERE ${SCOPED} AND NOT t.to_platform
    AND (t.direction = 'DEBIT' OR $6::boolean)
    AND (cardinality($7::text[]) = 0 OR t.category = ANY($7::text[]))
    AND (t.merchant_name = ANY($8::text[])
         OR ($9::boolean AND (t.merchant_name IS NULL OR t.merchant_name = '')))
  GROUP BY t.user_id, t.direction, t.merchant_name, t.amount`;

/** Counted rows (not to an investment platform) whose amount is one of $6. */
const candidatesSql = (s: string) => `
  SELECT t.id, t.amount, t.transacted_at AS day, t.description, t.merchant_category_code,
    t.direction, t.category, t.merchant_name, t.subcategory
  FROM ${s}.transactions t
  WHERE ${SCOPED} AND NOT t.to_platform AND t.amount = ANY($6::numeric[])`;

/** Counted rows' ids (the single-day period variant). */
const idsSql = (s: string) => `
  SELECT t.id, t.direction, t.category
  FROM ${s}.transactions t
  WHERE ${SCOPED} AND NOT t.to_platform`;

interface Candidate extends GroupKeys, Record<string, unknown> {
  id: string;
  amount: string;
  day: string;
  description: string;
  merchant_category_code: string | null;
}

export class SpendingQueries {
  private readonly daily: string;
  private readonly dailyOutsideMonths: string;
  private readonly monthly: string;
  private readonly merchantAmounts: string;
  private readonly candidates: string;
  private readonly ids: string;

  private constructor(
    private readonly db: PgPool,
    s: string,
    /** Users whose whole months are read from the monthly rollup. */
    private readonly monthlyUsers: ReadonlySet<string>,
  ) {
    this.daily = dailySql(s);
    this.dailyOutsideMonths = dailySql(s, true);
    this.monthly = monthlySql(s);
    this.merchantAmounts = merchantAmountsSql(s);
    this.candidates = candidatesSql(s);
    this.ids = idsSql(s);
  }

  /** The statements of schema `s`; a generation published without a monthly rollup has none. */
  static async of(db: PgPool, s: string): Promise<SpendingQueries> {
    const users = await db
      .query<{ user_id: string }>(monthlyUsersSql(s))
      .catch((): { user_id: string }[] => []);
    return new SpendingQueries(db, s, new Set(users.map((row) => row.user_id)));
  }

  /** The user's groups: by day, or by month for the whole months of a dense user's window. */
  private groups(query: SpendingQuery, scope: SqlParam[]): Promise<SpendingGroup[]> {
    const months = this.monthlyUsers.has(query.userId)
      ? wholeMonthsFor(query.window, query.timePeriod)
      : null;
    if (!months) return this.db.query<SpendingGroup & Record<string, unknown>>(this.daily, scope);
    return Promise.all([
      this.db.query<SpendingGroup & Record<string, unknown>>(this.dailyOutsideMonths, [
        ...scope,
        months.start,
        months.end,
      ]),
      this.db.query<SpendingGroup & Record<string, unknown>>(this.monthly, [
        query.userId,
        months.start,
        months.end,
        query.linkId ?? '',
        query.accountIds,
      ]),
    ]).then(([days, monthly]) => [...days, ...monthly]);
  }

  async spendingAggregates(query: SpendingQuery): Promise<SpendingAggregates> {
    const scope: SqlParam[] = [
      query.userId,
      query.window.start,
      query.window.end,
      query.linkId ?? '',
      query.accountIds,
    ];
    const [groups, idRows] = await Promise.all([
      this.groups(query, scope),
      singleDayTransactionIds(query)
        ? this.db.query<{ id: string; direction: Direction; category: string }>(this.ids, scope)
        : null,
    ]);
    const fold = new SpendingFold(query);
    for (const group of groups) fold.add(group);
    for (const row of idRows ?? []) fold.addTransactionId(row);
    await Promise.all([this.offerLargest(fold, scope), this.addAmounts(fold, query, scope)]);
    return fold.aggregates();
  }

  /** The amounts of the merchant entries with a recurring cadence. */
  private async addAmounts(fold: SpendingFold, query: SpendingQuery, scope: SqlParam[]) {
    const names = fold.recurringMerchants();
    if (names.size === 0) return;
    const rows = await this.db.query<MerchantAmount & Record<string, unknown>>(
      this.merchantAmounts,
      [...scope, query.includeIncome, query.categories, [...names], names.has(UNKNOWN_MERCHANT)],
    );
    for (const row of rows) fold.addAmount(row);
  }

  /** Only the rows whose amount is some entry's largest come from the shard. */
  private async offerLargest(fold: SpendingFold, scope: SqlParam[]) {
    const maxima = fold.maxima();
    if (maxima.length === 0) return;
    const candidates = await this.db.query<Candidate>(this.candidates, [...scope, maxima]);
    for (const row of candidates) {
      fold.offerLargest(row, {
        transaction_id: row.id,
        amount: row.amount,
        date: row.day,
        description: row.description,
        merchant_category_code: row.merchant_category_code,
      });
    }
  }
}
