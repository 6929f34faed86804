import { defineConfig } from 'vitest/config';
import { DEFAULT_ENGINE, ENGINES } from './test/helpers/engine.ts';

export default defineConfig({
  test: {
    // Every response of the app is checked against openapi.yaml, and every serialized body
    // against zod's encoding of its payload (see the files).
    setupFiles: ['test/setup/contract-recorder.ts', 'test/setup/serialized-bodies.ts'],
    // Many suites start a server or a CLI through tsx: on a busy two-core machine that alone
    // took over 30 s.
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: 'forks',
    // Most suites wait on a store, a child process or the cluster's servers rather than on
    // the CPU: three workers on two cores finish the two engines' runs in about half the time.
    maxWorkers: 3,
    projects: ENGINES.map((engine) => ({
      extends: true,
      test: {
        name: engine,
        env: { TEST_ENGINE: engine },
        // The postgres suites run on a cluster the test run starts and removes itself.
        globalSetup: engine === 'postgres' ? ['test/setup/postgres-cluster.ts'] : [],
        // test/api/ holds every suite that reads the port through the app: it runs on every
        // engine. test/engines/<engine>/ holds an engine's own suites. Everything else (domain
        // rules, validators, CLIs, process behaviour) runs once, in DEFAULT_ENGINE's project.
        include:
          engine === DEFAULT_ENGINE
            ? ['test/**/*.test.ts']
            : ['test/api/**/*.test.ts', `test/engines/${engine}/**/*.test.ts`],
        exclude: ENGINES.filter((other) => other !== engine).map(
          (other) => `test/engines/${other}/**`,
        ),
      },
    })),
  },
});
