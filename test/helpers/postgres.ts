/** Stores on the test run's PostgreSQL cluster (setup/postgres-cluster.ts), and its tools. */
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { expect, inject } from 'vitest';
import { newGeneration } from '../../src/contract/store-format.ts';
import { PgPool } from '../../src/engines/postgres/pool.ts';
import { configureShardServers } from '../../src/engines/postgres/topology.ts';
import { loadGeneration } from '../../src/ingest/postgres/load.ts';
import type { Row, SqlParam } from '../../src/sql/statement.ts';
import { REPO_ROOT } from './server.ts';
import { makeTempDir } from './store.ts';

const execFileAsync = promisify(execFile);

/** The file `npm run <name>` runs with tsx, as package.json says. */
function toolFile(name: string): string {
  const scripts: Record<string, string> = JSON.parse(
    readFileSync(join(REPO_ROOT, 'package.json'), 'utf8'),
  ).scripts;
  const file = /^tsx (\S+\.ts)$/.exec(scripts[name] ?? '')?.[1];
  if (!file) throw new Error(`package.json has no "tsx <file>" script called ${name}`);
  return file;
}

/**
 * Runs one of the command-line tools (`npm run <name>`) as a process, without a
 * DATABASE_URL from the environment; resolves with its exit code and output, never rejects.
 */
export async function runTool(name: string, args: string[]) {
  const file = toolFile(name);
  try {
    const { stdout, stderr } = await execFileAsync(
      join(REPO_ROOT, 'node_modules', '.bin', 'tsx'),
      [file, ...args],
      { cwd: REPO_ROOT, env: { ...process.env, DATABASE_URL: '' } },
    );
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

const withDatabase = (url: string, database: string) => {
  const next = new URL(url);
  next.pathname = `/${database}`;
  return next;
};

async function run(url: string | URL, statements: string[]): Promise<void> {
  const client = new pg.Client({ connectionString: url.toString() });
  await client.connect();
  try {
    for (const statement of statements) await client.query(statement);
  } finally {
    await client.end();
  }
}

/**
 * A database of its own on the coordinator and on each shard, the coordinator's shard servers
 * pointing at the shards' ones: a cluster for one store, isolated from every other test's.
 * Returns the coordinator URL.
 */
export async function createTestDatabase(): Promise<string> {
  const cluster = inject('postgresCluster');
  const name = `t_${randomBytes(6).toString('hex')}`;
  await Promise.all(
    [cluster.databaseUrl, ...cluster.shardUrls].map((url) => run(url, [`CREATE DATABASE ${name}`])),
  );
  const coordinator = withDatabase(cluster.databaseUrl, name);
  const client = new pg.Client({ connectionString: coordinator.toString() });
  await client.connect();
  try {
    await configureShardServers(
      client,
      cluster.shardUrls.map((url) => withDatabase(url, name)),
    );
  } finally {
    await client.end();
  }
  return coordinator.toString();
}

/** Loads a built DuckDB store into the database as a new generation; returns the generation. */
export async function loadStoreFile(databaseUrl: string, duckdbPath: string): Promise<string> {
  const generation = newGeneration();
  await loadGeneration({
    duckdbPath,
    databaseUrl,
    generation,
    source: duckdbPath,
    scratchDir: makeTempDir('load'),
  });
  return generation;
}

/** A pool that records every statement it runs, with its values. */
export class RecordingPool extends PgPool {
  readonly statements: { sql: string; params: readonly SqlParam[] }[] = [];
  override query<T extends Row = Row>(sql: string, params: readonly SqlParam[] = []) {
    this.statements.push({ sql, params });
    return super.query<T>(sql, params);
  }
  /** Recorded as the SELECT it copies (its values spelled in): EXPLAIN plans it, not a COPY. */
  override copyBytes(select: string) {
    this.statements.push({ sql: select, params: [] });
    return super.copyBytes(select);
  }
}

interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  Relations?: string;
  'Remote SQL'?: string;
  Plans?: PlanNode[];
}

function foreignScans(node: PlanNode): PlanNode[] {
  const own = node['Node Type'] === 'Foreign Scan' ? [node] : [];
  return [...own, ...(node.Plans ?? []).flatMap(foreignScans)];
}

/** The bucket tables a foreign scan reads (`transactions_p3`, ...). */
const bucketsOf = (scan: PlanNode) =>
  [...`${scan.Relations ?? ''} ${scan['Relation Name'] ?? ''}`.matchAll(/\b[a-z_]+_p(\d+)\b/g)].map(
    (match) => Number(match[1]),
  );

/**
 * Proves by the coordinator's plan (EXPLAIN VERBOSE, with the values it ran with) that a
 * statement reads one bucket of each table, the user's, so one shard; and that a statement
 * that aggregates does so on the shard: one Foreign Scan whose remote SQL holds the GROUP BY.
 */
export async function expectOnUserShard(
  pool: PgPool,
  sql: string,
  params: readonly SqlParam[],
): Promise<void> {
  const [row] = await pool.query<{ 'QUERY PLAN': [{ Plan: PlanNode }] }>(
    `EXPLAIN (VERBOSE, FORMAT JSON) ${sql}`,
    params,
  );
  const plan = row?.['QUERY PLAN'][0].Plan as PlanNode;
  const scans = foreignScans(plan);
  const context = `${sql}\n${JSON.stringify(plan, null, 1)}`;
  expect(scans.length, context).toBeGreaterThan(0);
  expect(new Set(scans.flatMap(bucketsOf)).size, context).toBe(1);
  if (/GROUP BY/i.test(sql)) {
    expect(scans, context).toHaveLength(1);
    expect(scans[0]?.Relations, context).toMatch(/^Aggregate on/);
    expect(scans[0]?.['Remote SQL'], context).toMatch(/GROUP BY/);
  }
}
