/**
 * Single-shard routing, proved by the planner: every statement the PostgreSQL port runs for a
 * request is EXPLAINed (VERBOSE) on the coordinator with the values it ran with. Each reads
 * one bucket (the user's) of each table, on one shard; a statement that aggregates does so on
 * the shard: one Foreign Scan whose remote SQL holds the GROUP BY.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SpendingQuery } from '../../../src/domain/spending/model.ts';
import { ledgerReads, ledgerSelect } from '../../../src/engines/postgres/ledger.ts';
import { openPostgresPort, type PostgresPort } from '../../../src/engines/postgres/port.ts';
import type { TransactionFilters } from '../../../src/port/read-port.ts';
import {
  createTestDatabase,
  expectOnUserShard,
  loadStoreFile,
  RecordingPool,
} from '../../helpers/postgres.ts';
import { spendingQuery } from '../../helpers/spending-query.ts';
import { buildDemoStore, NO_FILTERS } from '../../helpers/store.ts';

const USER = 'usr_jqhzo7mn41';
const EVERY_FILTER: TransactionFilters = {
  from: '2025-01-01',
  to: '2026-06-30',
  accountIds: ['acc_c91djv0subp9qu'],
  linkId: 'lnk_9jsnolw673es',
  categories: ['General Services'],
  direction: 'DEBIT',
  minAmount: '1.00',
  maxAmount: '900.00',
  text: 'geico',
};
const spending = (overrides: Partial<SpendingQuery>): SpendingQuery =>
  spendingQuery({
    userId: USER,
    window: { start: '2025-11-01', end: '2026-10-31' },
    includeIncome: true,
    ...overrides,
  });

let pool: RecordingPool;
let port: PostgresPort;

beforeAll(async () => {
  const databaseUrl = await createTestDatabase();
  await loadStoreFile(databaseUrl, await buildDemoStore());
  pool = new RecordingPool(databaseUrl);
  port = await openPostgresPort(pool);
});
afterAll(() => pool?.close());

/** The statements one port call ran (those that read the generation's tables). */
async function statementsOf(call: () => Promise<unknown>) {
  const before = pool.statements.length;
  await call();
  return pool.statements.slice(before).filter(({ sql }) => sql.includes(`${port.schema}.`));
}

const shapes: [string, () => Promise<unknown>][] = [
  ['profile', () => port.profile(USER)],
  ['user exists (authentication)', () => port.tokenOwner('0'.repeat(64))],
  ['accounts', () => port.accounts(USER)],
  ['transactions page', () => port.transactions(USER, NO_FILTERS, { limit: 50, offset: 0 })],
  [
    'transactions, every filter',
    () => port.transactions(USER, EVERY_FILTER, { limit: 5, offset: 0 }),
  ],
  ['transaction count', () => port.transactionCount(USER, EVERY_FILTER)],
  [
    'every transaction, in chunks',
    async () => {
      for await (const _chunk of port.transactionChunks(USER, NO_FILTERS)) void _chunk;
    },
  ],
  ['one transaction', () => port.transaction(USER, 'txn_lrz9m3vum8wzd2zylw28')],
  ['links', () => port.links(USER, { limit: 10, offset: 0 })],
  ['latest balances', () => port.latestBalances(USER)],
  ['balance history', () => port.balanceHistory(USER, ['2026-01-31', '2026-02-28'])],
  ['pay statements', () => port.payStatements(USER, { start: '2025-01-01', end: '2026-10-31' })],
  ['monthly income', () => port.monthlyIncome(USER, { start: '2025-01-01', end: '2026-10-31' })],
  ['liabilities', () => port.liabilities(USER)],
  ['packed ledger', () => ledgerReads(pool, port.schema).packedLedger(USER, 50_000)],
  ['spending by category', () => port.spendingAggregates(spending({}))],
  ['spending by merchant', () => port.spendingAggregates(spending({ groupBy: 'merchant' }))],
  [
    'spending by period, one day',
    () =>
      port.spendingAggregates(
        spending({
          groupBy: 'time_period',
          timePeriod: 'day',
          secondaryGroupBy: 'merchant',
          window: { start: '2025-08-21', end: '2025-08-21' },
        }),
      ),
  ],
];

describe('every statement of a request runs on the user’s shard', () => {
  it.each(shapes)('%s', async (_name, call) => {
    // `tokenOwner` with an unknown token reads no store table; ask for a known user instead.
    const statements = await statementsOf(call);
    if (_name === 'user exists (authentication)') {
      statements.push({
        sql: `SELECT 1 AS found FROM ${port.schema}.users WHERE id = $1`,
        params: [USER],
      });
    }
    expect(statements.length).toBeGreaterThan(0);
    for (const { sql, params } of statements) await expectOnUserShard(pool, sql, params);
  });
});

/** The remote SQL of the page statement of a text search, as the coordinator plans it. */
async function remoteSqlOfTextSearch(on: PostgresPort, recording: RecordingPool) {
  const before = recording.statements.length;
  const page = await on.transactions(
    USER,
    { ...NO_FILTERS, text: 'geico' },
    { limit: 5, offset: 0 },
  );
  const [statement] = recording.statements
    .slice(before)
    .filter(({ sql }) => sql.includes(`${on.schema}.transactions`) && sql.includes('LIMIT'));
  const [row] = await recording.query<{ 'QUERY PLAN': [{ Plan: unknown }] }>(
    `EXPLAIN (VERBOSE, FORMAT JSON) ${statement?.sql}`,
    statement?.params,
  );
  return { rows: page.rows, plan: JSON.stringify(row?.['QUERY PLAN']) };
}

describe('the packed ledger’s read', () => {
  it('selects the user’s one row on his shard: nothing of the bucket comes back but it', async () => {
    // The SELECT the COPY copies (COPY takes no EXPLAIN), as the read spells it.
    const [row] = await pool.query<{ 'QUERY PLAN': [{ Plan: unknown }] }>(
      `EXPLAIN (VERBOSE, FORMAT JSON) ${ledgerSelect(port.schema, USER, 50_000)}`,
    );
    const plan = JSON.stringify(row?.['QUERY PLAN']);
    expect(plan).toMatch(new RegExp(`Remote SQL[^}]*user_id = '${USER}'`));
    expect(plan).toMatch(/Remote SQL[^}]*transactions <= 50000/);
  });
});

describe('the text filter', () => {
  it('runs on the shard, on the columns the loader folded as the query is folded', async () => {
    const { rows, plan } = await remoteSqlOfTextSearch(port, pool);
    expect(rows.length).toBeGreaterThan(0);
    expect(plan).toMatch(/Remote SQL[^}]*strpos\(description_folded, 'geico'::text\)/);
  });
});
