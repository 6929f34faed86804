/** The printed table and the targets (docs/performance.md), judged on the measured rows. */
import { type Ceiling, TYPICAL_MIX, TYPICAL_MIX_MISSES } from './scenarios.ts';
import type { Measured } from './stats.ts';

export interface Row {
  store: string;
  scenario: string;
  connections: number;
  ceiling: Ceiling;
  http: Measured;
  /** Share of measured requests this server had been sent before: what a response cache may answer. */
  repeatShare: number;
  /** The same requests' raw store queries, in-process (null for the bare route or --no-engine). */
  engine: Measured | null;
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

/**
 * One line per scenario. Each figure is followed by its ratio to the ceiling: for store
 * scenarios the engine (the same requests' raw store queries in-process: req/s below 1 means
 * the API delivers that share of the engine's throughput, latency above 1 is the HTTP and
 * shaping overhead); the bare route is the framework's ceiling, and every store scenario's
 * req/s is also shown as a share of it.
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
    'engine req/s',
    'engine p50',
    'engine p99',
  ];
  const lines = rows.map((row) => {
    const engine = row.engine ?? undefined;
    const bare = frameworkCeiling(rows, row);
    const isCeiling = row.ceiling === 'framework';
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
      engine ? fixed(engine.requestsPerSecond, 0) : '',
      engine ? ms(engine.p50) : '',
      engine ? ms(engine.p99) : '',
    ];
  });
  return markdownTable(header, lines);
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
): TargetVerdict[] {
  const find = (store: string, scenario: string, connections: number) =>
    rows.find(
      (row) => row.store === store && row.scenario === scenario && row.connections === connections,
    );
  const verdicts: TargetVerdict[] = [];
  const add = (name: string, met: boolean, text: string) => verdicts.push({ name, met, text });
  const bare = find(mainStore, 'bare route /healthz', 32);

  const misses32 = find(mainStore, TYPICAL_MIX_MISSES, 32);
  if (misses32) {
    const { requestsPerSecond: rps, p99, errors } = misses32.http;
    add(
      'typical-miss-throughput',
      rps >= 400 && p99 < 150 && errors === 0,
      `typical user @32 (cache misses): ${fixed(rps, 0)} req/s (>= 400), p99 ${ms(p99)} ms (< 150), ${errors} errors`,
    );
  }
  const misses1 = find(mainStore, TYPICAL_MIX_MISSES, 1);
  if (misses1) {
    add(
      'typical-miss-latency',
      misses1.http.p50 <= 4,
      `typical user @1 (cache misses): p50 ${ms(misses1.http.p50)} ms (<= 4)`,
    );
  }
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
  const page = find(mainStore, 'transactions page (50)', 32);
  if (page) {
    add(
      'transactions-page-throughput',
      page.http.requestsPerSecond >= 1000 && page.http.errors === 0,
      `transactions page of 50 @32: ${fixed(page.http.requestsPerSecond, 0)} req/s (>= 1,000)${bare ? `, ${fixed((page.http.requestsPerSecond / bare.http.requestsPerSecond) * 100, 1)}% of the bare route` : ''}`,
    );
  }
  const peaks = rows
    .filter((row) => row.store === mainStore)
    .map((row) => row.http.peakRssMiB)
    .filter((value): value is number => value !== null);
  if (peaks.length > 0) {
    const peak = Math.max(...peaks);
    add('peak-rss', peak < 512, `server peak RSS ${fixed(peak, 0)} MiB (< 512)`);
  }
  return verdicts;
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
