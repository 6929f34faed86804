/**
 * The engines the behaviour suites run against. vitest.config.ts runs those suites once per
 * engine named here (a vitest project each, with TEST_ENGINE set), so a new engine is added by
 * naming it and teaching `openStore` (helpers/store.ts) to open it.
 */
export const ENGINES = ['duckdb', 'postgres'] as const;
export type EngineName = (typeof ENGINES)[number];

/**
 * The embedded engine: the one a test process without TEST_ENGINE reads, and the one whose
 * vitest project also runs the suites that do not depend on the engine (unit, ops, golden).
 */
export const DEFAULT_ENGINE: EngineName = 'duckdb';

/** The engine of this test run: TEST_ENGINE, or the default. */
export function testEngine(): EngineName {
  const name = process.env.TEST_ENGINE ?? DEFAULT_ENGINE;
  const engine = ENGINES.find((known) => known === name);
  if (!engine) throw new Error(`TEST_ENGINE=${name}: not one of ${ENGINES.join(', ')}`);
  return engine;
}
