/**
 * The token store of a cluster: `public.access_tokens` on the coordinator. Minting and revoking
 * are one statement each; a trigger announces every change to the replicas, whose token caches
 * (CoordinatorTokens below) drop the token at once, so a revocation counts within a second.
 */
import pg from 'pg';
import type { TokenOwner } from '../../port/read-port.ts';
import {
  type RevokeResult,
  revokePrefix,
  type TokenInfo,
  TokenStoreError,
  tokenId,
} from '../../tokens/store.ts';
import { generateToken, hashToken } from '../../tokens/token.ts';
import {
  COORDINATOR_META_DDL,
  CURRENT_GENERATION_SQL,
  TOKEN_CHANNEL,
  TOKEN_NOTIFY_PRESENT_SQL,
} from './meta.ts';
import type { PgPool } from './pool.ts';

async function withCoordinator<T>(
  databaseUrl: string,
  work: (client: pg.Client) => Promise<T>,
): Promise<T> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** The user must exist in the generation published now. */
async function assertUserExists(client: pg.Client, userId: string): Promise<void> {
  const meta = await client.query<{ schema_name: string }>(CURRENT_GENERATION_SQL).catch(() => ({
    rows: [],
  }));
  const schema = meta.rows[0]?.schema_name;
  if (!schema) throw new TokenStoreError('the cluster holds no data yet (npm run build-db)');
  const { rowCount } = await client.query(`SELECT 1 FROM ${schema}.users WHERE id = $1`, [userId]);
  if (rowCount === 0) throw new TokenStoreError(`unknown user '${userId}'`);
}

export async function mintClusterToken(options: {
  databaseUrl: string;
  userId: string;
  name?: string | null;
  expiresAt?: Date | null;
}): Promise<string> {
  return withCoordinator(options.databaseUrl, async (client) => {
    await assertUserExists(client, options.userId);
    for (const statement of COORDINATOR_META_DDL) await client.query(statement);
    const token = generateToken();
    await client.query(
      `INSERT INTO public.access_tokens (token_hash, user_id, name, created_at, expires_at)
       VALUES ($1, $2, $3, $4::timestamptz AT TIME ZONE 'UTC', $5::timestamptz AT TIME ZONE 'UTC')`,
      [
        hashToken(token),
        options.userId,
        options.name ?? null,
        new Date().toISOString(),
        options.expiresAt?.toISOString() ?? null,
      ],
    );
    return token;
  });
}

export async function revokeClusterToken(options: {
  databaseUrl: string;
  idOrToken: string;
}): Promise<RevokeResult> {
  const prefix = revokePrefix(options.idOrToken);
  return withCoordinator(options.databaseUrl, async (client) => {
    const { rows } = await client
      .query<{ token_hash: string; user_id: string; revoked: boolean }>(
        `SELECT token_hash, user_id, revoked_at IS NOT NULL AS revoked
       FROM public.access_tokens WHERE starts_with(token_hash, $1) LIMIT 2`,
        [prefix],
      )
      .catch((error: { code?: string }) => {
        if (error.code === '42P01') return { rows: [] };
        throw error;
      });
    const [match] = rows;
    if (!match) throw new TokenStoreError(`no token matches '${options.idOrToken}'`);
    if (rows.length > 1) {
      throw new TokenStoreError(
        `several tokens match '${options.idOrToken}'; give more characters of the id`,
      );
    }
    if (!match.revoked) {
      await client.query(
        `UPDATE public.access_tokens SET revoked_at = now() AT TIME ZONE 'UTC'
         WHERE token_hash = $1 AND revoked_at IS NULL`,
        [match.token_hash],
      );
    }
    return { id: tokenId(match.token_hash), userId: match.user_id, alreadyRevoked: match.revoked };
  });
}

const ISO = `'YYYY-MM-DD"T"HH24:MI:SS"Z"'`;

export async function listClusterTokens(options: {
  databaseUrl: string;
  userId: string;
}): Promise<TokenInfo[]> {
  return withCoordinator(options.databaseUrl, async (client) => {
    await assertUserExists(client, options.userId);
    const { rows } = await client
      .query<{
        token_hash: string;
        name: string | null;
        created_at: string;
        expires_at: string | null;
        revoked_at: string | null;
      }>(
        `SELECT token_hash, name, to_char(created_at, ${ISO}) AS created_at,
              to_char(expires_at, ${ISO}) AS expires_at, to_char(revoked_at, ${ISO}) AS revoked_at
       FROM public.access_tokens WHERE user_id = $1 ORDER BY created_at, token_hash`,
        [options.userId],
      )
      .catch((error: { code?: string }) => {
        if (error.code === '42P01') return { rows: [] };
        throw error;
      });
    return rows.map((row) => ({
      id: tokenId(row.token_hash),
      name: row.name,
      createdAt: row.created_at,
      expiresAt: row.expires_at,
      revokedAt: row.revoked_at,
    }));
  });
}

/** The token's owner from the coordinator's table: one round trip. */
export async function lookupToken(pool: PgPool, tokenHash: string): Promise<TokenOwner | null> {
  const [row] = await pool.query<{ user_id: string; expires_ms: string | null }>(
    `SELECT user_id, (extract(epoch FROM expires_at) * 1000)::bigint AS expires_ms
     FROM public.access_tokens WHERE token_hash = $1 AND revoked_at IS NULL`,
    [tokenHash],
  );
  if (!row) return null;
  return {
    userId: row.user_id,
    expiresAtMs: row.expires_ms === null ? null : Number(row.expires_ms),
  };
}

export interface CoordinatorTokensOptions {
  /** Live tokens kept at most (the oldest are forgotten first). */
  maxEntries?: number;
  /** How often the listening connection proves it is alive. */
  heartbeatMs?: number;
  /**
   * The cache answers only while the listening connection proved alive this recently: a
   * revocation reaches the cache within this time even when the connection dies silently.
   */
  trustMs?: number;
  /** Told when the cache starts answering, and when it stops (falling back to lookups). */
  onState?: (caching: boolean, reason: string) => void;
}

/**
 * The coordinator's live tokens, cached per replica so a request does not pay a coordinator
 * round trip for its token. The cache is used only while it is sure to hear of changes: a
 * dedicated connection LISTENs on the channel the coordinator's trigger NOTIFYs with each
 * changed token (meta.ts), and proves every `heartbeatMs` (a query on that connection, after
 * which every notice committed before it has arrived) that it is alive and the trigger is
 * there. A notice drops its token; a connection lost, a heartbeat late or failing, or no trigger
 * clears the cache and every request looks its token up, as without a cache, until the
 * connection is back. A lookup that overlapped a notice or a loss is not cached.
 */
export class CoordinatorTokens {
  private readonly entries = new Map<string, TokenOwner>();
  private readonly maxEntries: number;
  private readonly heartbeatMs: number;
  private readonly trustMs: number;
  /** Bumped by every notice and every loss: a lookup that saw it change is not cached. */
  private changes = 0;
  /** When the last heartbeat that came back was sent (performance.now()). */
  private verifiedAt = Number.NEGATIVE_INFINITY;
  private client: pg.Client | null = null;
  private heartbeat: NodeJS.Timeout | undefined;
  private beating = false;
  private reconnect: NodeJS.Timeout | undefined;
  private closed = false;
  /** What `onState` was last told. */
  private reported: boolean | null = null;

  constructor(
    private readonly pool: PgPool,
    private readonly databaseUrl: string,
    private readonly options: CoordinatorTokensOptions = {},
  ) {
    this.maxEntries = options.maxEntries ?? 50_000;
    this.heartbeatMs = options.heartbeatMs ?? 250;
    this.trustMs = options.trustMs ?? 1000;
  }

  /** Whether the cache answers now. */
  get caching(): boolean {
    return this.client !== null && performance.now() - this.verifiedAt <= this.trustMs;
  }

  async owner(tokenHash: string): Promise<TokenOwner | null> {
    if (this.caching) {
      const known = this.entries.get(tokenHash);
      if (known) return known;
    }
    const changes = this.changes;
    const owner = await lookupToken(this.pool, tokenHash);
    if (owner && changes === this.changes && this.caching) {
      if (this.entries.size >= this.maxEntries) {
        const oldest = this.entries.keys().next().value;
        if (oldest !== undefined) this.entries.delete(oldest);
      }
      this.entries.set(tokenHash, owner);
    }
    return owner;
  }

  /** Starts listening (in the background: lookups serve until the cache is live). */
  start(): void {
    void this.connect();
  }

  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.reconnect);
    clearInterval(this.heartbeat);
    const client = this.client;
    this.forget();
    await client?.end().catch(() => {});
  }

  private async connect(): Promise<void> {
    if (this.closed) return;
    const client = new pg.Client({
      connectionString: this.databaseUrl,
      application_name: 'finance-data-api tokens',
      keepAlive: true,
      // A heartbeat that gets no answer fails the connection.
      query_timeout: Math.max(this.trustMs, 1000),
    });
    const lost = (reason: string) => {
      // Its own close, or a connection already replaced: nothing was lost.
      if (this.closed || (this.client !== client && this.client !== null)) return;
      this.drop(client, reason);
    };
    client.on('error', (error) => lost(`token notices lost (${error.message})`));
    client.on('end', () => lost('token notices lost (the connection ended)'));
    client.on('notification', (notice) => {
      if (notice.channel !== TOKEN_CHANNEL) return;
      this.changes++;
      if (notice.payload) this.entries.delete(notice.payload);
      else this.entries.clear();
    });
    try {
      await client.connect();
      await client.query(`LISTEN ${TOKEN_CHANNEL}`);
    } catch (error) {
      this.drop(client, `token notices unavailable (${(error as Error).message})`);
      return;
    }
    if (this.closed) {
      await client.end().catch(() => {});
      return;
    }
    // Whatever changed before LISTEN took effect was never heard: start empty.
    this.client = client;
    this.forget();
    this.heartbeat = setInterval(() => void this.beat(client), this.heartbeatMs);
    this.heartbeat.unref();
    await this.beat(client);
  }

  /** Proves the connection alive and the trigger present, or gives up the cache. */
  private async beat(client: pg.Client): Promise<void> {
    if (this.beating || this.client !== client) return;
    this.beating = true;
    const sentAt = performance.now();
    try {
      const { rows } = await client.query<{ live: boolean }>(TOKEN_NOTIFY_PRESENT_SQL);
      if (this.client !== client) return;
      if (rows[0]?.live) {
        this.verifiedAt = sentAt;
        this.report(true, 'tokens cached: the coordinator announces their changes');
      } else {
        this.forget();
        this.verifiedAt = Number.NEGATIVE_INFINITY;
        this.report(
          false,
          'the coordinator announces no token changes (no access_tokens_notify trigger: npm run token or build-db creates it): every request looks its token up',
        );
      }
    } catch (error) {
      this.drop(client, `token notices lost (${(error as Error).message})`);
    } finally {
      this.beating = false;
    }
  }

  /** Tells `onState` when caching starts or stops, once per change. */
  private report(caching: boolean, reason: string): void {
    if (this.reported === caching) return;
    this.reported = caching;
    this.options.onState?.(caching, reason);
  }

  /** Empties the cache; no lookup running now will be cached. */
  private forget(): void {
    this.changes++;
    this.entries.clear();
  }

  private drop(client: pg.Client, reason: string): void {
    if (this.client === client) {
      this.client = null;
      clearInterval(this.heartbeat);
    }
    this.forget();
    this.verifiedAt = Number.NEGATIVE_INFINITY;
    client.end().catch(() => {});
    this.report(false, `${reason}: every request looks its token up until it is back`);
    if (this.closed || this.reconnect) return;
    this.reconnect = setTimeout(() => {
      this.reconnect = undefined;
      void this.connect();
    }, 1000);
    this.reconnect.unref();
  }
}
