/**
 * One phase of the benchmark: a store, its scenarios over HTTP against the real server process
 * (one process for the whole phase: its working set carries from one scenario to the next),
 * then (optionally) the same scenarios' raw store queries in-process, the engine's ceiling.
 */
import { spawn } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import type { EngineJob, EngineResult } from './engine.ts';
import { measureHttp } from './load.ts';
import { startServer } from './process.ts';
import type { Row } from './report.ts';
import type { Scenario, Users } from './scenarios.ts';
import { type BenchStore, ROOT } from './stores.ts';

const usersOf = (store: BenchStore): Users => ({ typical: store.typical, heavy: store.heavy });

async function runEngine(
  job: EngineJob,
  env: Record<string, string>,
  path: string,
  progress: (line: string) => void,
): Promise<Map<number, EngineResult>> {
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
  const results = new Map<number, EngineResult>();
  let errorText = '';
  child.stderr.on('data', (chunk: Buffer) => {
    errorText += chunk.toString();
  });
  createInterface({ input: child.stdout }).on('line', (line) => {
    const parsed = JSON.parse(line) as EngineResult;
    results.set(parsed.index, parsed);
    progress(
      parsed.measured
        ? `  engine: #${parsed.index} ${parsed.measured.requestsPerSecond.toFixed(0)} req/s, p50 ${parsed.measured.p50.toFixed(1)} ms`
        : `  engine: #${parsed.index} ${(parsed.memoryShare * 100).toFixed(0)}% of its requests answered from memory: no ceiling`,
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

export interface PhaseResult {
  rows: Row[];
  /** The server's peak resident set over the whole phase (prewarms and warmups included), MiB. */
  serverPeakRssMiB: number | null;
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
): Promise<PhaseResult> {
  const users = usersOf(phase.store);
  const rows: Row[] = [];
  let serverPeakRssMiB: number | null = null;
  const peak = (value: number | null) => {
    if (value !== null) serverPeakRssMiB = Math.max(serverPeakRssMiB ?? 0, value);
  };
  progress(`[${phase.store.spec.label}] starting the server`);
  const server = await startServer({
    databasePath: phase.store.databasePath,
    ...(phase.store.databaseUrl ? { databaseUrl: phase.store.databaseUrl } : {}),
    env: options.env,
    progress,
  });
  const seen = new Set<string>();
  const touched = new Set<string>();
  try {
    for (const { index, scenario } of phase.scenarios) {
      progress(
        `[${phase.store.spec.label}] HTTP: ${scenario.name} @${scenario.connections} (${Math.max(options.seconds, scenario.minSeconds ?? 0)}s)`,
      );
      const {
        measured: http,
        repeatShare,
        workingSet,
        peakBeforeMiB,
      } = await measureHttp({
        url: server.url,
        pid: server.pid,
        metricsUrl: server.metricsUrl,
        scenario,
        users,
        seconds: Math.max(options.seconds, scenario.minSeconds ?? 0),
        warmupSeconds: options.warmup,
        seed: 1000 + index,
        seen,
        touched,
      });
      peak(peakBeforeMiB);
      peak(http.peakRssMiB);
      progress(
        `  ${http.requestsPerSecond.toFixed(0)} req/s, p50 ${http.p50.toFixed(1)} ms, p99 ${http.p99.toFixed(1)} ms, ${http.errors} errors` +
          (workingSet
            ? `; working set ${(workingSet.after.bytes / 2 ** 20).toFixed(0)} MiB, ${workingSet.after.users} users, ${workingSet.hits} hits, ${workingSet.misses} misses`
            : ''),
      );
      rows.push({
        store: phase.store.spec.label,
        scenario: scenario.name,
        connections: scenario.connections,
        ceiling: scenario.ceiling,
        http,
        repeatShare,
        workingSet,
        engine: null,
        engineMemoryShare: null,
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
        row.engineMemoryShare = found.memoryShare;
        row.queriesPerRequest = found.queriesPerRequest;
      }
    });
  }
  return { rows, serverPeakRssMiB };
}
