/**
 * The spending analysis reads build-db's derived data (build/derived.ts) when the store has it:
 * the daily and monthly rollups, else the account facts and platform flag copied onto each
 * transaction. Each source answers exactly what the query-time path (join + pattern matching)
 * answers, for every user, variant, scope and window shape; the derived ones are only taken
 * when the store's platform fingerprint matches the code's, and the monthly rollup only for
 * users whose months are far fewer groups than their days.
 */
import { describe, expect, it } from 'vitest';
import type { SpendingAggregates } from '../../../src/domain/spending/model.ts';
import { DuckDbPool } from '../../../src/engines/duckdb/pool.ts';
import {
  type SpendingReads,
  spendingAggregates,
  spendingReadsOf,
} from '../../../src/engines/duckdb/spending.ts';
import { PLATFORM_RULES_FINGERPRINT } from '../../../src/engines/sql/platform.ts';
import { buildDenseStore, spendingQueriesFor } from '../../helpers/spending-cases.ts';
import { buildDemoStore } from '../../helpers/store.ts';

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

/**
 * Compares the store's own reads with the rows and the join, for each user and query of
 * spendingQueriesFor. Returns how many queries were compared.
 */
async function compareSources(store: DuckDbPool, reads: SpendingReads, users: readonly string[]) {
  const none = new Set<string>();
  let compared = 0;
  for (const userId of users) {
    for (const query of await spendingQueriesFor(store, userId)) {
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
    const { databasePath, denseUserId } = await buildDenseStore();
    const store = await DuckDbPool.open(databasePath, { poolSize: 2 });
    try {
      const reads = await spendingReadsOf(store);
      expect(reads).toEqual({ source: 'rollup', monthlyUsers: new Set([denseUserId]) });
      const [typical] = await store.query<{ id: string }>(
        'SELECT id FROM users WHERE id <> $1 ORDER BY id LIMIT 1',
        [denseUserId],
      );
      expect(
        await compareSources(store, reads, [denseUserId, typical?.id as string]),
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
