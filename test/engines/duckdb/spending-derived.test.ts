/**
 * The spending analysis reads build-db's rollups (ingest/derive.ts): the daily one, and the
 * monthly one for users whose months are far fewer groups than their days. They answer exactly
 * what the transactions themselves answer, for every user, variant, scope and window shape.
 */
import { describe, expect, it } from 'vitest';
import { Exact } from '../../../src/domain/money.ts';
import type { SpendingAggregates } from '../../../src/domain/spending/model.ts';
import { DuckDbPool } from '../../../src/engines/duckdb/pool.ts';
import {
  type DuckDbSpendingReads,
  spendingAggregates,
  spendingReadsOf,
} from '../../../src/engines/duckdb/spending.ts';
import { buildDenseStore, spendingQueriesFor } from '../../helpers/spending-cases.ts';
import { buildDemoStore } from '../../helpers/store.ts';

/** The aggregates in a stable order: entries, breakdowns and keys sorted, amounts in order. */
function normalized(aggregates: SpendingAggregates): string[] {
  const text = (value: unknown) =>
    JSON.stringify(value, (_key, item) =>
      typeof item === 'bigint'
        ? item.toString()
        : item && typeof item === 'object' && !Array.isArray(item) && !(item instanceof Exact)
          ? Object.fromEntries(Object.entries(item).sort(([a], [b]) => (a < b ? -1 : 1)))
          : item,
    );
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
 * Compares the store's own reads with the rows, for each user and query of
 * spendingQueriesFor. Returns how many queries were compared.
 */
async function compareSources(
  store: DuckDbPool,
  reads: DuckDbSpendingReads,
  users: readonly string[],
) {
  const none = new Set<string>();
  let compared = 0;
  for (const userId of users) {
    for (const query of await spendingQueriesFor(store, userId)) {
      const [own, rows] = await Promise.all(
        [reads, { source: 'rows', monthlyUsers: none } as const].map(async (read) =>
          normalized(await spendingAggregates(store, query, read)),
        ),
      );
      expect(own, JSON.stringify(query)).toEqual(rows);
      compared++;
    }
  }
  return compared;
}

// Many query shapes, each answered twice: minutes on a loaded two-core machine.
describe('derived spending data', { timeout: 180_000 }, () => {
  it('answers from the daily rollup as from the transactions', async () => {
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

  it('answers from the monthly rollup as from the transactions, for a dense user', async () => {
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
});
