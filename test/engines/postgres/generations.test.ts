/**
 * Loading and publishing on the cluster through the real CLIs (build-db, token), read by real
 * server processes: a new generation is published whole, a failed load leaves the current one
 * serving, two stateless replicas answer identically and both follow a new generation within
 * a second, and a token minted on the coordinator counts from the next request, a revoked one
 * within a second (the replicas cache tokens and hear of changes: test/engines/postgres/token-cache.test.ts).
 */
import { cp, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateToken, hashToken } from '../../../src/tokens/token.ts';
import { DEMO_DIR } from '../../../tools/demo-data/demo.ts';
import { type ChangeSetFiles, writeChangeSet } from '../../helpers/changing-store.ts';
import { createTestDatabase, runTool } from '../../helpers/postgres.ts';
import {
  bearer,
  DEMO_TODAY,
  DEMO_USERS,
  type ServerProcess,
  startServerProcess,
} from '../../helpers/server.ts';
import { buildDemoStore, makeTempDir, mintTestToken } from '../../helpers/store.ts';

/** Tests that run the CLIs as processes: seconds each on a busy 2-core machine. */
const SLOW_TEST_MS = 120_000;

const SPENDING = '/v2/users/spending?group_by=category&time_period=month';

async function get(server: ServerProcess, path: string, token?: string) {
  const response = await fetch(`${server.url}${path}`, { headers: token ? bearer(token) : {} });
  const text = await response.text();
  return { status: response.status, text, headers: response.headers };
}

/** The body without what differs per request (its id and creation time). */
const stable = (text: string) =>
  text.replace(/"request_id":"[^"]*"/g, '').replace(/"created_at":"[^"]*"/g, '');

/** The status `path` answers `token` once it is 401, within a second of now. */
async function refusedWithinASecond(server: ServerProcess, path: string, token: string) {
  const started = performance.now();
  let status = (await get(server, path, token)).status;
  while (status !== 401 && performance.now() - started < 1000) {
    status = (await get(server, path, token)).status;
  }
  return status;
}

/** Rows of a query on the coordinator's database. */
async function coordinatorRows(sql: string): Promise<unknown[]> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    return (await client.query(sql)).rows;
  } finally {
    await client.end();
  }
}

async function generationOf(server: ServerProcess): Promise<string> {
  const ready = await get(server, '/readyz');
  return (JSON.parse(ready.text) as { store_generation: string }).store_generation;
}

let databaseUrl: string;
let replicas: ServerProcess[] = [];
let token: string;

beforeAll(async () => {
  databaseUrl = await createTestDatabase();
  const built = await runTool('build-db', ['--source', DEMO_DIR, '--database', databaseUrl]);
  expect(built.code, built.stderr).toBe(0);
  expect(built.stderr).toMatch(/published generation [0-9a-f]{16}/);
  const minted = await runTool('token', ['--user', DEMO_USERS[0], '--database', databaseUrl]);
  expect(minted.code, minted.stderr).toBe(0);
  token = minted.stdout.trim();
  const env = { DATABASE_URL: databaseUrl, TODAY: DEMO_TODAY, STORE_POLL_MS: '100' };
  replicas = await Promise.all([startServerProcess(env), startServerProcess(env)]);
}, 120_000);

afterAll(async () => {
  for (const replica of replicas) replica.child.kill('SIGTERM');
  await Promise.all(replicas.map((replica) => replica.exited));
});

describe('replicas on one cluster', () => {
  it('answer identically, and a token minted on the coordinator works on both', async () => {
    for (const path of [
      SPENDING,
      '/v1/user',
      '/v2/users/transactions?limit=5',
      '/v1/links',
      '/v1/users/balances',
      '/v1/users/liabilities',
    ]) {
      const [first, second] = await Promise.all(
        replicas.map((replica) => get(replica, path, token)),
      );
      expect(first?.status, path).toBe(200);
      expect(second?.status, path).toBe(200);
      expect(stable(second?.text ?? ''), path).toBe(stable(first?.text ?? ''));
    }
  });

  it('refuse a missing or unknown token and a bad query alike', async () => {
    for (const replica of replicas) {
      expect((await get(replica, SPENDING)).status).toBe(401);
      expect((await get(replica, SPENDING, `pat_${'A'.repeat(36)}`)).status).toBe(401);
      expect(
        (await get(replica, '/v2/users/spending?group_by=nope&time_period=month', token)).status,
      ).toBe(422);
    }
  });
});

describe('the same data on both engines', () => {
  it(
    'gets the same answers from DuckDB and from the cluster, errors included',
    async () => {
      const databasePath = await buildDemoStore();
      const duckToken = await mintTestToken(databasePath, DEMO_USERS[0]);
      const duckdb = await startServerProcess({ DATABASE_PATH: databasePath, TODAY: DEMO_TODAY });
      try {
        const paths = [
          SPENDING,
          '/v2/users/spending?group_by=merchant&time_period=week&include_income=true',
          '/v2/users/spending?group_by=time_period&time_period=quarter&secondary_group_by=category',
          '/v2/users/spending?group_by=time_period&time_period=day&start_date=2026-10-01&end_date=2026-10-01',
          '/v1/users/spending',
          '/v2/users/transactions?limit=20&offset=5',
          '/v2/users/transactions?q=coffee&direction=DEBIT&min_amount=2',
          '/v1/user',
          '/v1/links',
          '/v1/accounts',
          '/v1/users/balances',
          '/v1/users/income',
          '/v1/users/liabilities',
          '/v2/users/spending?group_by=nope&time_period=month',
          '/v2/users/transactions?limit=0',
        ];
        for (const path of paths) {
          const [cluster, embedded] = await Promise.all([
            get(replicas[0] as ServerProcess, path, token),
            get(duckdb, path, duckToken),
          ]);
          expect(cluster.status, path).toBe(embedded.status);
          expect(stable(cluster.text), path).toBe(stable(embedded.text));
        }
        for (const server of [replicas[0] as ServerProcess, duckdb]) {
          const refused = await get(server, SPENDING);
          expect(refused.status).toBe(401);
          expect(refused.text).toBe('{"detail":"Not authenticated"}');
        }
      } finally {
        duckdb.child.kill('SIGTERM');
        await duckdb.exited;
      }
    },
    SLOW_TEST_MS,
  );
});

describe('publishing a new generation', () => {
  it(
    'is followed by both replicas within a second; a failed load changes nothing',
    async () => {
      const before = await Promise.all(replicas.map(generationOf));
      expect(before[1]).toBe(before[0]);

      // Bad input: the build stops on it, names the row, and the current generation serves on.
      const bad = makeTempDir('bad-source');
      await cp(DEMO_DIR, bad, { recursive: true });
      await writeFile(
        join(bad, 'users.csv'),
        'id,name,email,phone,created_at\nusr_x,Someone,x@example.com,,not-a-time\n',
      );
      const failed = await runTool('build-db', ['--source', bad, '--database', databaseUrl]);
      expect(failed.code).toBe(1);
      expect(failed.stderr).toMatch(/users\.csv:2: /);
      expect(failed.stderr).toMatch(/was not changed/);
      expect(await Promise.all(replicas.map(generationOf))).toEqual(before);
      expect((await get(replicas[0] as ServerProcess, SPENDING, token)).status).toBe(200);

      const reloaded = await runTool('build-db', ['--source', DEMO_DIR, '--database', databaseUrl]);
      expect(reloaded.code, reloaded.stderr).toBe(0);
      const published = /published generation ([0-9a-f]{16})/.exec(reloaded.stderr)?.[1];
      expect(published).toBeDefined();
      expect(published).not.toBe(before[0]);
      const deadline = Date.now() + 1_000;
      let seen: string[] = [];
      while (Date.now() < deadline) {
        seen = await Promise.all(replicas.map(generationOf));
        if (seen.every((generation) => generation === published)) break;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      expect(seen).toEqual([published, published]);
      // The same data again: the same answers, and the token minted before still works.
      const [first, second] = await Promise.all(
        replicas.map((replica) => get(replica, SPENDING, token)),
      );
      expect(first?.status).toBe(200);
      expect(stable(second?.text ?? '')).toBe(stable(first?.text ?? ''));
    },
    SLOW_TEST_MS,
  );

  it(
    'a change set that changes nothing publishes nothing: no change set entry, replicas keep their generation',
    async () => {
      const upstream = generateToken();
      const changes = async (files: ChangeSetFiles) =>
        runTool('build-db', ['--changes', await writeChangeSet(files), '--database', databaseUrl]);
      const adds: ChangeSetFiles = {
        upserts: {
          transactions: [
            {
              id: 'txn_twice',
              user_id: DEMO_USERS[0],
              account_id: 'acc_mp5j4s9lxtbf2n',
              transacted_at: '2026-11-19',
              amount: '7.00',
              direction: 'DEBIT',
              description: 'APPLIED TWICE',
              category: 'Other',
            },
          ],
          access_tokens: [
            {
              token_hash: hashToken(upstream),
              user_id: DEMO_USERS[2],
              name: 'upstream',
              created_at: '2026-01-01T00:00:00Z',
            },
          ],
        },
        deletes: { transactions: [{ id: 'txn_never_there' }] },
      };
      const revokes: ChangeSetFiles = {
        deletes: { access_tokens: [{ token_hash: hashToken(upstream) }] },
      };
      for (const files of [adds, revokes]) {
        const applied = await changes(files);
        expect(applied.code, applied.stderr).toBe(0);
        const published = /published generation ([0-9a-f]{16})/.exec(applied.stderr)?.[1];
        expect(published).toBeDefined();
        const state = async () => ({
          meta: await coordinatorRows('SELECT generation, seq FROM public.store_meta'),
          changeSets: await coordinatorRows(
            'SELECT seq, generation FROM public.change_sets ORDER BY seq',
          ),
        });
        const before = await state();
        const again = await changes(files);
        expect(again.code, again.stderr).toBe(0);
        expect(again.stderr).toContain(
          `build-db: the change set changes nothing: generation ${published} still serves, nothing was published\n`,
        );
        expect(await state()).toEqual(before);
        // Two polls of the replicas later, they still serve it.
        await new Promise((resolve) => setTimeout(resolve, 300));
        expect(await Promise.all(replicas.map(generationOf))).toEqual([published, published]);
      }
      expect((await get(replicas[0] as ServerProcess, '/v1/user', upstream)).status).toBe(401);
    },
    SLOW_TEST_MS,
  );

  it(
    'revoking a token on the coordinator refuses it within a second',
    async () => {
      const minted = await runTool('token', [
        '--user',
        DEMO_USERS[1],
        '--name',
        'ci',
        '--database',
        databaseUrl,
      ]);
      const second = minted.stdout.trim();
      expect((await get(replicas[1] as ServerProcess, '/v1/user', second)).status).toBe(200);
      const listed = await runTool('token', [
        '--list',
        '--user',
        DEMO_USERS[1],
        '--database',
        databaseUrl,
      ]);
      expect(listed.stdout).toMatch(/ci/);
      const revoked = await runTool('token', ['--revoke', second, '--database', databaseUrl]);
      expect(revoked.code, revoked.stderr).toBe(0);
      for (const replica of replicas) {
        expect(await refusedWithinASecond(replica, '/v1/user', second)).toBe(401);
      }
      const unknown = await runTool('token', ['--user', 'usr_nobody', '--database', databaseUrl]);
      expect(unknown.code).toBe(1);
      expect(unknown.stderr).toMatch(/unknown user 'usr_nobody'/);
    },
    SLOW_TEST_MS,
  );

  it(
    'takes tokens issued upstream with the data, and applies a revocation in a later load',
    async () => {
      const upstream = generateToken();
      const source = makeTempDir('tokens-source');
      await cp(DEMO_DIR, source, { recursive: true });
      const row = (revokedAt: string) =>
        `token_hash,user_id,name,created_at,expires_at,revoked_at\n${hashToken(upstream)},${DEMO_USERS[2]},upstream,2026-01-01T00:00:00Z,,${revokedAt}\n`;
      await writeFile(join(source, 'access_tokens.csv'), row(''));
      const loaded = await runTool('build-db', ['--source', source, '--database', databaseUrl]);
      expect(loaded.code, loaded.stderr).toBe(0);
      expect((await get(replicas[0] as ServerProcess, '/v1/user', upstream)).status).toBe(200);
      // Tokens minted on the coordinator before survive the reload.
      expect((await get(replicas[0] as ServerProcess, '/v1/user', token)).status).toBe(200);

      await writeFile(join(source, 'access_tokens.csv'), row('2026-02-01T00:00:00Z'));
      const revoked = await runTool('build-db', ['--source', source, '--database', databaseUrl]);
      expect(revoked.code, revoked.stderr).toBe(0);
      for (const replica of replicas) {
        expect(await refusedWithinASecond(replica, '/v1/user', upstream)).toBe(401);
      }
    },
    SLOW_TEST_MS,
  );
});
