import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { authorizationSchemeParam } from '../http/fastapi/bearer.ts';
import { sendDetail } from '../http/fastapi/detail.ts';
import type { ReadPort, TokenOwner } from '../port/read-port.ts';
import { hashToken, isWellFormedToken } from '../tokens/token.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** The user who owns the presented token; set by the auth hook on every protected route. */
    userId: string;
    /**
     * Set by the rate limiter (src/http/rate-limit.ts) when the client's address is over its
     * budget of failed authentications: the seconds until that budget resets. A presented
     * token that fails then answers 429 instead of 401; one that authenticates is served.
     */
    authFailureRetryAfter: number | null;
  }
}

/**
 * Owners of tokens seen lately, by store generation and token hash. Tokens are minted and
 * revoked only by publishing a new store, so an answer holds for its generation; expiry is
 * judged on every request. Only found tokens are kept: well-formed unknown ones are cheap to
 * forge and would crowd the cache out.
 */
class TokenOwnerCache {
  private readonly owners = new Map<string, TokenOwner>();
  constructor(private readonly capacity: number) {}

  get(key: string): TokenOwner | undefined {
    return this.owners.get(key);
  }

  set(key: string, owner: TokenOwner): void {
    if (this.owners.size >= this.capacity) {
      // Oldest first: a Map iterates in insertion order.
      const oldest = this.owners.keys().next().value;
      if (oldest !== undefined) this.owners.delete(oldest);
    }
    this.owners.set(key, owner);
  }
}

const TOKEN_CACHE_CAPACITY = 10_000;

function notAuthenticated(reply: FastifyReply) {
  reply.header('www-authenticate', 'Bearer');
  return sendDetail(reply, 401, 'Not authenticated');
}

function invalidCredentials(request: FastifyRequest, reply: FastifyReply) {
  if (request.authFailureRetryAfter !== null) {
    reply.header('retry-after', String(Math.max(1, request.authFailureRetryAfter)));
    return sendDetail(reply, 429);
  }
  reply.header('www-authenticate', 'Bearer error="invalid_token"');
  return sendDetail(reply, 401, 'Invalid authentication credentials');
}

/**
 * Bearer authentication as FastAPI's HTTPBearer (0.122+) does it, then the token check:
 * shape and checksum first (a malformed token never reaches the store), then the hash lookup.
 * Expiry is judged against the real clock, never the pinned TODAY. Runs on `onRequest`,
 * so before validation. Routes opt out with `config: { public: true }`.
 */
export const authPlugin = fp(async (app: FastifyInstance) => {
  app.decorateRequest('userId', '');
  app.decorateRequest('authFailureRetryAfter', null);
  const cache = new TokenOwnerCache(TOKEN_CACHE_CAPACITY);

  async function tokenOwner(store: ReadPort, token: string): Promise<TokenOwner | undefined> {
    const tokenHash = hashToken(token);
    const key = `${store.generation}:${tokenHash}`;
    const cached = cache.get(key);
    if (cached) return cached;
    const owner = await store.tokenOwner(tokenHash);
    if (!owner) return undefined;
    cache.set(key, owner);
    return owner;
  }

  app.addHook('onRequest', async (request: FastifyRequest, reply: FastifyReply) => {
    if (request.routeOptions.config.public || request.is404) return;
    const authorization = request.headers.authorization;
    const [scheme, credentials] = authorizationSchemeParam(authorization);
    if (!authorization || !scheme || !credentials || scheme.toLowerCase() !== 'bearer') {
      return notAuthenticated(reply);
    }
    if (!isWellFormedToken(credentials)) return invalidCredentials(request, reply);
    const owner = await tokenOwner(request.store, credentials);
    if (!owner || (owner.expiresAtMs !== null && owner.expiresAtMs <= Date.now())) {
      return invalidCredentials(request, reply);
    }
    request.userId = owner.userId;
  });
});

declare module 'fastify' {
  interface FastifyContextConfig {
    /** No authentication (health probes, API docs). */
    public?: boolean;
  }
}
