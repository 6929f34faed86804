/**
 * One phase of the benchmark: a store, its scenarios over HTTP against the real server process,
 * then (optionally) the same scenarios' raw store queries in-process, the engine's ceiling.
 */
import { spawn } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import type { EngineJob } from './engine.ts';
import { measureHttp } from './load.ts';
import { startServer } from './process.ts';
import type { Row } from './report.ts';
import type { Scenario, Users } from './scenarios.ts';
import type { Measured } from './stats.ts';
import { type BenchStore, ROOT } from './stores.ts';

const usersOf = (store: BenchStore): Users => ({ typical: store.typical, heavy: store.heavy });

async function runEngine(
  job: EngineJob,
  env: Record<string, string>,
  path: string,
  progress: (line: string) => void,
): Promise<Map<number, { measured: Measured; queriesPerRequest: number }>> {
  await writeFile(path, JSON.stringify(job));
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', join(ROOT, 'bench', 'engine.ts'), path],
    {
      cwd: ROOT,
      // The ceiling is the raw store queries of every request: the in-process app that records
      // them must not answer repeats from its response cache.
      env: { ...process.env, ...env, RESPONSE_CACHE_MB: '0' },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  const results = new Map<number, { measured: Measured; queriesPerRequest: number }>();
  let errorText = '';
  child.stderr.on('data', (chunk: Buffer) => {
    errorText += chunk.toString();
  });
  createInterface({ input: child.stdout }).on('line', (line) => {
    const parsed = JSON.parse(line) as {
      index: number;
      queriesPerRequest: number;
      measured: Measured;
    };
    results.set(parsed.index, parsed);
    progress(
      `  engine: #${parsed.index} ${parsed.measured.requestsPerSecond.toFixed(0)} req/s, p50 ${parsed.measured.p50.toFixed(1)} ms`,
    );
  });
  const code = await new Promise<number | null>((resolve, reject) => {
    child.once('error', reject);
    child.once('close', resolve);
  });
  if (code !== 0) throw new Error(`the engine ceiling failed (exit ${code}): ${errorText.trim()}`);
  return results;
}

export interface Phase {
  store: BenchStore;
  set: 'main' | 'comparison';
  scenarios: Array<{ index: number; scenario: Scenario }>;
}

export async function runPhase(
  phase: Phase,
  progress: (line: string) => void,
  options: {
    env: Record<string, string>;
    seconds: number;
    warmup: number;
    engine: boolean;
    samples: number;
    jobPath: string;
  },
): Promise<Row[]> {
  const users = usersOf(phase.store);
  const rows: Row[] = [];
  progress(`[${phase.store.spec.label}] starting the server`);
  const server = await startServer({
    databasePath: phase.store.databasePath,
    ...(phase.store.databaseUrl ? { databaseUrl: phase.store.databaseUrl } : {}),
    env: options.env,
    progress,
  });
  const seen = new Set<string>();
  try {
    for (const { index, scenario } of phase.scenarios) {
      progress(
        `[${phase.store.spec.label}] HTTP: ${scenario.name} @${scenario.connections} (${Math.max(options.seconds, scenario.minSeconds ?? 0)}s)`,
      );
      const { measured: http, repeatShare } = await measureHttp({
        url: server.url,
        pid: server.pid,
        scenario,
        users,
        seconds: Math.max(options.seconds, scenario.minSeconds ?? 0),
        warmupSeconds: options.warmup,
        seed: 1000 + index,
        seen,
      });
      progress(
        `  ${http.requestsPerSecond.toFixed(0)} req/s, p50 ${http.p50.toFixed(1)} ms, p99 ${http.p99.toFixed(1)} ms, ${http.errors} errors`,
      );
      rows.push({
        store: phase.store.spec.label,
        scenario: scenario.name,
        connections: scenario.connections,
        ceiling: scenario.ceiling,
        http,
        repeatShare,
        engine: null,
        queriesPerRequest: null,
      });
    }
  } finally {
    await server.stop();
  }
  const engineIndexes = phase.scenarios
    .filter(({ scenario }) => scenario.ceiling === 'engine')
    .map(({ index }) => index);
  if (options.engine && engineIndexes.length > 0) {
    progress(
      `[${phase.store.spec.label}] engine ceiling: ${engineIndexes.length} scenarios in-process`,
    );
    const engine = await runEngine(
      {
        databasePath: phase.store.databasePath,
        ...(phase.store.databaseUrl ? { databaseUrl: phase.store.databaseUrl } : {}),
        set: phase.set,
        scenarios: engineIndexes,
        users,
        seconds: options.seconds,
        warmupSeconds: options.warmup,
        samples: options.samples,
        seed: 1000,
      },
      options.env,
      options.jobPath,
      progress,
    );
    phase.scenarios.forEach(({ index }, position) => {
      const found = engine.get(index);
      const row = rows[position];
      if (found && row) {
        row.engine = found.measured;
        row.queriesPerRequest = found.queriesPerRequest;
      }
    });
  }
  return rows;
}
