/**
 * The spending analysis reads build-db's derived data (build/derived.ts) when the store has it:
 * the daily and monthly rollups, else the account facts and platform flag copied onto each
 * transaction. Each source answers exactly what the query-time path (join + pattern matching)
 * answers, for every user, variant, scope and window shape; the derived ones are only taken
 * when the store's platform fingerprint matches the code's, and the monthly rollup only for
 * users whose months are far fewer groups than their days.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildStore } from '../src/build/build.ts';
import { generateFixtures } from '../src/demo-data/generator.ts';
import type { TimePeriod, Window } from '../src/domain/calendar.ts';
import type { SpendingAggregates, SpendingQuery } from '../src/domain/spending/model.ts';
import { GROUP_BYS, SECONDARY_GROUP_BYS } from '../src/domain/spending/model.ts';
import { PLATFORM_RULES_FINGERPRINT } from '../src/engines/duckdb/platform-sql.ts';
import { DuckDbPool } from '../src/engines/duckdb/pool.ts';
import {
  type SpendingReads,
  spendingAggregates,
  spendingReadsOf,
} from '../src/engines/duckdb/spending.ts';
import { buildDemoStore, makeTempDir } from './helpers/store.ts';

/** The aggregates in a stable order: entries and breakdowns sorted, amounts in order. */
function normalized(aggregates: SpendingAggregates): string[] {
  const text = (value: unknown) =>
    JSON.stringify(value, (_key, item) => (typeof item === 'bigint' ? item.toString() : item));
  return [
    ...aggregates.entries
      .map((entry) =>
        text({
          ...entry,
          amountsInCents:
            entry.amountsInCents && [...entry.amountsInCents].sort((a, b) => (a < b ? -1 : 1)),
        }),
      )
      .sort(),
    ...aggregates.breakdowns.map(text).sort(),
    text(aggregates.summary),
    text(aggregates.cashFlow),
  ];
}

const VARIANTS = [
  ...GROUP_BYS.map((groupBy) => [groupBy, null] as const),
  ...SECONDARY_GROUP_BYS.map((secondary) => ['time_period', secondary] as const),
];

type Case = [Window, TimePeriod, [string | null, string[]], boolean];

/**
 * Compares the store's own reads with the rows and the join for each user, on windows of whole
 * months and partial ones at either end, periods read from the monthly rollup (month, quarter)
 * or from the daily one only (week, day), link and account scopes, with and without income.
 * Returns how many queries were compared.
 */
async function compareSources(store: DuckDbPool, reads: SpendingReads, users: readonly string[]) {
  const none = new Set<string>();
  const accounts = await store.query<{ id: string; link_id: string; user_id: string }>(
    'SELECT id, link_id, user_id FROM accounts ORDER BY id',
  );
  let compared = 0;
  for (const userId of users) {
    const own = accounts.filter((account) => account.user_id === userId);
    const [busiest] = await store.query<{ day: string }>(
      `SELECT transacted_at AS day FROM transactions WHERE user_id = $1
       GROUP BY 1 ORDER BY count(*) DESC, 1 LIMIT 1`,
      [userId],
    );
    const cases: Case[] = [
      ...[
        [null, []] as [string | null, string[]],
        [own[0]?.link_id ?? null, []] as [string | null, string[]],
        [null, own.slice(0, 2).map((account) => account.id)] as [string | null, string[]],
      ].flatMap((scope) =>
        [false, true].map(
          (includeIncome): Case => [
            { start: '2025-08-01', end: '2026-11-20' },
            'month',
            scope,
            includeIncome,
          ],
        ),
      ),
      [{ start: '2025-08-17', end: '2026-10-31' }, 'quarter', [null, []], true],
      [{ start: '2025-08-17', end: '2026-10-31' }, 'week', [null, []], true],
      [{ start: '2026-02-10', end: '2026-03-05' }, 'month', [null, []], true],
      // One day grouped by day lists its transaction ids: read from the rows.
      [{ start: busiest?.day as string, end: busiest?.day as string }, 'day', [null, []], true],
    ];
    for (const [groupBy, secondary] of VARIANTS) {
      for (const [window, timePeriod, [linkId, accountIds], includeIncome] of cases) {
        const query: SpendingQuery = {
          userId,
          window,
          groupBy,
          timePeriod,
          secondaryGroupBy: secondary,
          linkId,
          accountIds,
          categories: [],
          includeIncome,
          minTotalAmount: '0',
          withCashFlow: true,
        };
        const [own, rows, joined] = await Promise.all(
          [
            reads,
            { source: 'rows', monthlyUsers: none } as const,
            { source: 'joined', monthlyUsers: none } as const,
          ].map(async (read) => normalized(await spendingAggregates(store, query, read))),
        );
        expect(own, JSON.stringify(query)).toEqual(joined);
        expect(rows, JSON.stringify(query)).toEqual(joined);
        compared++;
      }
    }
  }
  return compared;
}

describe('derived spending data', () => {
  it('answers as the query-time path does, from the daily rollup and from the rows', async () => {
    const store = await DuckDbPool.open(await buildDemoStore(), { poolSize: 2 });
    try {
      const reads = await spendingReadsOf(store);
      // The demo users' months are barely fewer groups than their days: no monthly rollup.
      expect(reads).toEqual({ source: 'rollup', monthlyUsers: new Set() });
      const users = (await store.query<{ id: string }>('SELECT id FROM users ORDER BY id')).map(
        (row) => row.id,
      );
      expect(await compareSources(store, reads, users)).toBeGreaterThan(100);
    } finally {
      await store.close();
    }
  });

  it('answers as the query-time path does from the monthly rollup, for a dense user', async () => {
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
    const store = await DuckDbPool.open(databasePath, { poolSize: 2 });
    try {
      const reads = await spendingReadsOf(store);
      expect(reads).toEqual({ source: 'rollup', monthlyUsers: new Set([heavyUserId]) });
      const [typical] = await store.query<{ id: string }>(
        'SELECT id FROM users WHERE id <> $1 ORDER BY id LIMIT 1',
        [heavyUserId as string],
      );
      expect(
        await compareSources(store, reads, [heavyUserId as string, typical?.id as string]),
      ).toBeGreaterThan(50);
    } finally {
      await store.close();
    }
  });

  it('is not used when the store does not record matching platform rules or lacks the rollups', async () => {
    const fake = (answer: (sql: string) => Promise<unknown[]>) => ({
      query: answer as unknown as DuckDbPool['query'],
    });
    const none = new Set();
    expect(await spendingReadsOf(fake(async () => [{ platform_rules: 'x' }]))).toEqual({
      source: 'joined',
      monthlyUsers: none,
    });
    expect(
      await spendingReadsOf(
        fake(async () => {
          throw new Error('Binder Error: column platform_rules not found');
        }),
      ),
    ).toEqual({ source: 'joined', monthlyUsers: none });
    expect(
      await spendingReadsOf(
        fake(async (sql) => {
          if (sql.includes('store_meta')) return [{ platform_rules: PLATFORM_RULES_FINGERPRINT }];
          throw new Error('Catalog Error: Table with name spending_monthly does not exist');
        }),
      ),
    ).toEqual({ source: 'rows', monthlyUsers: none });
  });
});
