/**
 * DuckDB's two spending paths on one store, in-process: the single GROUPING SETS statement
 * against the stored groups folded by the domain (the PostgreSQL path). Checks that both
 * shape the same body, then times them alternately: the process's CPU time per answer (DuckDB
 * runs in-process, on one thread), steadier than wall time on a machine shared with other work.
 * Usage: npx tsx bench/spending-paths.ts <store.duckdb> [runs] [runs for the heavy user]
 */
import { isDeepStrictEqual } from 'node:util';
import type { TimePeriod } from '../src/domain/calendar.ts';
import type { GroupBy, SecondaryGroupBy, SpendingQuery } from '../src/domain/spending/model.ts';
import { shapeSpendingAnalysis } from '../src/domain/spending/shape.ts';
import { DuckDbPool } from '../src/engines/duckdb/pool.ts';
import {
  foldedAggregates,
  spendingReadsOf,
  statementAggregates,
} from '../src/engines/duckdb/spending.ts';

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

console.log(
  `store ${path}; window ${start}..${end}; ${iterationsText}/${heavyText} runs each, alternating`,
);
console.log(
  'user      rows    shape                  | GROUPING SETS p50/p90 | fold p50/p90 (ms of CPU)',
);
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
      withCashFlow: true,
    };
    const single = () => statementAggregates(db, query, reads);
    const folded = () => foldedAggregates(db, query, reads);
    const [a, b] = [
      shapeSpendingAnalysis(query, await single()),
      shapeSpendingAnalysis(query, await folded()),
    ];
    if (!isDeepStrictEqual(a, b)) throw new Error(`bodies differ: ${JSON.stringify(query)}`);
    const times: [number[], number[]] = [[], []];
    for (let i = 0; i < Number(user === heavy ? heavyText : iterationsText); i++) {
      for (const [index, run] of [single, folded].entries()) {
        const started = process.cpuUsage();
        shapeSpendingAnalysis(query, await run());
        const cpu = process.cpuUsage(started);
        times[index]?.push((cpu.user + cpu.system) / 1000);
      }
    }
    const [s, f] = times.map((list) => list.sort((x, y) => x - y)) as [number[], number[]];
    const label = `${groupBy}/${timePeriod}${secondary ? `+${secondary}` : ''}`;
    console.log(
      `${user === heavy ? 'heavy  ' : 'typical'} ${String(user.rows).padStart(7)}  ${label.padEnd(22)} | ${quantile(s, 0.5).toFixed(2).padStart(7)} ${quantile(s, 0.9).toFixed(2).padStart(7)}      | ${quantile(f, 0.5).toFixed(2).padStart(7)} ${quantile(f, 0.9).toFixed(2).padStart(7)}`,
    );
  }
}
await db.close();
