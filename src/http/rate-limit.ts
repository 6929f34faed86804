import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { hashToken, isWellFormedToken } from '../tokens/token.ts';
import { authorizationSchemeParam } from './fastapi/bearer.ts';
import { sendDetail } from './fastapi/detail.ts';

export interface RateLimitOptions {
  /** Requests per key per window; 0 turns rate limiting off. */
  max: number;
  windowMs: number;
  /** Failed authentications (401) per client address per window. */
  authFailures: number;
}

/** Probes are never limited: an orchestrator must always see the truth. */
const UNLIMITED_ROUTES = new Set(['/healthz', '/readyz']);

/**
 * The bucket of a request: the bearer token as authentication reads it (hashed, so the
 * limiter's memory never holds a credential), else the client address.
 */
function rateLimitKey(request: FastifyRequest): string {
  const [scheme, credentials] = authorizationSchemeParam(request.headers.authorization);
  if (scheme.toLowerCase() === 'bearer' && credentials) {
    return `token:${hashToken(credentials).slice(0, 32)}`;
  }
  return `ip:${request.ip}`;
}

/**
 * A request the failure budget applies to: it presents a credential to a route that
 * authenticates (404 and 405 are decided before authentication; public routes read none).
 */
function presentsCredential(request: FastifyRequest): boolean {
  return (
    request.headers.authorization !== undefined &&
    !request.is404 &&
    request.routeOptions.config.public !== true
  );
}

/** A bearer token of the right shape and checksum: only the store can tell whether it is live. */
function presentsWellFormedToken(request: FastifyRequest): boolean {
  const [scheme, credentials] = authorizationSchemeParam(request.headers.authorization);
  return scheme.toLowerCase() === 'bearer' && isWellFormedToken(credentials);
}

function tooManyRequests(reply: FastifyReply, retryAfterSeconds: number) {
  reply.header('retry-after', String(Math.max(1, retryAfterSeconds)));
  return sendDetail(reply, 429);
}

/**
 * Rate limits with @fastify/rate-limit's store, checked in one early `onRequest` hook so a
 * limited request never reaches authentication or the store:
 * - RATE_LIMIT_MAX requests per token (per address without a token) per window, with the
 *   `RateLimit-Limit`, `RateLimit-Remaining` and `RateLimit-Reset` headers on every response;
 * - RATE_LIMIT_AUTH_FAILURES failed authentications (401 with a credential presented) per
 *   address per window. Past that budget the address is not locked out, since one address may
 *   be a NAT or proxy in front of many honest clients: a well-formed token still goes to
 *   authentication and is served when it is live, and answers 429 there when it fails; any
 *   other credential (malformed, wrong checksum, another scheme) gets 429 here, before any
 *   store lookup. A request with no credential is no guess: it is told to authenticate (401).
 *   A forged well-formed token still costs one indexed lookup; the store's queue bound and
 *   load shedding cap those.
 * Over a limit: 429 `{"detail":"Too Many Requests"}` with `Retry-After` (seconds).
 */
export const rateLimitPlugin = fp<RateLimitOptions>(async (app: FastifyInstance, options) => {
  if (options.max <= 0) return;
  await app.register(rateLimit, {
    global: false,
    max: options.max,
    timeWindow: options.windowMs,
    keyGenerator: rateLimitKey,
  });
  const perKey = app.createRateLimit({ keyGenerator: rateLimitKey });
  const failures = app.createRateLimit({
    max: options.authFailures,
    keyGenerator: (request) => `auth-failure:${request.ip}`,
  });

  app.addHook('onRequest', async (request, reply) => {
    if (UNLIMITED_ROUTES.has(request.routeOptions.url ?? '')) return;
    if (presentsCredential(request)) {
      const failed = await failures(request, { increment: false });
      if (!failed.isAllowed && failed.remaining === 0) {
        if (!presentsWellFormedToken(request)) return tooManyRequests(reply, failed.ttlInSeconds);
        // Authentication decides: served when live, 429 instead of 401 when not.
        request.authFailureRetryAfter = failed.ttlInSeconds;
      }
    }
    const limit = await perKey(request);
    if (limit.isAllowed) return;
    reply.header('ratelimit-limit', String(limit.max));
    reply.header('ratelimit-remaining', String(limit.remaining));
    reply.header('ratelimit-reset', String(limit.ttlInSeconds));
    if (limit.isExceeded) return tooManyRequests(reply, limit.ttlInSeconds);
  });

  app.addHook('onResponse', async (request, reply) => {
    // Only a presented credential that failed counts: a request without one is not a guess.
    if (reply.statusCode === 401 && request.headers.authorization) await failures(request);
  });
});
