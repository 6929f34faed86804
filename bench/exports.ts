/**
 * The list's files in the benchmark: the heavy user's whole list exported once in each format
 * (JSON for comparison, CSV, NDJSON, Parquet) from the real server process, one at a time,
 * read as fast as the client can: rows a second, the body's size and the server's peak
 * resident memory during each export (docs/performance.md, "The list's files").
 */
import { LIST_FORMATS, type ListFormat } from '../src/areas/transactions/export/formats.ts';
import { peakRssMiB, resetPeakRss, startServer } from './process.ts';
import { markdownTable } from './report.ts';
import type { BenchStore } from './stores.ts';

export interface ExportResult {
  engine: string;
  store: string;
  format: ListFormat;
  rows: number;
  bytes: number;
  seconds: number;
  rowsPerSecond: number;
  peakRssMiB: number | null;
}

/** Reads a body to its end without keeping it; its size. */
async function drain(body: ReadableStream<Uint8Array>): Promise<number> {
  let bytes = 0;
  for await (const chunk of body) bytes += chunk.length;
  return bytes;
}

export async function runExports(options: {
  engine: string;
  store: BenchStore;
  env: Record<string, string>;
  progress: (line: string) => void;
}): Promise<ExportResult[]> {
  const { engine, store, progress } = options;
  if (!store.heavy) return [];
  const headers = { authorization: `Bearer ${store.heavy.token}` };
  const server = await startServer({
    databasePath: store.databasePath,
    ...(store.databaseUrl ? { databaseUrl: store.databaseUrl } : {}),
    env: options.env,
    progress,
  });
  try {
    const counted = await fetch(`${server.url}/v2/users/transactions?page_size=10`, { headers });
    const rows = ((await counted.json()) as { count: number }).count;
    const results: ExportResult[] = [];
    for (const format of LIST_FORMATS) {
      progress(`[exports ${engine}] the heavy user's ${rows} transactions as ${format}`);
      await resetPeakRss(server.pid);
      const started = performance.now();
      const response = await fetch(`${server.url}/v2/users/transactions?format=${format}`, {
        headers,
      });
      if (response.status !== 200 || !response.body) {
        throw new Error(
          `the ${format} export answered ${response.status}: ${await response.text()}`,
        );
      }
      // A body cut short rejects here: the export failed.
      const bytes = await drain(response.body);
      const seconds = (performance.now() - started) / 1000;
      const result: ExportResult = {
        engine,
        store: store.spec.label,
        format,
        rows,
        bytes,
        seconds,
        rowsPerSecond: rows / seconds,
        peakRssMiB: await peakRssMiB(server.pid),
      };
      progress(
        `  ${Math.round(result.rowsPerSecond)} rows/s, ${(bytes / 2 ** 20).toFixed(1)} MiB in ${seconds.toFixed(1)} s, peak RSS ${result.peakRssMiB?.toFixed(0) ?? '-'} MiB`,
      );
      results.push(result);
    }
    return results;
  } finally {
    await server.stop();
  }
}

/** One line per engine and format. */
export function formatExports(results: readonly ExportResult[]): string {
  return markdownTable(
    ['store', 'format', 'rows', 'MiB', 'seconds', 'rows/s', 'peak RSS MiB'],
    results.map((result) => [
      result.store,
      result.format,
      result.rows.toLocaleString('en-US'),
      (result.bytes / 2 ** 20).toFixed(1),
      result.seconds.toFixed(1),
      Math.round(result.rowsPerSecond).toLocaleString('en-US'),
      result.peakRssMiB === null ? '-' : result.peakRssMiB.toFixed(0),
    ]),
  );
}
