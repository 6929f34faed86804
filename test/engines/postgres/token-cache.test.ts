/**
 * The replicas' cache of the coordinator's tokens (CoordinatorTokens): a cached token costs no
 * coordinator round trip, yet a revocation counts within a second, through the trigger's
 * notice; when the listening connection is lost or the trigger is missing, the cache is empty
 * and every lookup goes to the coordinator, so no revocation is ever missed; caching resumes
 * once the notices are heard again.
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COORDINATOR_META_DDL, TOKEN_NOTIFY } from '../../../src/engines/postgres/meta.ts';
import { PgPool } from '../../../src/engines/postgres/pool.ts';
import {
  CoordinatorTokens,
  mintClusterToken,
  revokeClusterToken,
} from '../../../src/engines/postgres/tokens.ts';
import { hashToken } from '../../../src/tokens/token.ts';
import { DEMO_USERS } from '../../../tools/demo-data/demo.ts';
import { createTestDatabase, loadStoreFile } from '../../helpers/postgres.ts';
import { buildDemoStore } from '../../helpers/store.ts';

let databaseUrl: string;
let pool: PgPool;
let tokens: CoordinatorTokens;
/** Statements the pool ran: each is a token lookup here. */
let lookups = 0;

const USER = DEMO_USERS[0] as string;

async function waitFor(condition: () => boolean, withinMs: number): Promise<number> {
  const started = performance.now();
  while (!condition()) {
    if (performance.now() - started > withinMs) throw new Error(`not within ${withinMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  return performance.now() - started;
}

async function onCoordinator(sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

const mint = async () => hashToken(await mintClusterToken({ databaseUrl, userId: USER }));
const revoke = (tokenHash: string) => revokeClusterToken({ databaseUrl, idOrToken: tokenHash });

/** The lookups `owner` made for `times` calls. */
async function lookupsFor(tokenHash: string, times: number): Promise<number> {
  const before = lookups;
  for (let i = 0; i < times; i++) expect((await tokens.owner(tokenHash))?.userId).toBe(USER);
  return lookups - before;
}

beforeAll(async () => {
  databaseUrl = await createTestDatabase();
  await loadStoreFile(databaseUrl, await buildDemoStore());
  pool = new PgPool(databaseUrl, {
    onQuery: () => {
      lookups++;
    },
  });
  // Trusted for 10 s after a heartbeat, not the default second: on a machine whose cores are
  // busy, a heartbeat can come back later than a second, and the cache would rightly stop
  // answering. What these tests watch (a notice, a lost connection, a missing trigger) stops the
  // cache at once, whatever the trust.
  tokens = new CoordinatorTokens(pool, databaseUrl, { heartbeatMs: 100, trustMs: 10_000 });
  tokens.start();
  await waitFor(() => tokens.caching, 10_000);
}, 120_000);

afterAll(async () => {
  await tokens?.close();
  await pool?.close();
});

describe('the coordinator token cache', () => {
  it('answers a known token without a coordinator round trip', async () => {
    const tokenHash = await mint();
    expect(await lookupsFor(tokenHash, 1)).toBe(1);
    // The mint's own notice may arrive after that lookup was cached (later on a busy machine)
    // and rightly drop the entry once: the next lookup caches it again.
    const started = performance.now();
    while ((await lookupsFor(tokenHash, 1)) > 0) {
      if (performance.now() - started > 10_000) throw new Error('the token was never cached');
    }
    expect(await lookupsFor(tokenHash, 5)).toBe(0);
  });

  it('refuses a cached token within a second of its revocation on the coordinator', async () => {
    const tokenHash = await mint();
    await lookupsFor(tokenHash, 2);
    await revoke(tokenHash);
    const revokedAt = performance.now();
    let refused = false;
    while (!refused && performance.now() - revokedAt < 1000) {
      refused = (await tokens.owner(tokenHash)) === null;
    }
    expect(refused).toBe(true);
    // The notice dropped the token: the cache itself stayed on.
    expect(tokens.caching).toBe(true);
  });

  it('looks every token up while its listening connection is lost, then caches again', async () => {
    const kept = await mint();
    const revoked = await mint();
    await lookupsFor(kept, 1);
    await lookupsFor(revoked, 1);
    await onCoordinator(
      `SELECT pg_terminate_backend(pid) FROM pg_stat_activity
       WHERE application_name = 'finance-data-api tokens' AND datname = current_database()`,
    );
    await waitFor(() => !tokens.caching, 2000);
    // No notice can arrive now: a revocation counts at once, as every request looks it up.
    await revoke(revoked);
    expect(await tokens.owner(revoked)).toBeNull();
    expect(await lookupsFor(kept, 3)).toBe(3);
    await waitFor(() => tokens.caching, 5000);
    await lookupsFor(kept, 1);
    expect(await lookupsFor(kept, 3)).toBe(0);
  }, 20_000);

  it('looks every token up while the coordinator has no trigger to announce changes', async () => {
    const tokenHash = await mint();
    await onCoordinator(`DROP TRIGGER ${TOKEN_NOTIFY} ON public.access_tokens`);
    try {
      await waitFor(() => !tokens.caching, 2000);
      expect(await lookupsFor(tokenHash, 3)).toBe(3);
    } finally {
      for (const statement of COORDINATOR_META_DDL) await onCoordinator(statement);
    }
    await waitFor(() => tokens.caching, 2000);
    await lookupsFor(tokenHash, 1);
    expect(await lookupsFor(tokenHash, 3)).toBe(0);
  }, 20_000);
});
