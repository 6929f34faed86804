/**
 * Spending queries that cover how an engine reads: windows of whole calendar months and
 * partial ones at either end, periods that monthly rollups answer (month, quarter) or not
 * (week, and a single day, which lists ids), link and account scopes, with and without income,
 * for every grouping. And a store with a dense user: one whose days hold many transactions, so
 * build-db gives him a monthly rollup (ingest/derive.ts).
 */
import { join } from 'node:path';
import type { TimePeriod, Window } from '../../src/domain/calendar.ts';
import {
  GROUP_BYS,
  SECONDARY_GROUP_BYS,
  type SpendingQuery,
} from '../../src/domain/spending/model.ts';
import type { DuckDbPool } from '../../src/engines/duckdb/pool.ts';
import { buildStore } from '../../src/ingest/duckdb/build.ts';
import { generateFixtures } from '../../tools/demo-data/generator.ts';
import { spendingQuery } from './spending-query.ts';
import { makeTempDir } from './store.ts';

const VARIANTS = [
  ...GROUP_BYS.map((groupBy) => [groupBy, null] as const),
  ...SECONDARY_GROUP_BYS.map((secondary) => ['time_period', secondary] as const),
];

type Scope = [linkId: string | null, accountIds: string[]];

/** The queries for one user of the store (its accounts and busiest day read from it). */
export async function spendingQueriesFor(
  store: DuckDbPool,
  userId: string,
): Promise<SpendingQuery[]> {
  const accounts = await store.query<{ id: string; link_id: string }>(
    'SELECT id, link_id FROM accounts WHERE user_id = $1 ORDER BY id',
    [userId],
  );
  const [busiest] = await store.query<{ day: string }>(
    `SELECT transacted_at AS day FROM transactions WHERE user_id = $1
     GROUP BY 1 ORDER BY count(*) DESC, 1 LIMIT 1`,
    [userId],
  );
  const scopes: Scope[] = [
    [null, []],
    [accounts[0]?.link_id ?? null, []],
    [null, accounts.slice(0, 2).map((account) => account.id)],
  ];
  const cases: Array<[Window, TimePeriod, Scope, boolean]> = [
    ...scopes.flatMap((scope) =>
      [false, true].map((includeIncome): [Window, TimePeriod, Scope, boolean] => [
        { start: '2025-08-01', end: '2026-11-20' },
        'month',
        scope,
        includeIncome,
      ]),
    ),
    [{ start: '2025-08-17', end: '2026-10-31' }, 'quarter', [null, []], true],
    [{ start: '2025-08-17', end: '2026-10-31' }, 'week', [null, []], true],
    [{ start: '2026-02-10', end: '2026-03-05' }, 'month', [null, []], true],
    [{ start: busiest?.day as string, end: busiest?.day as string }, 'day', [null, []], true],
  ];
  return VARIANTS.flatMap(([groupBy, secondary]) =>
    cases.map(
      ([window, timePeriod, [linkId, accountIds], includeIncome]): SpendingQuery =>
        spendingQuery({
          userId,
          window,
          groupBy,
          timePeriod,
          secondaryGroupBy: secondary,
          linkId,
          accountIds,
          includeIncome,
        }),
    ),
  );
}

let denseStore: Promise<{ databasePath: string; denseUserId: string }> | undefined;

/** Two typical users and one of 20,000 transactions, built once per test file. */
export function buildDenseStore(): Promise<{ databasePath: string; denseUserId: string }> {
  denseStore ??= (async () => {
    const sourceDir = makeTempDir('dense-source');
    const { heavyUserId } = await generateFixtures({
      users: 2,
      months: 14,
      seed: 'dense months',
      outDir: sourceDir,
      heavyUserTransactions: 20_000,
    });
    const databasePath = join(makeTempDir('dense-store'), 'finance.duckdb');
    await buildStore({ sourceDir, databasePath });
    return { databasePath, denseUserId: heavyUserId as string };
  })();
  return denseStore;
}
