/**
 * The spending analysis's CPU per answer on one DuckDB store, in-process, per query shape (by
 * category, merchant and period, over months, weeks and days), for the store's median user and
 * its heaviest: the process's CPU time (DuckDB runs in-process, on one thread), steadier than
 * wall time on a machine shared with other work.
 * Usage: npx tsx bench/spending-paths.ts <store.duckdb> [runs] [runs for the heavy user]
 */
import { spendingBody } from '../src/areas/spending/body.ts';
import type { TimePeriod } from '../src/domain/calendar.ts';
import type { GroupBy, SecondaryGroupBy, SpendingQuery } from '../src/domain/spending/model.ts';
import { shapeSpendingAnalysis } from '../src/domain/spending/shape.ts';
import { DuckDbPool } from '../src/engines/duckdb/pool.ts';
import { spendingAggregates, spendingReadsOf } from '../src/engines/duckdb/spending.ts';

const [path, iterationsText = '40', heavyText = '10'] = process.argv.slice(2);
if (!path)
  throw new Error('usage: npx tsx bench/spending-paths.ts <store.duckdb> [runs] [heavy runs]');
const db = await DuckDbPool.open(path, { poolSize: 1, threads: 1 });
const reads = await spendingReadsOf(db);

const [{ end } = { end: '' }] = await db.query<{ end: string }>(
  'SELECT max(transacted_at)::VARCHAR AS end FROM transactions',
);
const users = await db.query<{ user_id: string; rows: number }>(
  `SELECT user_id, count(*)::INTEGER AS rows FROM transactions GROUP BY user_id ORDER BY rows`,
);
const typical = users[users.length >> 1] as { user_id: string; rows: number };
const heavy = users[users.length - 1] as { user_id: string; rows: number };
const start = `${Number(end.slice(0, 4)) - 1}${end.slice(4, 8)}01`;

const SHAPES: [GroupBy, TimePeriod, SecondaryGroupBy | null][] = [
  ['category', 'month', null],
  ['merchant', 'month', null],
  ['time_period', 'month', 'category'],
  ['category', 'week', null],
  ['merchant', 'week', null],
  ['time_period', 'week', 'merchant'],
  ['time_period', 'day', null],
];

const quantile = (sorted: number[], q: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] as number;

console.log(`store ${path}; window ${start}..${end}; ${iterationsText}/${heavyText} runs each`);
console.log('user      rows    shape                      | p50 / p90 (ms of CPU)');
for (const user of [typical, heavy]) {
  for (const [groupBy, timePeriod, secondary] of SHAPES) {
    const query: SpendingQuery = {
      userId: user.user_id,
      window: { start, end },
      groupBy,
      timePeriod,
      secondaryGroupBy: secondary,
      linkId: null,
      accountIds: [],
      categories: [],
      includeIncome: false,
      minTotalAmount: '50.00',
    };
    const answer = async () =>
      spendingBody(shapeSpendingAnalysis(query, await spendingAggregates(db, query, reads)));
    await answer();
    const times: number[] = [];
    for (let i = 0; i < Number(user === heavy ? heavyText : iterationsText); i++) {
      const started = process.cpuUsage();
      await answer();
      const cpu = process.cpuUsage(started);
      times.push((cpu.user + cpu.system) / 1000);
    }
    times.sort((x, y) => x - y);
    const label = `${groupBy}/${timePeriod}${secondary ? `+${secondary}` : ''}`;
    console.log(
      `${user === heavy ? 'heavy  ' : 'typical'} ${String(user.rows).padStart(7)}  ${label.padEnd(26)} | ${quantile(times, 0.5).toFixed(2).padStart(7)} ${quantile(times, 0.9).toFixed(2).padStart(7)}`,
    );
  }
}
await db.close();
