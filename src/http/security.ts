import type { FastifyInstance, FastifyReply } from 'fastify';
import fp from 'fastify-plugin';
import { sendDetail } from './fastapi/detail.ts';

export interface SecurityOptions {
  /** Requests with a longer URL (path and query) answer 414. */
  maxUrlLength: number;
  /** `Strict-Transport-Security` max-age on HTTPS responses; 0 sends none. */
  hstsMaxAge: number;
}

/** Headers every response carries, including the ones written before routing. */
export const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'cache-control': 'no-store',
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'x-frame-options': 'DENY',
  'cross-origin-resource-policy': 'same-origin',
};

/** A JSON API renders nothing: no script, no frame, no fetch from a page. */
const JSON_CSP = "default-src 'none'; frame-ancestors 'none'";

export function applySecurityHeaders(reply: FastifyReply): void {
  reply.headers(SECURITY_HEADERS);
}

/**
 * Response headers fit for a JSON API holding personal data: never cached, never sniffed,
 * never framed; HSTS when the request came over HTTPS (natively, or through a trusted proxy
 * that says so). No CORS headers at all: tokens are not meant for browsers.
 */
export const securityPlugin = fp<SecurityOptions>(async (app: FastifyInstance, options) => {
  const hsts =
    options.hstsMaxAge > 0 ? `max-age=${options.hstsMaxAge}; includeSubDomains` : undefined;
  app.addHook('onRequest', async (request, reply) => {
    applySecurityHeaders(reply);
    if (hsts && request.protocol === 'https') reply.header('strict-transport-security', hsts);
    if (request.url.length > options.maxUrlLength) {
      return sendDetail(reply, 414);
    }
  });
  app.addHook('onSend', async (_request, reply, payload) => {
    const type = reply.getHeader('content-type');
    if (typeof type === 'string' && type.startsWith('application/json')) {
      reply.header('content-security-policy', JSON_CSP);
    }
    return payload;
  });
});
