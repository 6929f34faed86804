/**
 * Personal access tokens in the store: mint, revoke, list. The store only ever holds
 * `hashToken(token)`. A running server keeps the store open read-only and stores are
 * published by atomic swap, so changes are made on a copy that then replaces the file
 * (under the same writer lock as build-db).
 */
import { copyFile, stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import { type DuckDBConnection, DuckDBInstance } from '@duckdb/node-api';
import {
  newGeneration,
  publishDatabaseFile,
  removeDatabaseFiles,
  tempPathNextTo,
  withWriteLock,
} from '../build/publish.ts';
import { STORE_META_TABLE } from '../build/schema.ts';
import { generateToken, hashToken, isWellFormedToken, TOKEN_PREFIX } from './token.ts';

/** Shown instead of the hash: enough to tell tokens apart, useless to an attacker. */
export const TOKEN_ID_LENGTH = 12;
/** A shorter prefix would too often match several tokens. */
export const MIN_REVOKE_PREFIX = 8;

/** A refusal the caller can act on (unknown user, no matching token, missing store). */
export class TokenStoreError extends Error {
  override readonly name = 'TokenStoreError';
}

export interface MintOptions {
  databasePath: string;
  userId: string;
  name?: string | null;
  expiresAt?: Date | null;
}

export interface RevokeOptions {
  databasePath: string;
  /** A whole token, or at least MIN_REVOKE_PREFIX hex characters of its hash. */
  idOrToken: string;
}

export interface RevokeResult {
  id: string;
  userId: string;
  alreadyRevoked: boolean;
}

export interface TokenInfo {
  id: string;
  name: string | null;
  createdAt: string;
  expiresAt: string | null;
  revokedAt: string | null;
}

export function tokenId(tokenHash: string): string {
  return tokenHash.slice(0, TOKEN_ID_LENGTH);
}

async function assertStoreExists(databasePath: string): Promise<string> {
  const path = resolve(databasePath);
  const info = await stat(path).catch(() => undefined);
  if (!info?.isFile()) {
    throw new TokenStoreError(`store not found: ${path} (build it with npm run build-db)`);
  }
  return path;
}

async function withConnection<T>(
  path: string,
  options: Record<string, string>,
  work: (conn: DuckDBConnection) => Promise<T>,
): Promise<T> {
  const instance = await DuckDBInstance.create(path, options);
  const conn = await instance.connect();
  try {
    await conn.run(`SET TimeZone = 'UTC'`);
    return await work(conn);
  } finally {
    conn.closeSync();
    instance.closeSync();
  }
}

async function readRows(
  conn: DuckDBConnection,
  sql: string,
  params: string[],
): Promise<Record<string, unknown>[]> {
  return (await conn.runAndReadAll(sql, params)).getRowObjectsJson();
}

/** Applies `change` to a copy of the store and swaps it in; the store gets a new generation. */
async function changeStore<T>(
  databasePath: string,
  change: (conn: DuckDBConnection) => Promise<T>,
): Promise<T> {
  const target = await assertStoreExists(databasePath);
  return withWriteLock(target, async () => {
    const copy = tempPathNextTo(target, 'tokens');
    try {
      await copyFile(target, copy);
      const result = await withConnection(copy, {}, async (conn) => {
        const outcome = await change(conn);
        await conn.run(`UPDATE ${STORE_META_TABLE} SET generation = $1`, [newGeneration()]);
        await conn.run('CHECKPOINT');
        return outcome;
      });
      await publishDatabaseFile(copy, target);
      return result;
    } finally {
      await removeDatabaseFiles(copy);
    }
  });
}

async function assertUserExists(conn: DuckDBConnection, userId: string): Promise<void> {
  const rows = await readRows(conn, 'SELECT 1 FROM users WHERE id = $1', [userId]);
  if (rows.length === 0) throw new TokenStoreError(`unknown user '${userId}'`);
}

/** Creates a token for an existing user and returns it; only its hash is stored. */
export async function mintToken(options: MintOptions): Promise<string> {
  const token = generateToken();
  await changeStore(options.databasePath, async (conn) => {
    await assertUserExists(conn, options.userId);
    await conn.run(
      `INSERT INTO access_tokens (token_hash, user_id, name, created_at, expires_at, revoked_at)
       VALUES ($1, $2, $3, CAST(CAST($4 AS TIMESTAMPTZ) AS TIMESTAMP), CAST(CAST($5 AS TIMESTAMPTZ) AS TIMESTAMP), NULL)`,
      [
        hashToken(token),
        options.userId,
        options.name ?? null,
        new Date().toISOString(),
        options.expiresAt?.toISOString() ?? null,
      ],
    );
  });
  return token;
}

function revokeKey(idOrToken: string): { prefix: string } {
  if (idOrToken.startsWith(TOKEN_PREFIX)) {
    if (!isWellFormedToken(idOrToken)) {
      throw new TokenStoreError('not a valid token (wrong length or checksum)');
    }
    return { prefix: hashToken(idOrToken) };
  }
  const prefix = idOrToken.toLowerCase();
  if (!new RegExp(`^[0-9a-f]{${MIN_REVOKE_PREFIX},64}$`).test(prefix)) {
    throw new TokenStoreError(
      `give a whole token or at least ${MIN_REVOKE_PREFIX} hex characters of its id, got '${idOrToken}'`,
    );
  }
  return { prefix };
}

/** Sets `revoked_at` on the one token matching; revoking twice keeps the first time. */
export async function revokeToken(options: RevokeOptions): Promise<RevokeResult> {
  const { prefix } = revokeKey(options.idOrToken);
  return changeStore(options.databasePath, async (conn) => {
    const rows = await readRows(
      conn,
      'SELECT token_hash, user_id, revoked_at FROM access_tokens WHERE starts_with(token_hash, $1)',
      [prefix],
    );
    const [match] = rows;
    if (!match) throw new TokenStoreError(`no token matches '${options.idOrToken}'`);
    if (rows.length > 1) {
      throw new TokenStoreError(
        `${rows.length} tokens match '${options.idOrToken}'; give more characters of the id`,
      );
    }
    const tokenHash = String(match.token_hash);
    if (match.revoked_at === null) {
      await conn.run(
        'UPDATE access_tokens SET revoked_at = CAST(CAST($1 AS TIMESTAMPTZ) AS TIMESTAMP) WHERE token_hash = $2',
        [new Date().toISOString(), tokenHash],
      );
    }
    return {
      id: tokenId(tokenHash),
      userId: String(match.user_id),
      alreadyRevoked: match.revoked_at !== null,
    };
  });
}

/** A user's tokens, oldest first, without their hashes. Timestamps are UTC ISO 8601. */
export async function listTokens(options: {
  databasePath: string;
  userId: string;
}): Promise<TokenInfo[]> {
  const path = await assertStoreExists(options.databasePath);
  return withConnection(path, { access_mode: 'READ_ONLY' }, async (conn) => {
    await assertUserExists(conn, options.userId);
    const iso = (column: string) => `strftime(${column}, '%Y-%m-%dT%H:%M:%SZ')`;
    const rows = await readRows(
      conn,
      `SELECT left(token_hash, ${TOKEN_ID_LENGTH}) AS id, name, ${iso('created_at')} AS created_at,
              ${iso('expires_at')} AS expires_at, ${iso('revoked_at')} AS revoked_at
       FROM access_tokens WHERE user_id = $1 ORDER BY created_at, token_hash`,
      [options.userId],
    );
    return rows.map((row) => ({
      id: String(row.id),
      name: (row.name as string | null) ?? null,
      createdAt: String(row.created_at),
      expiresAt: (row.expires_at as string | null) ?? null,
      revokedAt: (row.revoked_at as string | null) ?? null,
    }));
  });
}
