import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { sendDetail } from '../http/errors.ts';
import { pyStrip } from '../http/validation/pydantic.ts';
import { hashToken, isWellFormedToken } from './token.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** The user who owns the presented token; set by the auth hook on every protected route. */
    userId: string;
  }
}

const TOKEN_OWNER_SQL = `
  SELECT t.user_id
  FROM access_tokens t JOIN users u ON u.id = t.user_id
  WHERE t.token_hash = $1
    AND t.revoked_at IS NULL
    AND (t.expires_at IS NULL OR t.expires_at > $2::TIMESTAMP)
  LIMIT 1`;

function notAuthenticated(reply: FastifyReply) {
  reply.header('www-authenticate', 'Bearer');
  return sendDetail(reply, 401, 'Not authenticated');
}

function invalidCredentials(reply: FastifyReply) {
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
  app.addHook('onRequest', async (request: FastifyRequest, reply: FastifyReply) => {
    if (request.routeOptions.config.public || request.is404) return;
    const authorization = request.headers.authorization;
    const [scheme, credentials] = authorizationSchemeParam(authorization);
    if (!authorization || !scheme || !credentials || scheme.toLowerCase() !== 'bearer') {
      return notAuthenticated(reply);
    }
    if (!isWellFormedToken(credentials)) return invalidCredentials(reply);
    const rows = await app.store.query<{ user_id: string }>(TOKEN_OWNER_SQL, [
      hashToken(credentials),
      new Date().toISOString().replace('T', ' ').replace('Z', ''),
    ]);
    const owner = rows[0];
    if (!owner) return invalidCredentials(reply);
    request.userId = owner.user_id;
  });
});

/**
 * FastAPI's `get_authorization_scheme_param`: `value.partition(" ")`, then the credentials
 * `.strip()`ped (Python's whitespace set). So `Bearer  <token>` and `Bearer \t<token>` carry the
 * token, `Bearer\t<token>` has no space and so no credentials, and `Bearer <token> x` keeps
 * the inner space (a malformed token).
 */
export function authorizationSchemeParam(value: string | undefined): [string, string] {
  if (!value) return ['', ''];
  const at = value.indexOf(' ');
  return at < 0 ? [value, ''] : [value.slice(0, at), pyStrip(value.slice(at + 1))];
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** No authentication (health probes, API docs). */
    public?: boolean;
  }
}
