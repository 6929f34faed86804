/**
 * Two DuckDB pools spilling at once, in a process of its own (test/engines/duckdb/
 * spill-folders.test.ts runs it: a crash of DuckDB's kills the process, not the test's).
 * Both open one store with one spill base under a 24 MB memory limit, and each reads a user's
 * page and packed ledger as the server does (transactions.ts, ledger.ts) on all its connections at
 * once for `ms`. Every answer must be the one a pool with memory to spare gives, or out of
 * memory (StoreOverloadedError). Prints what it saw as one JSON line; exits 1 on anything else.
 *
 *   node --import tsx test/helpers/spill-reads.ts <store> <user> <spill base> <ms>
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { ledgerReads } from '../../src/engines/duckdb/ledger.ts';
import { DuckDbPool } from '../../src/engines/duckdb/pool.ts';
import { transactionReads } from '../../src/engines/duckdb/transactions.ts';
import { StoreOverloadedError } from '../../src/port/read-port.ts';
import { NO_FILTERS } from './store.ts';

const [path, user, base, ms] = process.argv.slice(2) as [string, string, string, string];
const PAGE = { limit: 100, offset: 200 };
/** The server's ledger bound (WORKING_SET_MAX_ROWS). */
const LEDGER_ROWS = 50_000;

const reads = (pool: DuckDbPool) => [
  async () => JSON.stringify(await transactionReads(pool).transactions(user, NO_FILTERS, PAGE)),
  async () =>
    Buffer.from((await ledgerReads(pool).packedLedger(user, LEDGER_ROWS)) ?? []).toString('base64'),
];

const roomy = await DuckDbPool.open(path, { poolSize: 1, tempDirectory: base });
const truths: string[] = [];
for (const read of reads(roomy)) truths.push(await read());
await roomy.close();

const pools = await Promise.all(
  [1, 2].map(() => DuckDbPool.open(path, { poolSize: 4, memoryLimit: 24e6, tempDirectory: base })),
);
const seen = { ok: 0, outOfMemory: 0, spilling: new Set<string>(), atOnce: 0 };

/** The folders under `base` holding spill files now. */
function spillingNow(): string[] {
  const folders = readdirSync(base, { withFileTypes: true }).filter((entry) => entry.isDirectory());
  return folders
    .filter((entry) => readdirSync(join(base, entry.name)).length > 0)
    .map((entry) => entry.name);
}
const watch = setInterval(() => {
  const now = spillingNow();
  for (const name of now) seen.spilling.add(name);
  if (now.length > 1) seen.atOnce++;
}, 20);

const until = performance.now() + Number(ms);
async function reader(read: () => Promise<string>, truth: string): Promise<void> {
  while (performance.now() < until) {
    try {
      const answer = await read();
      if (answer !== truth) throw new Error(`wrong answer: ${answer.slice(0, 300)}`);
      seen.ok++;
    } catch (error) {
      if (!(error instanceof StoreOverloadedError)) {
        process.stdout.write(`${String(error)}\n`);
        process.exit(1);
      }
      seen.outOfMemory++;
    }
  }
}
// Each read on two connections of each pool: all eight at once.
await Promise.all(
  pools.flatMap((pool) =>
    reads(pool).flatMap((read, i) => [
      reader(read, truths[i] as string),
      reader(read, truths[i] as string),
    ]),
  ),
);
clearInterval(watch);
await Promise.all(pools.map((pool) => pool.close()));
process.stdout.write(`${JSON.stringify({ ...seen, spilling: [...seen.spilling] })}\n`);
