/** The printed table and the targets (docs/performance.md), judged on the measured rows. */
import type { WorkingSetRun } from './metrics.ts';
import {
  type Ceiling,
  COLD_MISS,
  COLD_PAGE,
  TYPICAL_MIX,
  TYPICAL_MIX_MISSES,
  WARM_MISS,
  WARM_PAGE,
  ZIPF_MIX,
} from './scenarios.ts';
import type { Measured } from './stats.ts';

export interface Row {
  store: string;
  scenario: string;
  connections: number;
  ceiling: Ceiling;
  http: Measured;
  /** Share of measured requests this server had been sent before: what a response cache may answer. */
  repeatShare: number;
  /** The server's working set after the scenario, and its reads during the measured run. */
  workingSet: WorkingSetRun | null;
  /**
   * The same requests' raw store queries, in-process (null for the bare route, --no-engine, or
   * requests answered from memory).
   */
  engine: Measured | null;
  /** Share of the engine ceiling's recorded requests that asked the store nothing. */
  engineMemoryShare: number | null;
  queriesPerRequest: number | null;
}

const fixed = (value: number, digits: number) =>
  Number.isFinite(value) ? value.toFixed(digits) : '-';
const ms = (value: number) => fixed(value, value < 100 ? 1 : 0);
const ratio = (value: number, ceiling: number | undefined) =>
  ceiling === undefined || !Number.isFinite(ceiling) || ceiling === 0
    ? ''
    : ` (${fixed(value / ceiling, 2)})`;

function frameworkCeiling(rows: readonly Row[], row: Row): Measured | undefined {
  return rows.find(
    (other) =>
      other.store === row.store &&
      other.ceiling === 'framework' &&
      other.connections === row.connections,
  )?.http;
}

/** The engine ceiling found requests the working set answered, so it measured none. */
const answeredFromMemory = (row: Row) =>
  row.engine === null && row.engineMemoryShare !== null && row.engineMemoryShare > 0;

const MEMORY_NOTE =
  'engine "memory N%": N% of the requests the engine ceiling recorded asked the store nothing ' +
  '(the working set answered them), so no ceiling: an x engine ratio would compare memory with ' +
  'SQL the server does not run; compare with the cold rows instead.';

/**
 * One line per scenario. Each figure is followed by its ratio to the ceiling: for store
 * scenarios the engine (the same requests' raw store queries in-process: req/s below 1 means
 * the API delivers that share of the engine's throughput, latency above 1 is the HTTP and
 * shaping overhead); the bare route is the framework's ceiling, and every store scenario's
 * req/s is also shown as a share of it. The working set's columns: what it held after the
 * scenario, its hit rate (hits / (hits + misses)) and evictions during the measured run.
 */
export function formatTable(rows: readonly Row[]): string {
  const header = [
    'store',
    'scenario',
    'conns',
    'req/s (x engine)',
    'x bare',
    'p50 ms (x engine)',
    'p99 ms (x engine)',
    'errors',
    'repeats',
    'peak RSS MiB',
    'ws MiB',
    'ws users',
    'ws hit rate',
    'ws evicted',
    'engine req/s',
    'engine p50',
    'engine p99',
  ];
  const lines = rows.map((row) => {
    const engine = row.engine ?? undefined;
    const bare = frameworkCeiling(rows, row);
    const isCeiling = row.ceiling === 'framework';
    const ws = row.workingSet;
    return [
      row.store,
      row.scenario,
      String(row.connections),
      `${fixed(row.http.requestsPerSecond, 0)}${isCeiling ? ' (ceiling)' : ratio(row.http.requestsPerSecond, engine?.requestsPerSecond)}`,
      isCeiling
        ? '1.00'
        : bare
          ? fixed(row.http.requestsPerSecond / bare.requestsPerSecond, 3)
          : '',
      `${ms(row.http.p50)}${ratio(row.http.p50, engine?.p50)}`,
      `${ms(row.http.p99)}${ratio(row.http.p99, engine?.p99)}`,
      String(row.http.errors),
      `${fixed(row.repeatShare * 100, 0)}%`,
      row.http.peakRssMiB === null ? '-' : fixed(row.http.peakRssMiB, 0),
      ws ? fixed(ws.after.bytes / 2 ** 20, 1) : '-',
      ws ? String(ws.after.users) : '-',
      ws?.hitRate != null ? `${fixed(ws.hitRate * 100, 0)}%` : '-',
      ws ? String(ws.evictions) : '-',
      engine
        ? fixed(engine.requestsPerSecond, 0)
        : answeredFromMemory(row)
          ? `memory ${fixed((row.engineMemoryShare ?? 0) * 100, 0)}%`
          : '',
      engine ? ms(engine.p50) : '',
      engine ? ms(engine.p99) : '',
    ];
  });
  const note = rows.some(answeredFromMemory) ? `\n\n${MEMORY_NOTE}` : '';
  return markdownTable(header, lines) + note;
}

/** A Markdown table, columns padded; the first two (names) left-aligned, the rest right. */
export function markdownTable(header: string[], lines: string[][]): string {
  const widths = header.map((title, column) =>
    Math.max(title.length, ...lines.map((line) => (line[column] ?? '').length)),
  );
  const numeric = (column: number) => column >= 2;
  const render = (cells: string[]) =>
    `| ${cells
      .map((cell, column) =>
        numeric(column) ? cell.padStart(widths[column] ?? 0) : cell.padEnd(widths[column] ?? 0),
      )
      .join(' | ')} |`;
  const rule = `|${widths.map((width, column) => (numeric(column) ? `${'-'.repeat(width + 1)}:` : '-'.repeat(width + 2))).join('|')}|`;
  return [render(header), rule, ...lines.map(render)].join('\n');
}

export interface TargetVerdict {
  name: string;
  met: boolean;
  text: string;
}

export function judgeTargets(
  rows: readonly Row[],
  mainStore: string,
  comparisonStore: string | null,
  /** The server's peak resident set over the whole run on this engine (every phase). */
  serverPeakRssMiB: number | null,
): TargetVerdict[] {
  const find = (store: string, scenario: string, connections: number) =>
    rows.find(
      (row) => row.store === store && row.scenario === scenario && row.connections === connections,
    );
  const verdicts: TargetVerdict[] = [];
  const add = (name: string, met: boolean, text: string) => verdicts.push({ name, met, text });
  const bare = find(mainStore, 'bare route /healthz', 32);

  judgeWorkingSet(find, mainStore, bare, add);
  const cached32 = find(mainStore, TYPICAL_MIX, 32);
  if (cached32 && bare) {
    const share = cached32.http.requestsPerSecond / bare.http.requestsPerSecond;
    add(
      'cached-vs-bare',
      share >= 0.25 && cached32.http.errors === 0,
      `typical user @32 (hot users, repeats cached): ${fixed(cached32.http.requestsPerSecond, 0)} req/s = ${fixed(share * 100, 0)}% of the bare route's ${fixed(bare.http.requestsPerSecond, 0)} (>= 25%)`,
    );
  }
  for (const [scenario, label] of [
    [TYPICAL_MIX_MISSES, 'cache misses'],
    [TYPICAL_MIX, 'hot users, repeats cached'],
  ] as const) {
    const typical32 = find(mainStore, scenario, 32);
    if (typical32?.engine) {
      const share = typical32.http.requestsPerSecond / typical32.engine.requestsPerSecond;
      add(
        'api-vs-engine',
        share >= 0.8,
        `API ${fixed(share * 100, 0)}% of the raw store queries' throughput, typical mix @32 (${label}) (>= 80%)`,
      );
    }
    const typical1 = find(mainStore, scenario, 1);
    const small = comparisonStore ? find(comparisonStore, scenario, 1) : undefined;
    if (typical1 && small) {
      const growth = typical1.http.p50 / small.http.p50;
      add(
        'size-independence',
        growth <= 1.25,
        `typical user p50 @1 (${label}): ${ms(typical1.http.p50)} ms on ${mainStore} vs ${ms(small.http.p50)} ms on ${comparisonStore} = ${fixed(growth, 2)}x (<= 1.25x)`,
      );
      if (typical1.engine && small.engine && scenario === TYPICAL_MIX_MISSES) {
        const engineGrowth = typical1.engine.p50 / small.engine.p50;
        add(
          'size-independence-engine',
          engineGrowth <= 1.25,
          `  same, raw store queries only: ${ms(typical1.engine.p50)} ms vs ${ms(small.engine.p50)} ms = ${fixed(engineGrowth, 2)}x (<= 1.25x)`,
        );
      }
    }
  }
  const heavy = find(mainStore, 'heavy category, new windows', 1);
  if (heavy) {
    add(
      'heavy-miss-latency',
      heavy.http.p50 <= 30,
      `heavy user by category over a year @1 (cache misses): p50 ${ms(heavy.http.p50)} ms (<= 30)`,
    );
  }
  if (serverPeakRssMiB !== null) {
    add(
      'peak-rss',
      serverPeakRssMiB < 512,
      `server peak RSS over the whole run ${fixed(serverPeakRssMiB, 0)} MiB (< 512)`,
    );
  }
  return verdicts;
}

/** The working set's targets: typical users, cold (first read) and warm (read before). */
function judgeWorkingSet(
  find: (store: string, scenario: string, connections: number) => Row | undefined,
  store: string,
  bare: Row | undefined,
  add: (name: string, met: boolean, text: string) => void,
): void {
  const hits = (row: Row) =>
    row.workingSet?.hitRate != null
      ? `, working set hit rate ${fixed(row.workingSet.hitRate * 100, 0)}%`
      : '';
  const latency = (name: string, row: Row | undefined, label: string, bound: number) => {
    if (!row) return;
    add(
      name,
      row.http.p50 <= bound && row.http.errors === 0,
      `${label}: p50 ${ms(row.http.p50)} ms (<= ${bound})${row.http.errors > 0 ? `, ${row.http.errors} errors` : ''}${hits(row)}`,
    );
  };
  const warmPage32 = find(store, WARM_PAGE, 32);
  if (warmPage32) {
    const { requestsPerSecond: rps, errors } = warmPage32.http;
    const share = bare ? rps / bare.http.requestsPerSecond : Number.NaN;
    add(
      'warm-page-throughput',
      (rps >= 3000 || share >= 0.15) && errors === 0,
      `warm page of 50 @32: ${fixed(rps, 0)} req/s (>= 3,000)${bare ? `, ${fixed(share * 100, 0)}% of the bare route's ${fixed(bare.http.requestsPerSecond, 0)} (or >= 15%)` : ''}${hits(warmPage32)}`,
    );
  }
  latency('warm-page-latency', find(store, WARM_PAGE, 1), 'warm page of 50 @1', 1);
  latency(
    'warm-miss-latency',
    find(store, WARM_MISS, 1),
    'warm spending miss @1 (a new window)',
    2,
  );
  const warmMiss32 = find(store, WARM_MISS, 32);
  if (warmMiss32) {
    const { requestsPerSecond: rps, p99, errors } = warmMiss32.http;
    add(
      'warm-miss-throughput',
      rps >= 1000 && p99 < 100 && errors === 0,
      `warm spending miss @32: ${fixed(rps, 0)} req/s (>= 1,000), p99 ${ms(p99)} ms (< 100), ${errors} errors${hits(warmMiss32)}`,
    );
  }
  // A cold user is one point read of the packed ledger: the cluster's crosses the coordinator.
  const cold = store.endsWith(clusterLabel('')) ? 3 : 2;
  latency('cold-page-latency', find(store, COLD_PAGE, 1), 'cold page of 50 @1', cold);
  latency('cold-miss-latency', find(store, COLD_MISS, 1), 'cold spending miss @1', cold);
  const zipf = find(store, ZIPF_MIX, 32);
  if (zipf) {
    const { requestsPerSecond: rps, errors } = zipf.http;
    add(
      'zipf-throughput',
      rps >= 1500 && errors === 0,
      `Zipf mix of pages and misses @32: ${fixed(rps, 0)} req/s (>= 1,500), ${errors} errors${hits(zipf)}`,
    );
  }
}

/** The label of a store's rows when read from the PostgreSQL cluster. */
export const clusterLabel = (label: string) => `${label} pg`;

/**
 * Both engines side by side, one line per scenario measured on both: throughput and latency
 * of the API on each, with PostgreSQL's figure as a ratio of DuckDB's.
 */
export function formatSideBySide(rows: readonly Row[]): string {
  const header = [
    'store',
    'scenario',
    'conns',
    'duckdb req/s',
    'postgres req/s',
    'pg/duck',
    'duckdb p50',
    'postgres p50',
    'pg/duck',
    'duckdb p99',
    'postgres p99',
    'pg/duck',
  ];
  const lines: string[][] = [];
  for (const row of rows) {
    const other = rows.find(
      (candidate) =>
        candidate.store === clusterLabel(row.store) &&
        candidate.scenario === row.scenario &&
        candidate.connections === row.connections,
    );
    if (!other) continue;
    const share = (pg: number, duck: number) => (duck > 0 ? fixed(pg / duck, 2) : '-');
    lines.push([
      row.store,
      row.scenario,
      String(row.connections),
      fixed(row.http.requestsPerSecond, 0),
      fixed(other.http.requestsPerSecond, 0),
      share(other.http.requestsPerSecond, row.http.requestsPerSecond),
      ms(row.http.p50),
      ms(other.http.p50),
      share(other.http.p50, row.http.p50),
      ms(row.http.p99),
      ms(other.http.p99),
      share(other.http.p99, row.http.p99),
    ]);
  }
  return markdownTable(header, lines);
}
