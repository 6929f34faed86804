/**
 * The memory budget and its parts (src/memory-plan.ts): the budget from MEMORY_LIMIT_MB, the
 * container or the default; each part from its own setting or a share of the budget; and a
 * configuration whose parts cannot fit refused with the line that says what fits.
 */
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import {
  heapSettings,
  heapSizeGiven,
  memoryPlanProblem,
  oldSpaceMib,
  planMemory,
  YOUNG_GENERATION,
} from '../../src/memory-plan.ts';

const MIB = 1024 * 1024;
const inMib = (plan: ReturnType<typeof planMemory>) => ({
  budget: plan.budget / MIB,
  workingSet: plan.workingSet / MIB,
  responseCache: plan.responseCache / MIB,
  duckdb: plan.duckdb / MIB,
  heap: plan.heap / MIB,
});

describe('the memory plan', () => {
  it('sizes the heap from the environment as from the loaded configuration', () => {
    const envs = [
      {},
      { MEMORY_LIMIT_MB: '2048' },
      { MEMORY_LIMIT_MB: '300', RESPONSE_CACHE_MB: '100' },
      { RESPONSE_CACHE_MB: '0', DATABASE_URL: 'postgres://h/db' },
      { MEMORY_LIMIT_MB: '', RESPONSE_CACHE_MB: '' },
    ];
    for (const env of envs) {
      const fromEnv = planMemory(heapSettings(env), 768 * MIB);
      const fromConfig = planMemory(loadConfig(env), 768 * MIB);
      expect(oldSpaceMib(fromEnv), JSON.stringify(env)).toBe(oldSpaceMib(fromConfig));
    }
    // What the configuration refuses is left out: the configuration then refuses it.
    expect(heapSettings({ MEMORY_LIMIT_MB: '1e3', RESPONSE_CACHE_MB: '-1' })).toMatchObject({
      MEMORY_LIMIT_MB: undefined,
      RESPONSE_CACHE_MB: undefined,
    });
  });

  it('takes the budget from MEMORY_LIMIT_MB, else the container, else 512 MiB', () => {
    expect(planMemory(loadConfig({ MEMORY_LIMIT_MB: '1024' }), 256 * MIB)).toMatchObject({
      budget: 1024 * MIB,
      source: 'MEMORY_LIMIT_MB',
    });
    expect(planMemory(loadConfig({}), 256 * MIB)).toMatchObject({
      budget: 256 * MIB,
      source: 'container',
    });
    expect(planMemory(loadConfig({}), null)).toMatchObject({
      budget: 512 * MIB,
      source: 'default',
    });
  });

  it('sizes the parts not set from the budget: DuckDB beside the working set, or the working set alone in front of the cluster', () => {
    expect(inMib(planMemory(loadConfig({}), null))).toEqual({
      budget: 512,
      workingSet: 96,
      responseCache: 32,
      duckdb: 128,
      heap: 160,
    });
    expect(
      inMib(planMemory(loadConfig({ DATABASE_URL: 'postgres://db:5432/finance' }), null)),
    ).toEqual({ budget: 512, workingSet: 224, responseCache: 32, duckdb: 0, heap: 160 });
  });

  it('keeps the parts set on their own, DuckDB’s in its own units', () => {
    const plan = planMemory(
      loadConfig({
        WORKING_SET_MB: '64',
        RESPONSE_CACHE_MB: '0',
        DUCKDB_MEMORY_LIMIT: '100MB',
      }),
      null,
    );
    expect(plan.workingSet).toBe(64 * MIB);
    expect(plan.responseCache).toBe(0);
    expect(plan.duckdb).toBe(100e6);
  });

  it('fits the heap it plans, and gives V8 the old generation that makes it', () => {
    const plan = planMemory(loadConfig({}), null);
    expect(memoryPlanProblem(plan, plan.heap)).toBeNull();
    expect(oldSpaceMib(plan) * MIB + YOUNG_GENERATION).toBe(plan.heap);
  });

  it('refuses a heap too small for the cached answers and the requests, saying what fits', () => {
    const plan = planMemory(loadConfig({ RESPONSE_CACHE_MB: '48' }), null);
    expect(memoryPlanProblem(plan, 128 * MIB)).toBe(
      'the V8 heap limit (128 MiB) is below what RESPONSE_CACHE_MB (48 MiB) and the requests need: give the heap at least 176 MiB (--max-old-space-size=128) or the cache at most 0 MiB',
    );
  });

  it('refuses parts that together pass the budget, saying by how much', () => {
    const plan = planMemory(loadConfig({ WORKING_SET_MB: '256' }), null);
    expect(memoryPlanProblem(plan, plan.heap)).toBe(
      'the memory parts (working set 256 MiB, response cache 32 MiB, DuckDB 128 MiB, V8 heap 160 MiB) need 672 MiB with what none of them counts, over the 512 MiB budget (the default, 512 MiB): lower them by 160 MiB (WORKING_SET_MB fits at most 96 MiB) or raise MEMORY_LIMIT_MB',
    );
  });

  it('knows a heap size given on the command line or in NODE_OPTIONS', () => {
    expect(heapSizeGiven(['--max-old-space-size=256'], '')).toBe(true);
    expect(heapSizeGiven([], '--enable-source-maps --max_old_space_size=300')).toBe(true);
    expect(heapSizeGiven(['--import', 'tsx'], '--enable-source-maps')).toBe(false);
  });
});
