/**
 * examples/export-transactions.ts as a user runs it: it explains itself, refuses a wrong
 * command line (exit 2), saves the file the API sends under the API's name or `--out`, byte for
 * byte, says why the API refused (exit 1), and leaves no file when the server cuts the transfer
 * short. The API is the app on loopback over the demo store, whose store can be made to fail
 * midway through a list.
 */
import { execFile } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.ts';
import { createClock } from '../../src/clock.ts';
import {
  StoreUnavailableError,
  type TransactionFilters,
  type TransactionRecord,
} from '../../src/port/read-port.ts';
import { bearer, DEMO_TODAY, DEMO_USERS, demoStoreCopy } from '../helpers/server.ts';
import { DelegatingPort, makeTempDir, openStore } from '../helpers/store.ts';

const ROOT = resolve(import.meta.dirname, '../..');
const CLIENT = join(ROOT, 'examples/export-transactions.ts');
/** tsx's loader by path: the client runs in a folder of its own, outside the project. */
const TSX = pathToFileURL(join(ROOT, 'node_modules/tsx/dist/loader.mjs')).href;
const run = promisify(execFile);

let app: FastifyInstance;
let baseUrl: string;
let token: string;
/** The store fails at the list's second chunk while this is set. */
let failing = false;

beforeAll(async () => {
  const demo = await demoStoreCopy(DEMO_USERS.slice(0, 1));
  token = demo.tokens[0] as string;
  const inner = await openStore(demo.path);
  const store = new (class extends DelegatingPort {
    override transactionChunks(userId: string, filters: TransactionFilters) {
      const chunks = inner.transactionChunks(userId, filters);
      return (async function* (): AsyncGenerator<TransactionRecord[]> {
        let index = 0;
        for await (const chunk of chunks) {
          if (failing && index === 1) throw new StoreUnavailableError('connection lost (test)');
          yield chunk;
          index++;
        }
      })();
    }
    override async close() {
      await inner.close();
    }
  })(inner);
  app = await buildApp({ store, clock: createClock(DEMO_TODAY) });
  await app.listen({ port: 0, host: '127.0.0.1' });
  baseUrl = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await app?.close();
});

/** The client run in `cwd` (a fresh folder by default), as a process. */
async function client(
  args: string[],
  options: { cwd?: string; env?: Record<string, string | undefined> } = {},
) {
  const cwd = options.cwd ?? makeTempDir('export-client');
  return run(process.execPath, ['--import', TSX, CLIENT, ...args], {
    cwd,
    env: { ...process.env, API_BASE_URL: baseUrl, API_TOKEN: token, ...options.env },
    timeout: 30_000,
  }).then(
    ({ stdout, stderr }) => ({ code: 0, stdout, stderr, cwd }),
    (error: { code?: number; stdout?: string; stderr?: string }) => ({
      code: error.code ?? -1,
      stdout: error.stdout ?? '',
      stderr: error.stderr ?? '',
      cwd,
    }),
  );
}

/** What the API answers to the same request, as bytes (fetch decodes a compressed body). */
async function direct(query: string): Promise<{ bytes: Buffer; name: string }> {
  const response = await fetch(`${baseUrl}/v2/users/transactions?${query}`, {
    headers: bearer(token),
  });
  expect(response.status).toBe(200);
  const name = /filename="([^"]+)"/.exec(response.headers.get('content-disposition') ?? '')?.[1];
  return { bytes: Buffer.from(await response.arrayBuffer()), name: name ?? '' };
}

describe('examples/export-transactions.ts', () => {
  it('--help prints usage, options and environment, exit 0', async () => {
    const result = await client(['--help']);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/^Usage: /);
    for (const word of ['--format', '--from', '--to', '--out', 'API_TOKEN', 'Exit codes']) {
      expect(result.stdout, word).toContain(word);
    }
  });

  it.each([
    [['--format', 'xlsx'], "--format must be one of csv, ndjson, parquet, json, got 'xlsx'"],
    [['--from', '01/02/2026'], "--from must be a date as YYYY-MM-DD, got '01/02/2026'"],
    [['--everything'], "Unknown option '--everything'"],
  ])('%j: a usage error naming the problem, exit 2', async (args, message) => {
    const result = await client(args);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`export-transactions: ${message}`);
    expect(result.stderr).toContain('Run with --help for usage.');
  });

  it('saves the CSV under the name the API gives it, byte for byte', async () => {
    const result = await client(['--from', '2026-06-01', '--to', '2026-09-30']);
    expect(result.code, result.stderr).toBe(0);
    const { bytes, name } = await direct(
      'format=csv&transacted_at_from=2026-06-01&transacted_at_to=2026-09-30',
    );
    expect(name).toMatch(/^transactions_usr_\w+_2026-06-01_to_2026-09-30_[0-9a-f]+\.csv$/);
    expect(readdirSync(result.cwd)).toEqual([name]);
    expect((await readFile(join(result.cwd, name))).equals(bytes)).toBe(true);
    expect(result.stdout).toBe(`saved ${bytes.length} bytes of csv to ${name}\n`);
  });

  it('saves a Parquet file where --out says', async () => {
    const cwd = makeTempDir('export-client');
    const result = await client(['--format', 'parquet', '--out', 'mine.parquet'], { cwd });
    expect(result.code, result.stderr).toBe(0);
    const saved = await readFile(join(cwd, 'mine.parquet'));
    expect(saved.subarray(0, 4).toString()).toBe('PAR1');
    expect(saved.equals((await direct('format=parquet')).bytes)).toBe(true);
  });

  it('a refusal is exit 1 with the API’s reason, and no file', async () => {
    const result = await client([], { env: { API_TOKEN: `pat_${'0'.repeat(36)}` } });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('export-transactions: 401 Invalid authentication credentials');
    expect(readdirSync(result.cwd)).toEqual([]);
  });

  it('a transfer cut short is exit 1, and leaves no file, not even a partial one', async () => {
    failing = true;
    try {
      const result = await client(['--format', 'ndjson']);
      expect(result.code).toBe(1);
      expect(result.stderr).toContain('export-transactions: the transfer was cut short');
      expect(readdirSync(result.cwd)).toEqual([]);
      expect(existsSync(join(result.cwd, 'transactions.ndjson.part'))).toBe(false);
    } finally {
      failing = false;
    }
  });
});
