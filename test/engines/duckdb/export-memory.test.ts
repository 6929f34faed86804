/**
 * A user of 300,000 transactions exported in every format by the real server process
 * (docs/performance.md, "The list's files"): each file is whole, and the server's peak
 * resident memory while sending it (VmHWM, reset before each) stays within the JSON list's
 * bound, since every format is written a chunk at a time. The figures are printed. The
 * heavy-list places (HEAVY_LISTS_MAX) count files as they count JSON lists.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { request } from 'node:http';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildStore } from '../../../src/ingest/duckdb/build.ts';
import { generateFixtures } from '../../../tools/demo-data/generator.ts';
import {
  bearer,
  DEMO_TODAY,
  type ServerProcess,
  startServerProcess,
} from '../../helpers/server.ts';
import { makeTempDir, mintTestToken } from '../../helpers/store.ts';

const ROWS = 300_000;
const MiB = 2 ** 20;

let server: ServerProcess;
let token: string;
const scratch = makeTempDir('export-memory');

beforeAll(async () => {
  const source = makeTempDir('export-memory-source');
  const summary = await generateFixtures({
    users: 1,
    months: 12,
    seed: 'export-memory',
    outDir: source,
    heavyUserTransactions: ROWS,
  });
  const path = join(makeTempDir('export-memory-store'), 'finance.duckdb');
  await buildStore({ sourceDir: source, databasePath: path });
  token = await mintTestToken(path, summary.heavyUserId as string);
  server = await startServerProcess({
    DATABASE_PATH: path,
    TODAY: DEMO_TODAY,
    RATE_LIMIT_MAX: '0',
    SHED_MAX_EVENT_LOOP_UTILIZATION: '0',
    HEAVY_LISTS_MAX: '1',
  });
}, 600_000);
afterAll(async () => {
  if (!server) return;
  server.child.kill('SIGTERM');
  await server.exited;
});

/** The server's resident memory in MiB (Linux /proc): now, or its peak since the last reset. */
async function memoryMiB(which: 'VmRSS' | 'VmHWM'): Promise<number> {
  const status = await readFile(`/proc/${server.child.pid}/status`, 'utf8');
  return Number(new RegExp(`^${which}:\\s+(\\d+)\\s+kB`, 'm').exec(status)?.[1]) / 1024;
}
/** Starts a new peak from the current resident memory (`clear_refs` 5). */
const resetPeak = () => writeFile(`/proc/${server.child.pid}/clear_refs`, '5');

interface Received {
  status: number;
  complete: boolean;
  bytes: number;
  lines: number;
  /** The body, kept only when asked (the Parquet file). */
  body: Buffer | null;
}

/** One GET read to its end without keeping the body (unless `keep`); `onStatus` once it starts. */
function fetchList(
  query: string,
  options: { keep?: boolean; onStatus?: () => void } = {},
): Promise<Received> {
  return new Promise((resolve, reject) => {
    request(
      `${server.url}/v2/users/transactions${query}`,
      { headers: bearer(token), agent: false },
      (response) => {
        options.onStatus?.();
        const kept: Buffer[] = [];
        let bytes = 0;
        let lines = 0;
        response.on('data', (chunk: Buffer) => {
          bytes += chunk.length;
          for (let at = chunk.indexOf(10); at !== -1; at = chunk.indexOf(10, at + 1)) lines++;
          if (options.keep) kept.push(chunk);
        });
        response.on('end', () =>
          resolve({
            status: response.statusCode ?? 0,
            complete: response.complete,
            bytes,
            lines,
            body: options.keep ? Buffer.concat(kept) : null,
          }),
        );
        response.on('error', reject);
      },
    )
      .on('error', reject)
      .end();
  });
}

async function parquetRows(bytes: Buffer): Promise<number> {
  const path = join(scratch, 'heavy.parquet');
  await writeFile(path, bytes);
  const instance = await DuckDBInstance.create(':memory:');
  try {
    const connection = await instance.connect();
    const [row] = (
      await connection.runAndReadAll(`SELECT count(*) AS n FROM read_parquet('${path}')`)
    ).getRowObjectsJson();
    connection.closeSync();
    return Number(row?.n);
  } finally {
    instance.closeSync();
  }
}

describe(`a user of ${ROWS.toLocaleString('en-US')} transactions, exported`, () => {
  it('every format is whole, and the server’s peak memory stays within the JSON list’s bound', async () => {
    const figures: string[] = [];
    const peaks: Record<string, number> = {};
    for (const format of ['json', 'csv', 'ndjson', 'parquet'] as const) {
      await resetPeak();
      const before = await memoryMiB('VmRSS');
      const started = performance.now();
      const answer = await fetchList(`?format=${format}`, { keep: format === 'parquet' });
      const seconds = (performance.now() - started) / 1000;
      const peak = await memoryMiB('VmHWM');
      peaks[format] = peak;
      expect([answer.status, answer.complete], format).toEqual([200, true]);
      if (format === 'csv') expect(answer.lines).toBe(ROWS + 1);
      if (format === 'ndjson') expect(answer.lines).toBe(ROWS);
      if (format === 'parquet') expect(await parquetRows(answer.body as Buffer)).toBe(ROWS);
      figures.push(
        `${format}: ${(answer.bytes / MiB).toFixed(1)} MiB in ${seconds.toFixed(1)} s (${Math.round(ROWS / seconds).toLocaleString('en-US')} rows/s), server RSS ${before.toFixed(0)} MiB before, peak ${peak.toFixed(0)} MiB`,
      );
    }
    console.info(`exports of ${ROWS} transactions:\n  ${figures.join('\n  ')}`);
    const json = peaks.json as number;
    for (const format of ['csv', 'ndjson', 'parquet']) {
      // Generous: garbage collection makes a peak vary by tens of MiB from run to run.
      expect(peaks[format], format).toBeLessThan(Math.max(json * 1.5, json + 100));
      expect(peaks[format], format).toBeLessThan(600);
    }
  }, 600_000);

  it('the heavy-list places count files too: a second heavy export of the client at once answers 429', async () => {
    let second: Promise<Received> | undefined;
    const first = await fetchList('?format=csv', {
      onStatus: () => {
        second = fetchList('?format=parquet');
      },
    });
    expect([first.status, first.complete]).toEqual([200, true]);
    // HEAVY_LISTS_MAX is 1: the client holds its share (one at least) with the first.
    expect((await second)?.status).toBe(429);
    // The slot was given back.
    expect((await fetchList('?format=ndjson')).status).toBe(200);
  }, 300_000);
});
