/**
 * The token store of a cluster: `public.access_tokens` on the coordinator. Minting and revoking
 * are one statement each and count from the next request of every replica (no file to follow).
 */
import pg from 'pg';
import {
  type RevokeResult,
  revokePrefix,
  type TokenInfo,
  TokenStoreError,
  tokenId,
} from '../../tokens/store.ts';
import { generateToken, hashToken } from '../../tokens/token.ts';
import { COORDINATOR_META_DDL, CURRENT_GENERATION_SQL } from './meta.ts';

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
