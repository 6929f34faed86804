/**
 * Conditional GETs for authenticated answers: a weak `ETag` that depends only on what the
 * answer depends on (the store's generation, "today", the user, the request's path and query,
 * and the format `Accept` selects where a route negotiates one), never on the body, so the spending body's per-request `request_id` and
 * `created_at` do not defeat it and a matching `If-None-Match` answers 304 before any query.
 * `Cache-Control: private, no-cache`: a client may keep the answer and must revalidate it;
 * no shared cache may keep a user's data. Everything else stays `no-store`. Every answer to an
 * authenticated request also names its generation (`X-Store-Generation`), so a client can tell
 * which data it saw and that an ETag changed with it.
 */
import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';

export const REVALIDATE = 'private, no-cache';

/** The response header naming the store generation an authenticated answer was computed from. */
export const GENERATION_HEADER = 'x-store-generation';

declare module 'fastify' {
  interface FastifyRequest {
    /** The ETag of this request's answer; set once authentication knows the user. */
    etag: string | null;
  }
  interface FastifyContextConfig {
    /**
     * A route whose answer's format is negotiated from `Accept`: the name of the
     * representation a request gets (read before validation, from the raw request). It is part
     * of the ETag, and the route's answers carry `Vary: Accept`.
     */
    representation?: (request: FastifyRequest) => string;
    /** An answer never kept nor revalidated (an event stream): no ETag, never a 304. */
    uncached?: boolean;
  }
}

function etagOf(request: FastifyRequest, today: string, representation: string | null): string {
  const digest = createHash('sha256')
    .update(`${request.store.generation}\0${today}\0${request.userId}\0${request.url}`)
    .update(representation === null ? '' : `\0${representation}`)
    .digest('base64url')
    .slice(0, 27);
  return `W/"${digest}"`;
}

/** RFC 9110 13.1.2: weak comparison against a list of entity tags, or `*`. */
function matches(ifNoneMatch: string, etag: string): boolean {
  const opaque = etag.slice(2);
  return ifNoneMatch
    .split(',')
    .map((tag) => tag.trim())
    .some((tag) => tag === '*' || tag === etag || tag === opaque || tag === `W/${opaque}`);
}

/** Marks an answer of 200 as revalidatable; routes that stream their body call it themselves. */
export function markRevalidatable(request: FastifyRequest, reply: FastifyReply): void {
  if (request.etag && reply.statusCode === 200) {
    reply.header('etag', request.etag).header('cache-control', REVALIDATE);
  }
}

/** Register after authentication: its onRequest hook needs the token's user. */
export const revalidationPlugin = fp(async (app: FastifyInstance) => {
  app.decorateRequest('etag', null);
  app.addHook('onRequest', async (request, reply) => {
    if (!request.userId || reply.sent) return;
    // Every authenticated answer names the data it was computed from.
    reply.header(GENERATION_HEADER, request.store.generation);
    if (request.method !== 'GET' || request.routeOptions.config.uncached) return;
    const representation = request.routeOptions.config.representation?.(request) ?? null;
    // A 304 too: it stands for the 200 the same Accept would get.
    if (representation !== null) reply.header('vary', 'Accept');
    const etag = etagOf(request, app.clock.today(), representation);
    request.etag = etag;
    const ifNoneMatch = request.headers['if-none-match'];
    if (ifNoneMatch && matches(ifNoneMatch, etag)) {
      reply.header('etag', etag).header('cache-control', REVALIDATE);
      return reply.code(304).send();
    }
  });
  // Before serialization, so every later onSend hook (compression) sees the final headers.
  app.addHook('preSerialization', async (request, reply, payload) => {
    markRevalidatable(request, reply);
    return payload;
  });
});
