/**
 * The spending analysis's reads on DuckDB (port/spending.ts, SpendingReader), from the rollups
 * build-db derives (ingest/derive.ts): a typical user's daily groups as stored, each with its
 * largest row; a dense user's (the monthly rollup's) summed per the query's calendar period, so
 * that his year by week is a few thousand groups rather than tens of thousands of days, and
 * their largest rows asked as candidates. The fold finishes them as on PostgreSQL. Rows come as
 * one JSON text with every amount cast to text, so they stay exact (DuckDbPool.queryJson).
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
import type { DuckDbPool, SqlParam } from './pool.ts';

/**
 * Where the scoped rows come from:
 * - `rollup`: the per-day and per-month groups build-db derives (ingest/derive.ts), each with
 *   its totals, its largest row, its days and its amounts: what the server reads;
 * - `rows`: the transactions, with the account facts and the platform flag build-db copies onto
 *   each row, each a group of one: what the rollups are checked against.
 * The two answer identically (test/engines/duckdb/spending-derived.test.ts).
 */
type SpendingSource = 'rollup' | 'rows';

/** How a store's spending analysis reads (spendingReadsOf). */
export interface DuckDbSpendingReads {
  source: SpendingSource;
  /** Users whose whole months are read from the monthly rollup (source `rollup`). */
  monthlyUsers: ReadonlySet<string>;
}

/** The users whose whole months the monthly rollup holds, asked once when a store is opened. */
export async function spendingReadsOf(db: Pick<DuckDbPool, 'query'>): Promise<DuckDbSpendingReads> {
  const users = await db.query<{ user_id: string }>(
    `SELECT user_id FROM ${SPENDING_MONTHLY_USERS_TABLE}`,
  );
  return { source: 'rollup', monthlyUsers: new Set(users.map((row) => row.user_id)) };
}

/**
 * A source's rows `s` of the user ($1) in the window ($2/$3), in the link ($4, '' none) and
 * account ($5) scope: spending rules 1-4 (the rollups hold only rows they keep) and the scope.
 * Every parameter is cast to its type: an untyped one makes DuckDB rebind the statement on
 * each execution, recompiling every regular expression (about 7 ms).
 */
const SCOPE = `($4::VARCHAR = '' OR s.account_link_id = $4::VARCHAR)
    AND (len($5::VARCHAR[]) = 0 OR list_contains($5::VARCHAR[], s.account_id))`;
const IN_WINDOW = (day: string) => `${day} BETWEEN $2::VARCHAR::DATE AND $3::VARCHAR::DATE`;
const FROM: Record<SpendingSource, string> = {
  rollup: `${SPENDING_DAILY_TABLE} s
  WHERE s.user_id = $1::VARCHAR AND ${IN_WINDOW('s.day')} AND ${SCOPE}`,
  rows: `transactions s
  WHERE s.user_id = $1::VARCHAR AND s.account_user_id = $1::VARCHAR
    AND ${IN_WINDOW('s.transacted_at')} AND ${countedRowSql('s')} AND ${SCOPE}`,
};

/** A source's columns: a daily group (and its largest row), or a transaction as a group of one. */
const COLUMN: Record<
  SpendingSource,
  Record<'day' | 'count' | 'max' | 'id' | 'text' | 'mcc', string>
> = {
  rollup: {
    day: 's.day',
    count: 's.count',
    max: 's.max_amount',
    id: 's.largest.id',
    text: 's.largest.description',
    mcc: 's.largest.merchant_category_code',
  },
  rows: {
    day: 's.transacted_at',
    count: '1',
    max: 's.amount',
    id: 's.id',
    text: 's.description',
    mcc: 's.merchant_category_code',
  },
};

const KEYS = `s.direction, s.category::VARCHAR AS category, s.merchant_name, s.to_platform`;

/** The groups as a source stores them (days: as themselves), each with its largest row. */
function storedGroupsSql(source: SpendingSource, subcategories: boolean): string {
  const column = COLUMN[source];
  return `
  SELECT ${KEYS}${subcategories ? ', s.subcategory' : ''}, ${column.day} AS day,
    s.amount::VARCHAR AS amount, ${column.count} AS count, ${column.max}::VARCHAR AS max_amount,
    {'id': ${column.id}, 'day': ${column.day}, 'description': ${column.text},
      'merchant_category_code': ${column.mcc}} AS largest
  FROM ${FROM[source]}`;
}

/**
 * The rollup's groups summed per calendar period ($6: date_trunc's unit) and per every other
 * column the grain keeps apart: a heavy user's daily groups of a year are a few thousand weekly
 * ones. `monthly`: the window's whole months ($7/$8) come from the monthly rollup, the rest of
 * it from the daily one.
 */
function summedGroupsSql(monthly: boolean, grain: Omit<SpendingGrain, 'period'>): string {
  const keys = `${KEYS}${grain.subcategories ? ', s.subcategory' : ''}`;
  const daily = `SELECT ${keys}, s.day, s.amount, s.count, s.max_amount
    ${grain.days ? ', [s.day] AS days' : ''}
  FROM ${FROM.rollup}`;
  const groups = monthly
    ? `${daily} AND NOT s.day BETWEEN $7::VARCHAR::DATE AND $8::VARCHAR::DATE
  UNION ALL
  SELECT ${keys}, s.month AS day, s.amount, s.count, s.max_amount${grain.days ? ', s.days' : ''}
  FROM ${SPENDING_MONTHLY_TABLE} s
  WHERE s.user_id = $1::VARCHAR AND s.month BETWEEN $7::VARCHAR::DATE AND $8::VARCHAR::DATE
    AND ${SCOPE}`
    : daily;
  return `
  SELECT direction, category, merchant_name, to_platform${grain.subcategories ? ', subcategory' : ''},
    date_trunc($6::VARCHAR, day)::DATE AS day, sum(amount)::VARCHAR AS amount,
    sum(count) AS count, max(max_amount)::VARCHAR AS max_amount
    ${grain.days ? ', flatten(list(days)) AS days' : ''}
  FROM (${groups})
  GROUP BY ALL`;
}

/**
 * Scoped rows whose amount is one of $6, for a dense user's summed groups: the daily groups'
 * largest rows, the whole months' ($7/$8) from the monthly rollup when `monthly`.
 */
function candidatesSql(monthly: boolean): string {
  const columns = (day: string) => `s.largest.id AS id, s.largest.description AS description,
    s.largest.merchant_category_code AS merchant_category_code, s.max_amount::VARCHAR AS amount,
    ${day} AS day, ${KEYS}`;
  const amountIn = `s.max_amount = ANY($6::VARCHAR[]::DECIMAL(18,2)[])`;
  const daily = `
  SELECT ${columns('s.day')}
  FROM ${FROM.rollup} AND ${amountIn}`;
  if (!monthly) return daily;
  return `${daily} AND NOT s.day BETWEEN $7::VARCHAR::DATE AND $8::VARCHAR::DATE
  UNION ALL
  SELECT ${columns('s.largest.day')}
  FROM ${SPENDING_MONTHLY_TABLE} s
  WHERE s.user_id = $1::VARCHAR AND s.month BETWEEN $7::VARCHAR::DATE AND $8::VARCHAR::DATE
    AND ${SCOPE} AND ${amountIn}`;
}

/** How many scoped rows of the merchants $6 (and, $7, of none) have each amount. */
const merchantAmountsSql = (source: SpendingSource) => `
  SELECT direction, category, merchant_name, to_platform, amount::VARCHAR AS amount,
    count(*) AS count
  FROM (SELECT ${KEYS}, ${source === 'rollup' ? 'unnest(s.amounts)' : 's.amount'} AS amount
    FROM ${FROM[source]}
      AND (list_contains($6::VARCHAR[], s.merchant_name)
           OR ($7::BOOLEAN AND s.merchant_name IS NULL)))
  GROUP BY ALL`;

/** Every scoped transaction of the window (one day): the rollups hold no ids. */
const dayTransactionsSql = `
  SELECT s.id, s.direction, s.category::VARCHAR AS category, s.to_platform
  FROM ${FROM.rows}`;

const SQL = new Map<string, string>();
/** A constant text per variant keeps statements prepared. */
function cached(variant: string, sql: () => string): string {
  let text = SQL.get(variant);
  if (!text) {
    text = sql();
    SQL.set(variant, text);
  }
  return text;
}

const scopeParams = (scope: SpendingScope): SqlParam[] => [
  scope.userId,
  scope.window.start,
  scope.window.end,
  scope.linkId ?? '',
  scope.accountIds,
];

/** The reads of one store (`reads`: what its rollups hold) for the spending fold. */
class DuckDbSpendingReader implements SpendingReader {
  constructor(
    private readonly db: DuckDbPool,
    private readonly reads: DuckDbSpendingReads,
  ) {}

  /** The monthly rollup's (dense) users: their groups are summed per period. */
  private dense(scope: SpendingScope): boolean {
    return this.reads.source === 'rollup' && this.reads.monthlyUsers.has(scope.userId);
  }

  /** The window's whole months, when the monthly rollup holds the user's and may answer them. */
  private monthsOf(scope: SpendingScope, grain: SpendingGrain) {
    return this.dense(scope) ? wholeMonthsFor(scope.window, grain.period) : null;
  }

  /**
   * A typical user's groups as stored, with their largest rows: his days are barely fewer
   * groups than his rows, and summing them again would cost more than it saves. A dense user's
   * summed per period, so their largest rows are asked as candidates.
   */
  groups(scope: SpendingScope, grain: SpendingGrain): Promise<SpendingGroup[]> {
    const { source } = this.reads;
    if (!this.dense(scope)) {
      return this.db.queryJson<SpendingGroup>(
        cached(`groups/${source}/${grain.subcategories}`, () =>
          storedGroupsSql(source, grain.subcategories),
        ),
        scopeParams(scope),
      );
    }
    const months = this.monthsOf(scope, grain);
    return this.db.queryJson<SpendingGroup>(
      cached(`summed/${months !== null}/${grain.subcategories}/${grain.days}`, () =>
        summedGroupsSql(months !== null, grain),
      ),
      [...scopeParams(scope), grain.period, ...(months ? [months.start, months.end] : [])],
    );
  }

  largestCandidates(
    scope: SpendingScope,
    grain: SpendingGrain,
    amounts: readonly Exact[],
  ): Promise<LargestCandidate[]> {
    const months = this.monthsOf(scope, grain);
    return this.db.queryJson<LargestCandidate>(
      cached(`candidates/${months !== null}`, () => candidatesSql(months !== null)),
      [
        ...scopeParams(scope),
        amounts.map((amount) => amount.toFixed(2)),
        ...(months ? [months.start, months.end] : []),
      ],
    );
  }

  merchantAmounts(
    scope: SpendingScope,
    names: readonly (string | null)[],
  ): Promise<MerchantAmount[]> {
    const { source } = this.reads;
    return this.db.queryJson<MerchantAmount>(
      cached(`amounts/${source}`, () => merchantAmountsSql(source)),
      [...scopeParams(scope), names.filter((name) => name !== null), names.includes(null)],
    );
  }

  dayTransactions(scope: SpendingScope): Promise<DayTransaction[]> {
    return this.db.queryJson<DayTransaction>(dayTransactionsSql, scopeParams(scope));
  }
}

/** The aggregates of `query`, read as `reads` says (spendingReadsOf, or the rows). */
export function spendingAggregates(
  db: DuckDbPool,
  query: SpendingQuery,
  reads: DuckDbSpendingReads,
): Promise<SpendingAggregates> {
  return aggregateSpending(new DuckDbSpendingReader(db, reads), query);
}
