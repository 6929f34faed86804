import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { hashToken, isWellFormedToken } from '../tokens/token.ts';
import { authorizationSchemeParam } from './fastapi/bearer.ts';
import { sendDetail } from './fastapi/detail.ts';

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

const presented = new WeakMap<FastifyRequest, string | null>();

/**
 * The hash of the request's bearer token when it is well formed (shape and checksum), else
 * null. Worked out once per request: admission (its client key) and authentication both ask.
 */
export function presentedTokenHash(request: FastifyRequest): string | null {
  let tokenHash = presented.get(request);
  if (tokenHash === undefined) {
    const [scheme, credentials] = authorizationSchemeParam(request.headers.authorization);
    tokenHash =
      scheme.toLowerCase() === 'bearer' && isWellFormedToken(credentials)
        ? hashToken(credentials)
        : null;
    presented.set(request, tokenHash);
  }
  return tokenHash;
}

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
 * shape and checksum first (a malformed token never reaches the store), then the hash lookup
 * (the engine answers from its token store: a minted or revoked token counts within a second).
 * Expiry is judged against the real clock, never the pinned TODAY. Runs on `onRequest`,
 * so before validation. Routes opt out with `config: { public: true }`.
 */
export const authPlugin = fp(async (app: FastifyInstance) => {
  app.decorateRequest('userId', '');
  app.decorateRequest('authFailureRetryAfter', null);

  app.addHook('onRequest', async (request: FastifyRequest, reply: FastifyReply) => {
    if (request.routeOptions.config.public || request.is404) return;
    const authorization = request.headers.authorization;
    const [scheme, credentials] = authorizationSchemeParam(authorization);
    if (!authorization || !scheme || !credentials || scheme.toLowerCase() !== 'bearer') {
      return notAuthenticated(reply);
    }
    const tokenHash = presentedTokenHash(request);
    if (tokenHash === null) return invalidCredentials(request, reply);
    const owner = await request.store.tokenOwner(tokenHash);
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
