/**
 * Fault injection under load, for the fault suites (test/engines/duckdb/faults-store.test.ts,
 * test/engines/postgres/faults.test.ts): bounded loops of requests on loopback whose every answer is
 * classified against the truth taken before the fault, readiness sampled meanwhile, damage written
 * into a DuckDB file, and checks of what the server logged (and how often it opened the file).
 */
import { randomBytes } from 'node:crypto';
import { open } from 'node:fs/promises';
import { request } from 'node:http';
import { expect } from 'vitest';

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export interface Answer {
  /** The status line's code; 0 when none came (connection refused or reset first). */
  status: number;
  retryAfter: string | undefined;
  body: string;
  /** The body ended as HTTP says it should; false when the connection broke in the middle. */
  complete: boolean;
  error?: string;
}

/** One GET on a connection of its own: what arrived, even when the body was cut short. */
export function get(url: string, headers: Record<string, string> = {}): Promise<Answer> {
  return new Promise((resolve) => {
    let settled = false;
    const done = (answer: Answer) => {
      if (settled) return;
      settled = true;
      resolve(answer);
    };
    const outgoing = request(url, { headers, agent: false }, (response) => {
      const chunks: Buffer[] = [];
      const answer = (complete: boolean, error?: string): Answer => ({
        status: response.statusCode ?? 0,
        retryAfter: response.headers['retry-after'],
        body: Buffer.concat(chunks).toString('utf8'),
        complete,
        ...(error ? { error } : {}),
      });
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => done(answer(response.complete)));
      response.on('aborted', () => done(answer(false, 'aborted')));
      response.on('error', (error) => done(answer(false, String(error))));
      response.on('close', () => done(answer(response.complete, 'closed')));
    });
    outgoing.setTimeout(30_000, () => outgoing.destroy(new Error('timeout')));
    outgoing.on('error', (error: NodeJS.ErrnoException) =>
      done({
        status: 0,
        retryAfter: undefined,
        body: '',
        complete: false,
        error: error.code ?? String(error),
      }),
    );
    outgoing.end();
  });
}

/** What an answer was, judged against the truth: the only acceptable kinds are the first four. */
export type Verdict =
  | 'ok' // 200, complete, exactly the truth
  | 'unavailable' // 503 with Retry-After and the error shape
  | 'limited' // 429 with Retry-After and the error shape: the client past its share
  | 'cut' // a body cut short (status sent, body unfinished): the client sees an error
  | 'refused' // no answer at all (connection refused or reset before a status)
  | 'wrong' // 200 that is not the truth, or complete but not what it claims
  | 'error-5xx' // 500 or any other 5xx than a proper 503
  | 'other';

export function judge(answer: Answer, truth: string | ((body: string) => boolean)): Verdict {
  if (answer.status === 0) return 'refused';
  if (!answer.complete) return answer.status === 200 ? 'cut' : 'other';
  if (answer.status === 200) {
    const right = typeof truth === 'string' ? answer.body === truth : truth(answer.body);
    return right ? 'ok' : 'wrong';
  }
  if (answer.status === 503) {
    const shaped = /^\{"detail":"Service Unavailable[^"]*"\}$/.test(answer.body);
    return shaped && /^\d+$/.test(answer.retryAfter ?? '') ? 'unavailable' : 'error-5xx';
  }
  if (answer.status === 429) {
    const shaped = answer.body === '{"detail":"Too Many Requests"}';
    return shaped && /^\d+$/.test(answer.retryAfter ?? '') ? 'limited' : 'other';
  }
  return answer.status >= 500 ? 'error-5xx' : 'other';
}

export interface Target {
  path: string;
  headers: Record<string, string>;
  /** The body a 200 must carry (taken before the fault), or a test of it. */
  truth: string | ((body: string) => boolean);
}

export interface LoadReport {
  verdicts: Record<Verdict, number>;
  /** The first few answers of each unacceptable kind, for the failure message. */
  bad: string[];
  total: number;
}

/**
 * `workers` loops over the targets, each request after the last, until `stop()` resolves
 * (bounded: at most `maxRequests` in all); every answer is judged.
 */
export async function underLoad(
  baseUrl: string,
  targets: readonly Target[],
  stop: () => Promise<unknown>,
  options: { workers?: number; maxRequests?: number } = {},
): Promise<LoadReport> {
  const report: LoadReport = {
    verdicts: {
      ok: 0,
      unavailable: 0,
      limited: 0,
      cut: 0,
      refused: 0,
      wrong: 0,
      'error-5xx': 0,
      other: 0,
    },
    bad: [],
    total: 0,
  };
  const maxRequests = options.maxRequests ?? 20_000;
  let running = true;
  const worker = async (index: number) => {
    for (let i = index; running && report.total < maxRequests; i++) {
      const target = targets[i % targets.length] as Target;
      const answer = await get(`${baseUrl}${target.path}`, target.headers);
      report.total++;
      const verdict = judge(answer, target.truth);
      report.verdicts[verdict]++;
      if (['wrong', 'error-5xx', 'other'].includes(verdict) && report.bad.length < 5) {
        report.bad.push(
          `${verdict}: ${target.path} -> ${answer.status} ${answer.error ?? ''} ${answer.body.slice(0, 200)}`,
        );
      }
      if (verdict === 'refused' || verdict === 'unavailable') await sleep(20);
    }
  };
  const workers = Array.from({ length: options.workers ?? 8 }, (_, index) => worker(index));
  try {
    await stop();
  } finally {
    running = false;
    await Promise.all(workers);
  }
  return report;
}

/** No wrong 200, no 500, nothing unexpected: every answer was the truth or an honest failure. */
export function expectHonest(report: LoadReport): void {
  expect(report.bad, JSON.stringify(report.verdicts)).toEqual([]);
  expect(report.verdicts.wrong).toBe(0);
  expect(report.verdicts['error-5xx']).toBe(0);
  expect(report.verdicts.other).toBe(0);
}

/** Polls `probe` until it holds or `ms` pass; resolves with whether it held. */
export async function eventually(probe: () => Promise<boolean>, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  for (;;) {
    if (await probe().catch(() => false)) return true;
    if (Date.now() > deadline) return false;
    await sleep(100);
  }
}

export const readiness = async (baseUrl: string) => (await get(`${baseUrl}/readyz`)).status;

export interface ReadinessSample {
  /** When the probe was sent (Date.now()). */
  at: number;
  status: number;
}

/** Probes `/readyz` one after the other, every `everyMs`, until `stop()`: what each answered. */
export function sampleReadiness(
  baseUrl: string,
  everyMs = 50,
): { stop(): Promise<ReadinessSample[]> } {
  const samples: ReadinessSample[] = [];
  let running = true;
  const loop = (async () => {
    while (running) {
      const at = Date.now();
      samples.push({ at, status: await readiness(baseUrl) });
      await sleep(everyMs);
    }
  })();
  return {
    async stop() {
      running = false;
      await loop;
      return samples;
    },
  };
}

/** How often readiness changed its answer over `samples`. */
export const readinessFlips = (samples: readonly ReadinessSample[]) =>
  samples.filter((sample, index) => index > 0 && sample.status !== samples[index - 1]?.status)
    .length;

/** DuckDB's file layout: three 4 KiB headers, then blocks of 256 KiB, each with its checksum. */
const DUCKDB_HEADERS_BYTES = 3 * 4096;
const DUCKDB_BLOCK_BYTES = 262_144;

/** Random bytes over these blocks of a DuckDB file, written in place: same inode, same size. */
export async function writeRandomBlocks(path: string, blocks: readonly number[]): Promise<void> {
  const file = await open(path, 'r+');
  try {
    for (const block of blocks) {
      await file.write(
        randomBytes(DUCKDB_BLOCK_BYTES),
        0,
        DUCKDB_BLOCK_BYTES,
        DUCKDB_HEADERS_BYTES + block * DUCKDB_BLOCK_BYTES,
      );
    }
  } finally {
    await file.close();
  }
}

/**
 * The environment of a server process that logs every DuckDB file it opens
 * (log-duckdb-opens.mjs, preloaded; the path is the repository's, the server's working folder).
 */
export const LOG_DUCKDB_OPENS = {
  NODE_OPTIONS:
    `${process.env.NODE_OPTIONS ?? ''} --import ./test/helpers/log-duckdb-opens.mjs`.trim(),
};

/** How often the server opened the DuckDB file at `path`, by its log (with LOG_DUCKDB_OPENS). */
export function duckDbOpens(output: string, path: string): number {
  return logLines(output).filter(
    (line) => line.msg === 'test: duckdb file opened' && JSON.parse(line.raw).path === path,
  ).length;
}

/** The server's log lines (JSON) from `output`. */
export function logLines(output: string): { level: number; msg: string; raw: string }[] {
  return output
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((raw) => {
      const parsed = JSON.parse(raw) as { level: number; msg: string };
      return { level: parsed.level, msg: parsed.msg, raw };
    });
}

/**
 * The log of a fault stays small: at most `maxLines` lines at warn or above (the access log's
 * lines at info come with every request), no line with a stack trace, and nothing written
 * outside the JSON lines (an uncaught error's dump).
 */
export function expectBoundedLog(output: string, maxLines: number): void {
  const lines = output.split('\n').filter((line) => line.trim() !== '');
  const stray = lines.filter((line) => !line.startsWith('{'));
  expect(stray.slice(0, 5)).toEqual([]);
  const loud = logLines(output).filter((line) => line.level >= 40);
  expect(
    loud.length,
    loud
      .slice(0, 30)
      .map((line) => line.raw.slice(0, 300))
      .join('\n'),
  ).toBeLessThanOrEqual(maxLines);
  const stacks = logLines(output).filter((line) => /"stack"|\\n\s+at /.test(line.raw));
  expect(stacks.map((line) => line.raw.slice(0, 300))).toEqual([]);
}
