/**
 * What both token stores (the DuckDB token file, the cluster's token table) hold and answer,
 * and the rules they share: a token is shown by its id, revoked by its id or itself.
 */
import { hashToken, isWellFormedToken, TOKEN_PREFIX } from './token.ts';

/** Shown instead of the hash: enough to tell tokens apart, useless to an attacker. */
export const TOKEN_ID_LENGTH = 12;
/** A shorter prefix would too often match several tokens. */
export const MIN_REVOKE_PREFIX = 8;

/** A refusal the caller can act on (unknown user, no matching token, missing store). */
export class TokenStoreError extends Error {
  override readonly name = 'TokenStoreError';
}

/** One row of the token store, timestamps as epoch milliseconds. */
export interface StoredToken {
  tokenHash: string;
  userId: string;
  name: string | null;
  createdAtMs: number;
  expiresAtMs: number | null;
  revokedAtMs: number | null;
}

export interface TokenInfo {
  id: string;
  name: string | null;
  createdAt: string;
  expiresAt: string | null;
  revokedAt: string | null;
}

export interface RevokeResult {
  id: string;
  userId: string;
  alreadyRevoked: boolean;
}

export function tokenId(tokenHash: string): string {
  return tokenHash.slice(0, TOKEN_ID_LENGTH);
}

export function revokePrefix(idOrToken: string): string {
  if (idOrToken.startsWith(TOKEN_PREFIX)) {
    if (!isWellFormedToken(idOrToken)) {
      throw new TokenStoreError('not a valid token (wrong length or checksum)');
    }
    return hashToken(idOrToken);
  }
  const prefix = idOrToken.toLowerCase();
  if (!new RegExp(`^[0-9a-f]{${MIN_REVOKE_PREFIX},64}$`).test(prefix)) {
    throw new TokenStoreError(
      `give a whole token or at least ${MIN_REVOKE_PREFIX} hex characters of its id, got '${idOrToken}'`,
    );
  }
  return prefix;
}
