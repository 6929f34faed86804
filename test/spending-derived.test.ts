/**
 * The derived-column path of the spending query (store/build-derived.ts) answers exactly what
 * the join + pattern-matching path answers, for every demo user and variant, and is only taken
 * when the store's platform fingerprint matches the code's.
 */
import { describe, expect, it } from 'vitest';
import { GROUP_BYS, SECONDARY_GROUP_BYS } from '../src/domain/spending/model.ts';
import { DuckDbPool } from '../src/engines/duckdb/pool.ts';
import { hasCurrentDerivedColumns, sqlFor } from '../src/engines/duckdb/spending.ts';
import { buildDemoStore } from './helpers/store.ts';

async function rows(store: DuckDbPool, sql: string, params: unknown[]) {
  const result = await store.query(sql, params as never);
  return result.map((row) => JSON.stringify(row, Object.keys(row).sort())).sort();
}

describe('derived transaction columns', () => {
  it('are used on a store built by this code, with the same answers as the join path', async () => {
    const store = await DuckDbPool.open(await buildDemoStore(), { poolSize: 2 });
    try {
      expect(await hasCurrentDerivedColumns(store)).toBe(true);
      const users = (await store.query<{ id: string }>('SELECT id FROM users ORDER BY id')).map(
        (row) => row.id,
      );
      const accounts = await store.query<{ id: string; link_id: string; user_id: string }>(
        'SELECT id, link_id, user_id FROM accounts ORDER BY id',
      );
      const variants = [
        ...GROUP_BYS.map((groupBy) => [groupBy, null] as const),
        ...SECONDARY_GROUP_BYS.map((secondary) => ['time_period', secondary] as const),
      ];
      let compared = 0;
      for (const userId of users) {
        const own = accounts.filter((account) => account.user_id === userId);
        const scopes: Array<[string, string[]]> = [
          ['', []],
          [own[0]?.link_id ?? '', []],
          ['', own.slice(0, 2).map((account) => account.id)],
        ];
        for (const [groupBy, secondary] of variants) {
          for (const [linkId, accountIds] of scopes) {
            for (const includeIncome of [false, true]) {
              const params: unknown[] = [
                userId,
                '2025-08-01',
                '2026-11-20',
                linkId,
                accountIds,
                [],
                'month',
                includeIncome,
                true,
              ];
              if (groupBy === 'time_period') params.push(false);
              expect(await rows(store, sqlFor(groupBy, secondary, true), params)).toEqual(
                await rows(store, sqlFor(groupBy, secondary, false), params),
              );
              compared++;
            }
          }
        }
      }
      expect(compared).toBeGreaterThan(50);
    } finally {
      await store.close();
    }
  });

  it('are not used when the store does not record matching platform rules', async () => {
    const fake = (_generation: string, answer: () => Promise<unknown[]>) => ({
      query: answer as DuckDbPool['query'],
    });
    expect(
      await hasCurrentDerivedColumns(fake('g-old', async () => [{ platform_rules: 'x' }])),
    ).toBe(false);
    expect(
      await hasCurrentDerivedColumns(
        fake('g-missing', async () => {
          throw new Error('Binder Error: column platform_rules not found');
        }),
      ),
    ).toBe(false);
  });
});
