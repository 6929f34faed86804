import { defineConfig } from 'vitest/config';
import { ENGINES } from './test/helpers/engine.ts';

/**
 * Suites that exercise the read port through the app: they run once per engine. The others
 * (domain rules, validators, builder, CLIs, process behaviour, DuckDB internals, the file
 * hot swap) run once, on the default.
 */
const BEHAVIOUR_SUITES = [
  'test/auth.test.ts',
  'test/balance-history.test.ts',
  'test/balances.test.ts',
  'test/contract.test.ts',
  'test/cross-user.test.ts',
  'test/errors.test.ts',
  'test/income.test.ts',
  'test/liabilities.test.ts',
  'test/links.test.ts',
  'test/scoping.test.ts',
  'test/spending-combinations.test.ts',
  'test/spending-edges.test.ts',
  'test/spending-exact-figures.test.ts',
  'test/spending-properties.test.ts',
  'test/spending-rules.test.ts',
  'test/spending-serialized.test.ts',
  'test/spending-validation.test.ts',
  'test/transactions.test.ts',
  'test/validation-endpoints.test.ts',
  'test/defects-health.test.ts',
  'test/defects-rate-limit.test.ts',
  'test/defects-windows.test.ts',
  'test/discovery.test.ts',
  'test/transactions-filters.test.ts',
  'test/transactions-sync.test.ts',
];

export default defineConfig({
  test: {
    // Every response of the app is checked against openapi.yaml (see the file).
    setupFiles: ['test/setup/contract-recorder.ts'],
    testTimeout: 30_000,
    hookTimeout: 120_000,
    pool: 'forks',
    // Most suites wait on a store, a child process or the cluster's servers rather than on
    // the CPU: three workers on two cores finish the two engines' runs in about half the time.
    maxWorkers: 3,
    projects: ENGINES.map((engine, index) => ({
      extends: true,
      test: {
        name: engine,
        env: { TEST_ENGINE: engine },
        // The postgres suites run on a cluster the test run starts and removes itself.
        globalSetup: engine === 'postgres' ? ['test/setup/postgres-cluster.ts'] : [],
        // The default engine runs everything but the cluster's own suites (test/postgres/);
        // every other engine the behaviour suites and its own.
        include:
          index === 0
            ? ['test/**/*.test.ts']
            : [...BEHAVIOUR_SUITES, `test/${engine}/**/*.test.ts`],
        exclude: index === 0 ? ['test/postgres/**'] : [],
      },
    })),
  },
});
