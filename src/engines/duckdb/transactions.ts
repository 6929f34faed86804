import type {
  DailyTotalRecord,
  PageWindow,
  TransactionFilters,
  TransactionRecord,
  TransactionsPage,
} from '../../port/read-port.ts';
import type { DuckDbPool, SqlParam } from './pool.ts';

/**
 * $1 user, $2/$3 transacted_at bounds (NULL: open), $4 account ids, $5 link id ('' none),
 * $6 categories, $7 direction ('' none), $8/$9 amount bounds (NULL: open), $10 lower-cased text
 * ('' none). Every parameter is cast to its type (an untyped one is rebound on each run).
 */
const MATCHING = `
  t.user_id = $1::VARCHAR
  AND ($2::DATE IS NULL OR t.transacted_at >= $2::DATE)
  AND ($3::DATE IS NULL OR t.transacted_at <= $3::DATE)
  AND (len($4::VARCHAR[]) = 0 OR list_contains($4::VARCHAR[], t.account_id))
  AND ($5::VARCHAR = '' OR t.account_id IN
       (SELECT id FROM accounts WHERE user_id = $1::VARCHAR AND link_id = $5::VARCHAR))
  AND (len($6::VARCHAR[]) = 0 OR list_contains($6::VARCHAR[], t.category::VARCHAR))
  AND ($7::VARCHAR = '' OR t.direction::VARCHAR = $7::VARCHAR)
  AND ($8::DECIMAL(38, 2) IS NULL OR t.amount >= $8::DECIMAL(38, 2))
  AND ($9::DECIMAL(38, 2) IS NULL OR t.amount <= $9::DECIMAL(38, 2))
  AND ($10::VARCHAR = '' OR contains(lower(t.description), $10::VARCHAR)
       OR contains(lower(coalesce(t.merchant_name, '')), $10::VARCHAR))`;

/**
 * The listed columns and where they come from. A store built with the account facts copied onto
 * each transaction (build/derived.ts) needs no join: joining accounts made DuckDB build a hash
 * table of every account of every user for each page.
 */
const SOURCE = (accountFacts: boolean) =>
  accountFacts
    ? { from: 'transactions t', type: 't.account_type' }
    : {
        from: 'transactions t LEFT JOIN accounts a ON a.id = t.account_id AND a.user_id = t.user_id',
        type: 'a.type',
      };

const COLUMNS = (type: string) => `t.id, t.external_id, t.account_id, t.transacted_at, t.amount,
         t.direction, t.description, t.merchant_name, t.category, t.subcategory,
         t.merchant_category_code, t.is_hidden, t.is_internal_transfer,
         coalesce(${type} = 'investment', false) AS is_investment_account`;

/** $11 LIMIT (null: all), $12 OFFSET. */
const PAGE_SQL = (accountFacts: boolean) => {
  const { from, type } = SOURCE(accountFacts);
  return `
  SELECT ${COLUMNS(type)}
  FROM ${from}
  WHERE ${MATCHING}
  ORDER BY t.transacted_at DESC, t.id DESC
  LIMIT $11 OFFSET $12`;
};

/** $1 user, $2 id. */
const ONE_SQL = (accountFacts: boolean) => {
  const { from, type } = SOURCE(accountFacts);
  return `
  SELECT ${COLUMNS(type)}
  FROM ${from}
  WHERE t.user_id = $1::VARCHAR AND t.id = $2::VARCHAR`;
};

/** The two variants of each, built once: a constant text per variant keeps statements prepared. */
const PAGE = { true: PAGE_SQL(true), false: PAGE_SQL(false) };
const ONE = { true: ONE_SQL(true), false: ONE_SQL(false) };

/**
 * Totals of the days from $11 to $12 (the page's oldest and newest), over every matching transaction
 * of those days. The page is a run of the matching transactions in date order, so every day in
 * between that has one is on the page: these are exactly the page's days, each counted whole.
 */
const DAILY_TOTALS_SQL = `
  SELECT t.transacted_at AS date,
         coalesce(sum(t.amount) FILTER (WHERE t.direction = 'DEBIT'), 0) AS debits,
         coalesce(sum(t.amount) FILTER (WHERE t.direction = 'CREDIT'), 0) AS credits,
         count(*) AS count
  FROM transactions t
  WHERE ${MATCHING} AND t.transacted_at BETWEEN $11::DATE AND $12::DATE
  GROUP BY t.transacted_at
  ORDER BY t.transacted_at DESC`;

const COUNT_SQL = `SELECT count(*) AS count FROM transactions t WHERE ${MATCHING}`;

type DailyTotalRow = { date: string; debits: string; credits: string; count: string };

/** The parameters of MATCHING, in order. */
function matchingParams(userId: string, filters: TransactionFilters): SqlParam[] {
  return [
    userId,
    filters.from,
    filters.to,
    filters.accountIds,
    filters.linkId ?? '',
    filters.categories,
    filters.direction ?? '',
    filters.minAmount,
    filters.maxAmount,
    filters.text ?? '',
  ];
}

export async function transactionCount(
  db: DuckDbPool,
  userId: string,
  filters: TransactionFilters,
): Promise<number> {
  const [row] = await db.query<{ count: string }>(COUNT_SQL, matchingParams(userId, filters));
  return Number(row?.count ?? 0);
}

export function transactionChunks(
  db: DuckDbPool,
  accountFacts: boolean,
  userId: string,
  filters: TransactionFilters,
): AsyncIterable<TransactionRecord[]> {
  return db.stream<TransactionRecord & Record<string, unknown>>(PAGE[`${accountFacts}`], [
    ...matchingParams(userId, filters),
    null,
    0,
  ]);
}

/** `accountFacts`: the store's transactions carry their account's type (hasAccountFacts). */
export async function transactions(
  db: DuckDbPool,
  accountFacts: boolean,
  userId: string,
  filters: TransactionFilters,
  page: PageWindow,
): Promise<TransactionsPage> {
  const matching = matchingParams(userId, filters);
  const [rows, total] = await Promise.all([
    db.query<TransactionRecord & Record<string, unknown>>(PAGE[`${accountFacts}`], [
      ...matching,
      page.limit,
      page.offset,
    ]),
    page.limit === null ? null : transactionCount(db, userId, filters),
  ]);
  // The page's days run from its last row to its first (newest first); none when empty.
  const newest = rows[0];
  const oldest = rows.at(-1);
  const dailyRows =
    newest && oldest
      ? await db.query<DailyTotalRow>(DAILY_TOTALS_SQL, [
          ...matching,
          oldest.transacted_at,
          newest.transacted_at,
        ])
      : [];
  return {
    rows,
    total: total ?? rows.length,
    dailyTotals: dailyRows.map((row): DailyTotalRecord => ({ ...row, count: Number(row.count) })),
  };
}

export async function transaction(
  db: DuckDbPool,
  accountFacts: boolean,
  userId: string,
  id: string,
): Promise<TransactionRecord | null> {
  const [row] = await db.query<TransactionRecord & Record<string, unknown>>(
    ONE[`${accountFacts}`],
    [userId, id],
  );
  return row ?? null;
}

/** Does the store copy each transaction's account type onto it (build/derived.ts)? */
export function hasAccountFacts(db: Pick<DuckDbPool, 'query'>): Promise<boolean> {
  return db.query('SELECT account_type FROM transactions LIMIT 0').then(
    () => true,
    () => false,
  );
}
