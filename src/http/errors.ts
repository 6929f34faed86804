import { randomUUID } from 'node:crypto';
import { type IncomingMessage, ServerResponse, STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { StoreUnavailableError } from '../port/read-port.ts';
import { sendDetail } from './fastapi/detail.ts';
import { isRequestValidationError } from './fastapi/index.ts';
import { FaultLog } from './fault-log.ts';
import { applySecurityHeaders, SECURITY_HEADERS } from './security.ts';

/** When to try again after the store (or the shard holding the user) could not answer. */
export const STORE_RETRY_AFTER_SECONDS = 5;

/**
 * The 410's detail: only the sync feed answers 410, for a cursor the store's history no longer
 * leads to (older than the change log it keeps, a full rebuild, a restore); it says what the
 * client does next.
 */
export const SYNC_GONE =
  'This cursor is older than the change log this store keeps, or the store was rebuilt or restored since: sync again without a cursor.';

/** When to try again after a request that arrived while the server was shutting down. */
export const SHUTDOWN_RETRY_AFTER_SECONDS = 5;

/** Errors that Fastify raises before routing (bad URL, over-long parameter) answer in our shape too. */
export function frameworkErrorHandler(
  error: FastifyError,
  request: FastifyRequest,
  reply: FastifyReply,
): void {
  // Starlette matches an undecodable path against no route: 404, not 400.
  const statusCode =
    error.code === 'FST_ERR_BAD_URL'
      ? 404
      : error.statusCode && error.statusCode < 500
        ? error.statusCode
        : 400;
  reply.header('x-request-id', request.id);
  applySecurityHeaders(reply);
  sendDetail(reply, statusCode);
}

/**
 * Errors Node's HTTP parser raises before there is a request (slow or malformed request,
 * headers over the size limit, a request line naming an HTTP version the parser does not know)
 * answer in the `{"detail": ...}` shape too, then the socket closes: 408 Request Timeout, 431
 * Request Header Fields Too Large, 505 HTTP Version Not Supported (`HTTP/1.2` to `HTTP/9.9`,
 * `HTTP/12.0`: the versions Node reads, 0.9, 1.x and 2.0, get theirs from the router's hook),
 * 400 Bad Request. There is
 * no parsed request whose x-request-id could be echoed: each answer carries a new one.
 */
export function clientErrorHandler(error: Error & { code?: string }, socket: Socket): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const statusCode =
    error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
      ? 408
      : error.code === 'HPE_HEADER_OVERFLOW'
        ? overflowInRequestLine(error)
          ? 414
          : 431
        : error.code === 'HPE_INVALID_VERSION'
          ? 505
          : 400;
  const phrase = STATUS_CODES[statusCode] ?? 'Error';
  const body = JSON.stringify({ detail: phrase });
  const headers = {
    'content-type': 'application/json; charset=utf-8',
    'content-length': String(Buffer.byteLength(body)),
    connection: 'close',
    'x-request-id': randomUUID(),
    ...SECURITY_HEADERS,
  };
  if (socket.writable) {
    const lines = Object.entries(headers).map(([name, value]) => `${name}: ${value}\r\n`);
    socket.write(`HTTP/1.1 ${statusCode} ${phrase}\r\n${lines.join('')}\r\n${body}`);
  }
  socket.destroy();
}

/** What llhttp reports with a parse error: the bytes it was given and how far it got. */
type ParseError = Error & { rawPacket?: Buffer; bytesParsed?: number };

/**
 * Whether a header overflow happened in the request line (a URL longer than the whole header
 * budget, MAX_HEADER_SIZE): the bytes parsed start with a method and hold no line end yet.
 * When the overflow falls in the middle of a packet that does not start the request (a huge
 * request trickling in), the line cannot be told apart from a header line: 431 then.
 */
function overflowInRequestLine(error: ParseError): boolean {
  const raw = error.rawPacket;
  if (!raw) return false;
  const parsed = raw.subarray(0, Math.min(raw.length, error.bytesParsed ?? raw.length));
  const start = parsed.subarray(0, 24).toString('latin1');
  return /^[A-Z]+ \S/.test(start) && !parsed.includes('\n');
}

/**
 * The error model of docs/api.md: 404 and 405 (with `Allow`) from the router, 422 from request
 * validation, 503 when the store cannot answer, 500 with no internals.
 */
export const errorsPlugin = fp(async (app: FastifyInstance) => {
  // Store faults fail many requests alike: logged once a while, without a stack (fault-log.ts).
  app.decorate('faultLog', new FaultLog());
  // Shutting down: a request still arriving on an open connection answers 503 in our shape
  // (the server option return503OnClosing is off: its body is Fastify's, not FastAPI's).
  let closing = false;
  app.addHook('preClose', async () => {
    closing = true;
  });
  app.addHook('onRequest', async (_request, reply) => {
    if (!closing) return;
    applySecurityHeaders(reply);
    reply.header('connection', 'close');
    // Another replica (or this one, restarted) will answer: try again shortly.
    reply.header('retry-after', String(SHUTDOWN_RETRY_AFTER_SECONDS));
    return sendDetail(reply, 503);
  });

  // This server speaks HTTP/1.x. Node's parser reads any `HTTP/d.d` request line; a major
  // version other than 1 (`HTTP/2.0` in a request line is no HTTP/2: that starts with a
  // preface) answers 505, then the connection closes.
  app.addHook('onRequest', async (request, reply) => {
    if (request.raw.httpVersionMajor === 1) return;
    applySecurityHeaders(reply);
    reply.header('connection', 'close');
    return sendDetail(reply, 505);
  });

  // HTTP/1.1 requires Host (RFC 9112, section 3.2: 400 without it), before routing and
  // authentication; HTTP/1.0 may omit it. Node's own check is off (server-options.ts) because
  // its 400 has no body and none of our headers.
  app.addHook('onRequest', async (request, reply) => {
    if (request.raw.httpVersion !== '1.1' || request.headers.host !== undefined) return;
    applySecurityHeaders(reply);
    reply.header('connection', 'close');
    return sendDetail(reply, 400);
  });

  // Node hands CONNECT to a 'connect' listener, not to the request handler, and drops the
  // connection when there is none. This API tunnels nothing: CONNECT goes through the router
  // like any other method, so it answers 405 with Allow on a routed path and 404 elsewhere
  // (an authority such as `host:443` is no path), then the connection closes.
  app.server.on('connect', (request: IncomingMessage, socket: Socket) => {
    socket.on('error', () => socket.destroy());
    const response = new ServerResponse(request);
    response.shouldKeepAlive = false;
    response.assignSocket(socket);
    response.on('finish', () => {
      response.detachSocket(socket);
      socket.destroySoon();
    });
    app.routing(request, response);
  });

  const routes = new RoutedPaths();
  app.addHook('onRoute', (route) => routes.add(route.url, [route.method].flat()));

  app.setNotFoundHandler((request, reply) => {
    const [path, query] = splitQuery(request.url);
    // Starlette's redirect_slashes: the other spelling of a routed path answers 307 to it.
    if (!routes.methodsOf(path) && path !== '/') {
      const other = path.endsWith('/') ? path.slice(0, -1) : `${path}/`;
      if (routes.methodsOf(other)) {
        // A relative reference (RFC 9110, 10.2.2): the client's Host is never reflected, so
        // a forged Host cannot point a redirect elsewhere.
        return reply.code(307).header('location', `${other}${query}`).send();
      }
    }
    const methods = routes.methodsOf(path);
    if (methods && !methods.has(request.method)) {
      reply.header('allow', [...methods].sort().join(', '));
      return sendDetail(reply, 405);
    }
    return sendDetail(reply, 404);
  });

  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (isRequestValidationError(error)) return sendDetail(reply, 422, error.detail);
    if (error instanceof StoreUnavailableError) {
      app.faultLog.warn(request.log, 'store unavailable', error);
      return sendDetail(reply.header('retry-after', String(STORE_RETRY_AFTER_SECONDS)), 503);
    }
    const statusCode = error.statusCode ?? 500;
    if ((statusCode >= 400 && statusCode < 500) || statusCode === 503) {
      return sendDetail(reply, statusCode);
    }
    request.log.error({ err: error }, 'unhandled error');
    return sendDetail(reply, 500);
  });
});

declare module 'fastify' {
  interface FastifyInstance {
    /** Where expected faults are logged, bounded (fault-log.ts). */
    faultLog: FaultLog;
  }
}

/**
 * The paths the routes serve, with their methods, matched as the router matches them: a
 * `:name` segment is any one non-empty segment (`/v2/users/transactions/:id`).
 */
class RoutedPaths {
  private readonly exact = new Map<string, Set<string>>();
  private readonly patterns: { pattern: RegExp; methods: Set<string> }[] = [];

  add(url: string, methods: readonly string[]): void {
    let known: Set<string> | undefined;
    if (url.includes(':')) {
      const source = url
        .split('/')
        .map((segment) =>
          segment.startsWith(':') ? '[^/]+' : segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'),
        )
        .join('/');
      known = this.patterns.find((entry) => entry.pattern.source === `^${source}$`)?.methods;
      if (!known) {
        known = new Set();
        this.patterns.push({ pattern: new RegExp(`^${source}$`), methods: known });
      }
    } else {
      known = this.exact.get(url) ?? new Set();
      this.exact.set(url, known);
    }
    for (const method of methods) known.add(method);
  }

  /** Every method some route serves at `path`; undefined when no route serves it. */
  methodsOf(path: string): Set<string> | undefined {
    const matched = [
      this.exact.get(path),
      ...this.patterns.map((entry) => (entry.pattern.test(path) ? entry.methods : undefined)),
    ].filter((methods) => methods !== undefined);
    if (matched.length === 0) return undefined;
    return new Set(matched.flatMap((methods) => [...methods]));
  }
}

function splitQuery(url: string): [path: string, query: string] {
  const at = url.indexOf('?');
  return at < 0 ? [url, ''] : [url.slice(0, at), url.slice(at)];
}
