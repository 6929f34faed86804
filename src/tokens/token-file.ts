/**
 * The token store: a small DuckDB file of its own beside the analytics store (by default
 * `finance.tokens.duckdb` next to `finance.duckdb`), holding the contract's `access_tokens`
 * table and only ever `hashToken(token)`. Minting and revoking rewrite this file alone (a copy
 * renamed over it under a write lock, so a reader never sees half of a change), whatever the
 * size of the analytics store; a running server follows it (followed-tokens.ts).
 */
import { copyFile, stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import { type DuckDBConnection, listValue } from '@duckdb/node-api';
import { type OpenOptions, openDatabaseFile } from '../files/database-file.ts';
import {
  publishDatabaseFile,
  removeDatabaseFiles,
  removeStaleTemps,
  tempPathNextTo,
  withWriteLock,
} from '../files/publish.ts';
import { tokensPathFor } from './path.ts';
import {
  type RevokeResult,
  revokePrefix,
  type StoredToken,
  type TokenInfo,
  TokenStoreError,
  tokenId,
} from './store.ts';
import { generateToken, hashToken } from './token.ts';

const TABLE_DDL = `CREATE TABLE IF NOT EXISTS access_tokens (
  token_hash VARCHAR PRIMARY KEY, user_id VARCHAR NOT NULL, name VARCHAR,
  created_at TIMESTAMP NOT NULL, expires_at TIMESTAMP, revoked_at TIMESTAMP)`;

const ROWS_SQL = `SELECT token_hash, user_id, name, epoch_ms(created_at) AS created_ms,
  epoch_ms(expires_at) AS expires_ms, epoch_ms(revoked_at) AS revoked_ms
  FROM access_tokens ORDER BY created_at, token_hash`;

/** Runs `work` on the token file at `path`, opened as the catalog `tokens` whatever its name. */
async function withConnection<T>(
  path: string,
  options: OpenOptions,
  work: (conn: DuckDBConnection) => Promise<T>,
): Promise<T> {
  const file = await openDatabaseFile(path, 'tokens', options);
  try {
    await file.conn.run(`SET TimeZone = 'UTC'`);
    return await work(file.conn);
  } finally {
    file.close();
  }
}

const msOrNull = (value: unknown) => (value === null ? null : Number(value));

async function readTokens(conn: DuckDBConnection): Promise<StoredToken[]> {
  const rows = (await conn.runAndReadAll(ROWS_SQL)).getRowObjectsJson();
  return rows.map((row) => ({
    tokenHash: String(row.token_hash),
    userId: String(row.user_id),
    name: (row.name as string | null) ?? null,
    createdAtMs: Number(row.created_ms),
    expiresAtMs: msOrNull(row.expires_ms),
    revokedAtMs: msOrNull(row.revoked_ms),
  }));
}

/**
 * Every token of the store; none when the file does not exist yet. `spillBase`: where the
 * reader would spill (the server's DUCKDB_TEMP_DIRECTORY).
 */
export async function loadTokens(tokensPath: string, spillBase?: string): Promise<StoredToken[]> {
  const exists = await stat(tokensPath).then(
    (info) => info.isFile(),
    () => false,
  );
  if (!exists) return [];
  return withConnection(tokensPath, { readOnly: true, spillBase }, readTokens);
}

/** The token store's tokens; while it does not exist, those of the analytics store, if any. */
async function loadTokensOrLegacy(
  tokensPath: string,
  legacyStore: string | undefined,
): Promise<StoredToken[]> {
  const exists = await stat(tokensPath).then(
    () => true,
    () => false,
  );
  if (exists || !legacyStore) return loadTokens(tokensPath);
  return loadTokens(legacyStore).catch(() => []);
}

/**
 * Applies `change` to a copy of the token store and renames it into place, under the store's
 * write lock. The first time, the store starts with the tokens the analytics store `legacyStore`
 * holds, if any: stores built before tokens had a store of their own kept them there.
 * `publishAlso` runs right after the rename, still under the lock (build-db's own rename).
 */
async function changeTokens<T>(
  tokensPath: string,
  change: (conn: DuckDBConnection) => Promise<T>,
  legacyStore?: string,
  publishAlso?: () => Promise<void>,
): Promise<T> {
  const target = resolve(tokensPath);
  return withWriteLock(target, async () => {
    // Under the lock no other writer of this store runs: a temp copy left here is a killed one's.
    await removeStaleTemps(target);
    const copy = tempPathNextTo(target, 'tokens');
    try {
      const created = await copyFile(target, copy).then(
        () => false,
        (error: NodeJS.ErrnoException) => {
          if (error.code !== 'ENOENT') throw error;
          return true;
        },
      );
      const result = await withConnection(copy, {}, async (conn) => {
        await conn.run(TABLE_DDL);
        if (created && legacyStore) await adoptLegacyTokens(conn, legacyStore);
        const outcome = await change(conn);
        await conn.run('CHECKPOINT tokens');
        return outcome;
      });
      await publishDatabaseFile(copy, target);
      await publishAlso?.();
      return result;
    } finally {
      await removeDatabaseFiles(copy);
    }
  });
}

/** Copies the tokens an analytics store of an earlier build holds, when it has any. */
async function adoptLegacyTokens(conn: DuckDBConnection, legacyStore: string): Promise<void> {
  const tokens = await loadTokens(legacyStore).catch(() => []);
  for (const token of tokens) {
    await conn.run(
      `INSERT INTO access_tokens VALUES ($1, $2, $3, make_timestamp($4::BIGINT * 1000),
         CASE WHEN $5::BIGINT IS NULL THEN NULL ELSE make_timestamp($5::BIGINT * 1000) END,
         CASE WHEN $6::BIGINT IS NULL THEN NULL ELSE make_timestamp($6::BIGINT * 1000) END)
       ON CONFLICT DO NOTHING`,
      [
        token.tokenHash,
        token.userId,
        token.name,
        token.createdAtMs,
        token.expiresAtMs,
        token.revokedAtMs,
      ],
    );
  }
}

const TIMESTAMP = (param: string) => `CAST(CAST(${param} AS TIMESTAMPTZ) AS TIMESTAMP)`;

/** Asks the analytics store (read-only) whether the user exists. */
async function assertUserExists(databasePath: string, userId: string): Promise<void> {
  const path = resolve(databasePath);
  const exists = await stat(path).then(
    (info) => info.isFile(),
    () => false,
  );
  if (!exists) {
    throw new TokenStoreError(`store not found: ${path} (build it with npm run build-db)`);
  }
  const found = await withConnection(path, { readOnly: true }, async (conn) => {
    const reader = await conn.runAndReadAll('SELECT 1 FROM users WHERE id = $1', [userId]);
    return reader.currentRowCount > 0;
  });
  if (!found) throw new TokenStoreError(`unknown user '${userId}'`);
}

export interface MintOptions {
  /** The analytics store: the user must exist there. */
  databasePath: string;
  /** The token store; default: beside the analytics store. */
  tokensPath?: string;
  userId: string;
  name?: string | null;
  expiresAt?: Date | null;
}

/** Creates a token for an existing user and returns it; only its hash is stored. */
export async function mintToken(options: MintOptions): Promise<string> {
  await assertUserExists(options.databasePath, options.userId);
  const token = generateToken();
  await changeTokens(
    options.tokensPath ?? tokensPathFor(options.databasePath),
    (conn) =>
      conn.run(
        `INSERT INTO access_tokens VALUES ($1, $2, $3, ${TIMESTAMP('$4')}, ${TIMESTAMP('$5')}, NULL)`,
        [
          hashToken(token),
          options.userId,
          options.name ?? null,
          new Date().toISOString(),
          options.expiresAt?.toISOString() ?? null,
        ],
      ),
    options.databasePath,
  );
  return token;
}

/** Sets `revoked_at` on the one token matching; revoking twice keeps the first time. */
export async function revokeToken(options: {
  tokensPath: string;
  idOrToken: string;
  /** The analytics store, whose tokens seed a token store that does not exist yet. */
  databasePath?: string;
}): Promise<RevokeResult> {
  const prefix = revokePrefix(options.idOrToken);
  const matches = (await loadTokensOrLegacy(options.tokensPath, options.databasePath)).filter(
    (token) => token.tokenHash.startsWith(prefix),
  );
  const [match] = matches;
  if (!match) throw new TokenStoreError(`no token matches '${options.idOrToken}'`);
  if (matches.length > 1) {
    throw new TokenStoreError(
      `${matches.length} tokens match '${options.idOrToken}'; give more characters of the id`,
    );
  }
  const result = {
    id: tokenId(match.tokenHash),
    userId: match.userId,
    alreadyRevoked: match.revokedAtMs !== null,
  };
  if (!result.alreadyRevoked) {
    await changeTokens(
      options.tokensPath,
      (conn) =>
        conn.run(
          `UPDATE access_tokens SET revoked_at = ${TIMESTAMP('$1')}
           WHERE token_hash = $2 AND revoked_at IS NULL`,
          [new Date().toISOString(), match.tokenHash],
        ),
      options.databasePath,
    );
  }
  return result;
}

const isoOrNull = (ms: number | null) =>
  ms === null ? null : new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');

/** A user's tokens, oldest first, without their hashes. Timestamps are UTC ISO 8601. */
export async function listTokens(options: {
  databasePath: string;
  tokensPath?: string;
  userId: string;
}): Promise<TokenInfo[]> {
  await assertUserExists(options.databasePath, options.userId);
  const tokensPath = options.tokensPath ?? tokensPathFor(options.databasePath);
  return (await loadTokensOrLegacy(tokensPath, options.databasePath))
    .filter((token) => token.userId === options.userId)
    .map((token) => ({
      id: tokenId(token.tokenHash),
      name: token.name,
      createdAt: isoOrNull(token.createdAtMs) as string,
      expiresAt: isoOrNull(token.expiresAtMs),
      revokedAt: isoOrNull(token.revokedAtMs),
    }));
}

/** What a build or a change set does to the token store. */
export interface TokenChanges {
  /**
   * A database file whose `access_tokens` table (already validated) is merged in: new hashes
   * are added; a known hash keeps its row, except that a revocation in the import is applied.
   */
  importFrom?: string;
  /** Hashes to revoke (a change set's `access_tokens.deleted.csv`): their rows stay, revoked. */
  revoke?: readonly string[];
}

/**
 * Publishes a build or a change set that changes tokens: `changes` are written into a copy of
 * the token store, which is renamed into place, then `publishStore` (build-db's rename of the
 * analytics store) runs, still holding the token store's lock. Everything that can fail (the
 * analytics store's copy is complete before this is called) comes before the first rename, so a
 * failure leaves both stores as they were. The token store goes first: a process killed between
 * the two renames leaves the tokens changed (a revocation in force) and the data not, and running
 * the same build or change set again completes it; the other way round, a token the change set
 * revokes would keep working. Returns how many tokens were added and revoked.
 */
export async function publishWithTokens(
  tokensPath: string,
  changes: TokenChanges,
  publishStore: () => Promise<void>,
): Promise<{ added: number; revoked: number }> {
  const count = async (conn: DuckDBConnection) =>
    Number(
      (await conn.runAndReadAll('SELECT count(*) AS n FROM access_tokens')).getRowObjectsJson()[0]
        ?.n,
    );
  return changeTokens(
    tokensPath,
    async (conn) => {
      let added = 0;
      if (changes.importFrom !== undefined) {
        await conn.run(
          `ATTACH '${changes.importFrom.replaceAll("'", "''")}' AS source (READ_ONLY)`,
        );
        try {
          const before = await count(conn);
          await conn.run(
            `UPDATE access_tokens t SET revoked_at = s.revoked_at
             FROM source.access_tokens s
             WHERE t.token_hash = s.token_hash AND t.revoked_at IS NULL AND s.revoked_at IS NOT NULL`,
          );
          await conn.run(
            `INSERT INTO access_tokens
             SELECT token_hash, user_id, name, created_at, expires_at, revoked_at
             FROM source.access_tokens
             WHERE token_hash NOT IN (SELECT token_hash FROM access_tokens)`,
          );
          added = (await count(conn)) - before;
        } finally {
          await conn.run('DETACH source');
        }
      }
      let revoked = 0;
      if (changes.revoke && changes.revoke.length > 0) {
        const reader = await conn.runAndReadAll(
          `UPDATE access_tokens SET revoked_at = CAST(now() AS TIMESTAMP)
           WHERE revoked_at IS NULL AND list_contains($1::VARCHAR[], token_hash)`,
          [listValue([...changes.revoke])],
        );
        revoked = Number(reader.getRowObjectsJson()[0]?.Count ?? reader.currentRowCount);
      }
      return { added, revoked };
    },
    undefined,
    publishStore,
  );
}

/**
 * Creates the token store from the tokens an analytics store of an earlier build holds (they
 * used to live in its `access_tokens` table), unless the token store exists already. Run before
 * that analytics store is replaced, so an upgrade locks no client out. Returns how many.
 */
export async function adoptLegacyTokenStore(
  tokensPath: string,
  legacyStore: string,
): Promise<number> {
  const exists = await stat(tokensPath).then(
    () => true,
    () => false,
  );
  if (exists) return 0;
  const legacy = await loadTokens(legacyStore).catch(() => []);
  if (legacy.length === 0) return 0;
  await changeTokens(tokensPath, async () => {}, legacyStore);
  return legacy.length;
}
