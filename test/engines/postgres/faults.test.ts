/**
 * Database faults on the cluster engine, on a cluster of this file's own (it stops,
 * kills and restarts its servers), injected under concurrent load on loopback against the real
 * server process: the coordinator stopped or crashed, a shard crashed and restarted. The process
 * never exits, no answer is a 200 other than the truth nor a 500, an answer in flight is a 503
 * or a cut-short body, /readyz says not ready while the database is away, service resumes by
 * itself when it is back, and the log stays a few lines without stacks (docs/operations.md,
 * "Store and database faults").
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mintClusterToken } from '../../../src/engines/postgres/tokens.ts';
import {
  type ClusterInfo,
  controlInstance,
  startCluster,
  stopCluster,
} from '../../../tools/cluster/cluster.ts';
import {
  eventually,
  expectBoundedLog,
  expectHonest,
  get,
  judge,
  logLines,
  readiness,
  sleep,
  type Target,
  underLoad,
} from '../../helpers/faults.ts';
import { freePortRun } from '../../helpers/ports.ts';
import { loadStoreFile } from '../../helpers/postgres.ts';
import {
  bearer,
  DEMO_TODAY,
  DEMO_USERS,
  type ServerProcess,
  startServerProcess,
} from '../../helpers/server.ts';
import { buildDemoStore } from '../../helpers/store.ts';

let dir: string;
let cluster: ClusterInfo;
let server: ServerProcess;
let targets: Target[];

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'finance-faults-'));
  cluster = await startCluster({ dir, shards: 1, port: await freePortRun(2), fast: true });
  await loadStoreFile(cluster.databaseUrl, await buildDemoStore());
  const tokens = await Promise.all(
    DEMO_USERS.slice(0, 2).map((userId) =>
      mintClusterToken({ databaseUrl: cluster.databaseUrl, userId }),
    ),
  );
  server = await startServerProcess({
    DATABASE_URL: cluster.databaseUrl,
    TODAY: DEMO_TODAY,
    LOG_LEVEL: 'info',
    QUERY_TIMEOUT_MS: '3000',
    STORE_POLL_MS: '200',
    RATE_LIMIT_MAX: '0',
    RESPONSE_CACHE_MB: '0',
    SHED_MAX_EVENT_LOOP_UTILIZATION: '0',
    SHED_MAX_EVENT_LOOP_DELAY_MS: '0',
  });
  // The truth every 200 must carry, taken while all is well.
  targets = [];
  for (const token of tokens) {
    for (const path of [
      '/v1/user',
      '/v1/users/balances',
      '/v2/users/transactions?page=2&page_size=100',
      '/v2/users/transactions',
    ]) {
      const answer = await get(`${server.url}${path}`, bearer(token));
      expect(answer.status, path).toBe(200);
      targets.push({ path, headers: bearer(token), truth: answer.body });
    }
  }
}, 120_000);

afterAll(async () => {
  if (server && server.child.exitCode === null) {
    server.child.kill('SIGTERM');
    await server.exited;
  }
  await stopCluster(dir).catch(() => {});
  await rm(dir, { recursive: true, force: true });
});

/** Starts what is stopped; after a crash the old sessions may hold on a moment: try again. */
async function restart(): Promise<void> {
  for (let attempt = 0; ; attempt++) {
    try {
      await controlInstance(dir, 'coordinator', 'start');
      return;
    } catch (error) {
      if (attempt >= 20) throw error;
      await sleep(500);
    }
  }
}

/** What kept the server from being healthy at the last look (for the failure message). */
let unhealthy = '';

/** Every target answers its truth and /readyz says ready. */
const healthy = () =>
  eventually(async () => {
    const ready = await get(`${server.url}/readyz`);
    if (ready.status !== 200) {
      unhealthy = `/readyz ${ready.status} ${ready.error ?? ''} ${ready.body}`;
      return false;
    }
    for (const target of targets) {
      const answer = await get(`${server.url}${target.path}`, target.headers);
      if (judge(answer, target.truth) !== 'ok') {
        unhealthy = `${target.path} ${answer.status} ${answer.error ?? ''} ${answer.body.slice(0, 200)}`;
        return false;
      }
    }
    return true;
  }, 25_000);

function expectAlive(): void {
  expect(server.child.exitCode, server.output().slice(-3000)).toBeNull();
  expect(server.child.signalCode).toBeNull();
}

describe.each([
  ['stopped (fast shutdown)', 'coordinator', 'stop'],
  ['crashed (SIGKILL)', 'coordinator', 'kill'],
  ['shard crashed (SIGKILL)', 'shard1', 'kill'],
] as const)('the %s under load', (_title, instance, action) => {
  it('503 and not ready while away, never a wrong 200 or a 500, back by itself', async () => {
    const logBefore = server.output().length;
    let down = false;
    const report = await underLoad(
      server.url,
      targets,
      async () => {
        await sleep(500);
        await controlInstance(dir, instance, action, 'fast');
        down = await eventually(async () => (await readiness(server.url)) === 503, 10_000);
        // Answers while it is away: refused connections, not a crash or a 500.
        await sleep(1_500);
        await restart();
        // Back under load: the pool connects anew, the shard's servers are registered again.
        await sleep(1_500);
      },
      { workers: 8, maxRequests: 5_000 },
    );
    expectHonest(report);
    expect(down).toBe(true);
    expect(report.verdicts.unavailable).toBeGreaterThan(0);
    expectAlive();
    const back = await healthy();
    // The access log's lines would bury the reasons: the warnings and errors only.
    const warnings = logLines(server.output().slice(logBefore))
      .filter((line) => line.level >= 40)
      .map((line) => line.raw)
      .join('\n');
    expect(back, `last seen: ${unhealthy}\n${warnings}`).toBe(true);
    expectAlive();
    expectBoundedLog(server.output().slice(logBefore), 15);
  }, 60_000);
});
