/**
 * The engines the behaviour suites run against. vitest.config.ts runs those suites once per
 * engine named here (a vitest project each, with TEST_ENGINE set), so a new engine is added by
 * naming it and teaching `openStore` (helpers/store.ts) to open it.
 */
export const ENGINES = ['duckdb', 'postgres'] as const;
export type EngineName = (typeof ENGINES)[number];

/** The engine of this test run: TEST_ENGINE, or the embedded default. */
export function testEngine(): EngineName {
  const name = process.env.TEST_ENGINE ?? 'duckdb';
  const engine = ENGINES.find((known) => known === name);
  if (!engine) throw new Error(`TEST_ENGINE=${name}: not one of ${ENGINES.join(', ')}`);
  return engine;
}
