/**
 * The spending analysis reads build-db's derived data (build/derived.ts) when the store has it:
 * the per-day rollup, else the account facts and platform flag copied onto each transaction.
 * Each source answers exactly what the query-time path (join + pattern matching) answers, for
 * every demo user, variant and scope; the derived ones are only taken when the store's platform
 * fingerprint matches the code's.
 */
import { describe, expect, it } from 'vitest';
import type { SpendingAggregates, SpendingQuery } from '../src/domain/spending/model.ts';
import { GROUP_BYS, SECONDARY_GROUP_BYS } from '../src/domain/spending/model.ts';
import { PLATFORM_RULES_FINGERPRINT } from '../src/engines/duckdb/platform-sql.ts';
import { DuckDbPool } from '../src/engines/duckdb/pool.ts';
import {
  type SpendingSource,
  spendingAggregates,
  spendingSourceOf,
} from '../src/engines/duckdb/spending.ts';
import { buildDemoStore } from './helpers/store.ts';

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

describe('derived spending data', () => {
  it('answers as the query-time path does, from the rollup and from the rows', async () => {
    const store = await DuckDbPool.open(await buildDemoStore(), { poolSize: 2 });
    try {
      expect(await spendingSourceOf(store)).toBe('rollup');
      const users = (await store.query<{ id: string }>('SELECT id FROM users ORDER BY id')).map(
        (row) => row.id,
      );
      const accounts = await store.query<{ id: string; link_id: string; user_id: string }>(
        'SELECT id, link_id, user_id FROM accounts ORDER BY id',
      );
      const [busiest] = await store.query<{ day: string }>(
        'SELECT transacted_at AS day FROM transactions GROUP BY 1 ORDER BY count(*) DESC, 1 LIMIT 1',
      );
      const variants = [
        ...GROUP_BYS.map((groupBy) => [groupBy, null] as const),
        ...SECONDARY_GROUP_BYS.map((secondary) => ['time_period', secondary] as const),
      ];
      let compared = 0;
      for (const userId of users) {
        const own = accounts.filter((account) => account.user_id === userId);
        const scopes: Array<[string | null, string[]]> = [
          [null, []],
          [own[0]?.link_id ?? null, []],
          [null, own.slice(0, 2).map((account) => account.id)],
        ];
        const windows = [
          { start: '2025-08-01', end: '2026-11-20' },
          // One day grouped by day lists its transaction ids: read from the rows.
          { start: busiest?.day as string, end: busiest?.day as string },
        ];
        for (const [groupBy, secondary] of variants) {
          for (const [linkId, accountIds] of scopes) {
            for (const includeIncome of [false, true]) {
              for (const window of windows) {
                const query: SpendingQuery = {
                  userId,
                  window,
                  groupBy,
                  timePeriod: window.start === window.end ? 'day' : 'month',
                  secondaryGroupBy: secondary,
                  linkId,
                  accountIds,
                  categories: [],
                  includeIncome,
                  minTotalAmount: '0',
                  withCashFlow: true,
                };
                const [rollup, rows, joined] = await Promise.all(
                  (['rollup', 'rows', 'joined'] as SpendingSource[]).map(async (source) =>
                    normalized(await spendingAggregates(store, query, source)),
                  ),
                );
                expect(rollup).toEqual(joined);
                expect(rows).toEqual(joined);
                compared++;
              }
            }
          }
        }
      }
      expect(compared).toBeGreaterThan(100);
    } finally {
      await store.close();
    }
  });

  it('is not used when the store does not record matching platform rules or lacks the rollup', async () => {
    const fake = (answer: (sql: string) => Promise<unknown[]>) => ({
      query: answer as unknown as DuckDbPool['query'],
    });
    expect(await spendingSourceOf(fake(async () => [{ platform_rules: 'x' }]))).toBe('joined');
    expect(
      await spendingSourceOf(
        fake(async () => {
          throw new Error('Binder Error: column platform_rules not found');
        }),
      ),
    ).toBe('joined');
    expect(
      await spendingSourceOf(
        fake(async (sql) => {
          if (sql.includes('store_meta')) return [{ platform_rules: PLATFORM_RULES_FINGERPRINT }];
          throw new Error('Catalog Error: Table with name spending_daily does not exist');
        }),
      ),
    ).toBe('rows');
  });
});
