/**
 * The memory budget, as the real server process applies it (docs/deployment.md, "Memory"):
 * V8's heap sized from the budget when the process starts (it replaces itself with one given
 * --max-old-space-size), each part's limit and use on /metrics, and a configuration whose parts
 * cannot fit refused at start with one line saying what fits, instead of the process dying of
 * "JavaScript heap out of memory" under load.
 */
import { describe, expect, it } from 'vitest';
import { DEMO_TODAY, demoStoreCopy, startServerProcess } from '../helpers/server.ts';

const MIB = 1024 * 1024;

/** The value of `series` in a Prometheus text exposition. */
function value(text: string, series: string): number {
  const line = text.split('\n').find((candidate) => candidate.startsWith(`${series} `));
  return line ? Number(line.slice(series.length + 1)) : Number.NaN;
}

describe('the memory budget', () => {
  it('sizes V8’s heap and the parts from the budget, and shows them on /metrics', async () => {
    const demo = await demoStoreCopy([]);
    const server = await startServerProcess({
      DATABASE_PATH: demo.path,
      TODAY: DEMO_TODAY,
      MEMORY_LIMIT_MB: '640',
      METRICS_PORT: '0',
      // The test process's own heap flags are not the server's.
      NODE_OPTIONS: '',
    });
    try {
      const port = /"port":(\d+),"msg":"metrics listening"/.exec(server.output())?.[1];
      const text = await (await fetch(`http://127.0.0.1:${port}/metrics`)).text();
      expect(value(text, 'memory_budget_bytes')).toBe(640 * MIB);
      // Shares of 640 MiB: DuckDB a quarter, the working set 3/16, the cache 1/16, the heap 5/16.
      expect(value(text, 'memory_part_limit_bytes{part="duckdb"}')).toBe(160 * MIB);
      expect(value(text, 'memory_part_limit_bytes{part="working_set"}')).toBe(120 * MIB);
      expect(value(text, 'memory_part_limit_bytes{part="response_cache"}')).toBe(40 * MIB);
      expect(value(text, 'memory_part_limit_bytes{part="heap"}')).toBe(200 * MIB);
      const parts = ['working_set', 'duckdb', 'heap', 'mapped_files', 'other'].map((part) =>
        value(text, `memory_part_used_bytes{part="${part}"}`),
      );
      for (const used of parts) expect(used).toBeGreaterThanOrEqual(0);
      // Node's and DuckDB's code, mapped from their files: tens of MiB on Linux.
      expect(value(text, 'memory_part_used_bytes{part="mapped_files"}')).toBeGreaterThan(10 * MIB);
      // What the parts hold adds up to the resident memory.
      expect(parts.reduce((a, b) => a + b, 0)).toBe(
        value(text, 'memory_part_used_bytes{part="total"}'),
      );
    } finally {
      server.child.kill('SIGTERM');
      await server.exited;
    }
  });

  it('refuses at start a heap too small for the cached answers, with one line saying what fits', async () => {
    const demo = await demoStoreCopy([]);
    const failure = await startServerProcess({
      DATABASE_PATH: demo.path,
      RESPONSE_CACHE_MB: '48',
      NODE_OPTIONS: '--max-old-space-size=80',
    }).then(
      () => null,
      (error: Error) => error.message,
    );
    expect(failure).toContain(
      'finance-api: the V8 heap limit (128 MiB) is below what RESPONSE_CACHE_MB (48 MiB) and the requests need: give the heap at least 176 MiB (--max-old-space-size=128) or the cache at most 0 MiB\n',
    );
    expect(failure).not.toContain('Error:');
  });

  it('refuses at start parts that together pass the budget, with one line saying what fits', async () => {
    const demo = await demoStoreCopy([]);
    const failure = await startServerProcess({
      DATABASE_PATH: demo.path,
      MEMORY_LIMIT_MB: '512',
      WORKING_SET_MB: '300',
      NODE_OPTIONS: '',
    }).then(
      () => null,
      (error: Error) => error.message,
    );
    expect(failure).toContain(
      'finance-api: the memory parts (working set 300 MiB, response cache 32 MiB, DuckDB 128 MiB, V8 heap 160 MiB) need 716 MiB with what none of them counts, over the 512 MiB budget (MEMORY_LIMIT_MB): lower them by 204 MiB (WORKING_SET_MB fits at most 96 MiB) or raise MEMORY_LIMIT_MB\n',
    );
  });
});
