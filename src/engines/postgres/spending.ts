/**
 * The spending analysis on the sharded cluster. PostgreSQL pushes an aggregate down to the
 * user's shard only when it groups by user_id with plain columns: never GROUPING SETS, ordered
 * aggregates or date_trunc. So the shard sums the user's scoped rows per day and per the
 * columns the rules and breakdowns need (one pushed-down aggregate over the per-day rollup that
 * build-db derives: a few hundred groups for a typical year), and this module finishes the
 * totals exactly (decimal.js) from those groups;
 * merchant entries also get their amounts counted per distinct amount (is_recurring).
 * The row-level facts come in a second single-shard statement only for what is listed: the
 * rows holding each entry's largest amount, and the ids of a single day.
 */

import {
  SPENDING_DAILY_TABLE,
  SPENDING_MONTHLY_TABLE,
  SPENDING_MONTHLY_USERS_TABLE,
} from '../../contract/derived.ts';
import { periodKey, wholeMonthsFor } from '../../domain/calendar.ts';
import { compareCodePoints, type Exact, exact, ZERO } from '../../domain/money.ts';
import {
  type BreakdownAggregate,
  type BreakdownKey,
  breakdownSets,
  type EntryAggregate,
  type Flow,
  type LargestTransaction,
  type SpendingAggregates,
  type SpendingQuery,
  singleDayTransactionIds,
  UNCATEGORIZED,
  UNKNOWN_MERCHANT,
} from '../../domain/spending/model.ts';
import { cents, hasRecurringCadence } from '../../domain/spending/recurring.ts';
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

interface DailyGroup {
  direction: 'DEBIT' | 'CREDIT';
  category: string;
  merchant_name: string | null;
  subcategory: string | null;
  /** The group's day, or its month's first day (a monthly group). */
  day: string;
  to_platform: boolean;
  amount: string;
  count: string;
  max_amount: string;
  /** A monthly group's days. */
  days?: string[];
}

interface Candidate {
  id: string;
  amount: string;
  day: string;
  description: string;
  merchant_category_code: string | null;
  direction: 'DEBIT' | 'CREDIT';
  category: string;
  merchant_name: string | null;
  subcategory: string | null;
}

const flowOf = (direction: 'DEBIT' | 'CREDIT'): Flow =>
  direction === 'CREDIT' ? 'income' : 'spending';
const merchantOf = (name: string | null) => (name ? name : UNKNOWN_MERCHANT);
const subcategoryOf = (name: string | null) => (name ? name : UNCATEGORIZED);

/**
 * Totals in integer cents (BigInt: exact at any size, and far cheaper than a decimal per
 * addition over a heavy user's tens of thousands of groups); amounts have two decimals.
 */
interface Accumulator {
  cents: bigint;
  count: number;
}

const inDollars = (total: bigint): Exact => exact(total.toString()).dividedBy(100);

function add(map: Map<string, Accumulator>, key: string, amount: bigint, count: number) {
  const total = map.get(key);
  if (total) {
    total.cents += amount;
    total.count += count;
  } else map.set(key, { cents: amount, count });
}

interface EntryState extends Accumulator {
  direction: 'DEBIT' | 'CREDIT';
  key: string;
  max: bigint;
  dates: Set<string>;
  amountsInCents: bigint[];
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
  private groups(query: SpendingQuery, scope: SqlParam[]): Promise<DailyGroup[]> {
    const months = this.monthlyUsers.has(query.userId)
      ? wholeMonthsFor(query.window, query.timePeriod)
      : null;
    if (!months) return this.db.query<DailyGroup & Record<string, unknown>>(this.daily, scope);
    return Promise.all([
      this.db.query<DailyGroup & Record<string, unknown>>(this.dailyOutsideMonths, [
        ...scope,
        months.start,
        months.end,
      ]),
      this.db.query<DailyGroup & Record<string, unknown>>(this.monthly, [
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
    const listsIds = singleDayTransactionIds(query);
    const [groups, idRows] = await Promise.all([
      this.groups(query, scope),
      listsIds
        ? this.db.query<{ id: string; direction: 'DEBIT' | 'CREDIT'; category: string }>(
            this.ids,
            scope,
          )
        : null,
    ]);

    const categories = new Set(query.categories);
    const isCounted = (row: { direction: string; category: string }) =>
      (row.direction === 'DEBIT' || query.includeIncome) &&
      (categories.size === 0 || categories.has(row.category));
    const keyOf = (row: {
      category: string;
      merchant_name: string | null;
      day: string;
    }): string => {
      switch (query.groupBy) {
        case 'category':
          return row.category;
        case 'merchant':
          return merchantOf(row.merchant_name);
        case 'time_period':
          return periodKey(row.day, query.timePeriod);
      }
    };

    let income = 0n;
    let expenses = 0n;
    let summaryTotal = 0n;
    let summaryCount = 0;
    const merchantNames = new Set<string>();
    const entries = new Map<string, EntryState>();
    const sets = breakdownSets(query.groupBy, query.secondaryGroupBy);
    const breakdowns = sets.map(() => new Map<string, Accumulator>());

    for (const group of groups) {
      const amount = cents(group.amount);
      const count = Number(group.count);
      if (group.direction === 'CREDIT') income += amount;
      else if (!group.to_platform) expenses += amount;
      if (group.to_platform || !isCounted(group)) continue;

      if (group.direction === 'DEBIT') {
        summaryTotal += amount;
        summaryCount += count;
        if (group.merchant_name) merchantNames.add(group.merchant_name);
      }
      const key = keyOf(group);
      const entryKey = `${group.direction}\u0000${key}`;
      let entry = entries.get(entryKey);
      if (!entry) {
        entry = {
          direction: group.direction,
          key,
          cents: 0n,
          count: 0,
          max: cents(group.max_amount),
          dates: new Set(),
          amountsInCents: [],
        };
        entries.set(entryKey, entry);
      }
      entry.cents += amount;
      entry.count += count;
      const max = cents(group.max_amount);
      if (max > entry.max) entry.max = max;
      if (query.groupBy === 'merchant') {
        for (const day of group.days ?? [group.day]) entry.dates.add(day);
      }

      const values: Record<BreakdownKey, string> = {
        category: group.category,
        merchant: merchantOf(group.merchant_name),
        subcategory: subcategoryOf(group.subcategory),
        period: periodKey(group.day, query.timePeriod),
      };
      sets.forEach((set, index) => {
        const breakdownKey = [group.direction, ...set.map((column) => values[column])].join(
          '\u0000',
        );
        add(breakdowns[index] as Map<string, Accumulator>, breakdownKey, amount, count);
      });
    }

    const [largest] = await Promise.all([
      this.largest(scope, [...entries.values()], keyOf, isCounted),
      query.groupBy === 'merchant' ? this.fillAmounts(query, scope, entries) : null,
    ]);
    const ids = new Map<string, string[]>();
    for (const row of idRows ?? []) {
      if (!isCounted(row)) continue;
      const entryKey = `${row.direction}\u0000${query.window.start}`;
      const list = ids.get(entryKey) ?? [];
      list.push(row.id);
      ids.set(entryKey, list);
    }

    return {
      entries: [...entries.entries()].map(
        ([entryKey, entry]): EntryAggregate => ({
          flow: flowOf(entry.direction),
          key: entry.key,
          amount: inDollars(entry.cents),
          count: entry.count,
          largest: largest.get(entryKey) as LargestTransaction,
          ...(query.groupBy === 'merchant'
            ? { dates: [...entry.dates].sort(), amountsInCents: entry.amountsInCents }
            : {}),
          ...(listsIds
            ? { transactionIds: (ids.get(entryKey) ?? []).sort(compareCodePoints) }
            : {}),
        }),
      ),
      breakdowns: sets.flatMap((set, index) =>
        [...(breakdowns[index] as Map<string, Accumulator>).entries()].map(
          ([breakdownKey, total]): BreakdownAggregate => {
            const [direction, ...values] = breakdownKey.split('\u0000');
            const row: BreakdownAggregate = {
              flow: flowOf(direction as 'DEBIT' | 'CREDIT'),
              amount: inDollars(total.cents),
              count: total.count,
            };
            set.forEach((column, at) => {
              row[column] = values[at];
            });
            return row;
          },
        ),
      ),
      summary: {
        total: inDollars(summaryTotal),
        count: summaryCount,
        uniqueMerchants: merchantNames.size,
      },
      cashFlow: query.withCashFlow
        ? { income: inDollars(income), expenses: inDollars(expenses) }
        : { income: ZERO, expenses: ZERO },
    };
  }

  /**
   * The amounts of the merchant entries whose dates have a recurring cadence (the others are
   * not recurring whatever their amounts): a heavy user's daily merchants need none.
   */
  private async fillAmounts(
    query: SpendingQuery,
    scope: SqlParam[],
    entries: Map<string, EntryState>,
  ): Promise<void> {
    const names = new Set<string>();
    for (const entry of entries.values()) {
      if (hasRecurringCadence([...entry.dates].sort())) names.add(entry.key);
    }
    if (names.size === 0) return;
    const rows = await this.db.query<{
      direction: 'DEBIT' | 'CREDIT';
      merchant_name: string | null;
      amount: string;
      count: string;
    }>(this.merchantAmounts, [
      ...scope,
      query.includeIncome,
      query.categories,
      [...names],
      names.has(UNKNOWN_MERCHANT),
    ]);
    for (const row of rows) {
      const entry = entries.get(`${row.direction}\u0000${merchantOf(row.merchant_name)}`);
      const each = cents(row.amount);
      for (let i = Number(row.count); i > 0; i--) entry?.amountsInCents.push(each);
    }
  }

  /**
   * Each entry's largest transaction: the largest amount, then the latest day, then the
   * smallest id. Only rows whose amount is some entry's largest come from the shard.
   */
  private async largest(
    scope: SqlParam[],
    entries: EntryState[],
    keyOf: (row: Candidate) => string,
    isCounted: (row: Candidate) => boolean,
  ): Promise<Map<string, LargestTransaction>> {
    const best = new Map<string, Candidate>();
    if (entries.length === 0) return new Map();
    const maxima = [...new Set(entries.map((entry) => inDollars(entry.max).toFixed(2)))];
    const candidates = await this.db.query<Candidate & Record<string, unknown>>(this.candidates, [
      ...scope,
      maxima,
    ]);
    const maxByEntry = new Map(
      entries.map((entry) => [`${entry.direction}\u0000${entry.key}`, entry.max]),
    );
    for (const row of candidates) {
      if (!isCounted(row)) continue;
      const entryKey = `${row.direction}\u0000${keyOf(row)}`;
      const max = maxByEntry.get(entryKey);
      if (max !== cents(row.amount)) continue;
      const current = best.get(entryKey);
      if (
        !current ||
        row.day > current.day ||
        (row.day === current.day && compareCodePoints(row.id, current.id) < 0)
      ) {
        best.set(entryKey, row);
      }
    }
    return new Map(
      [...best.entries()].map(([entryKey, row]) => [
        entryKey,
        {
          transaction_id: row.id,
          amount: row.amount,
          date: row.day,
          description: row.description,
          merchant_category_code: row.merchant_category_code,
        },
      ]),
    );
  }
}
