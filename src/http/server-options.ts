import type { Server } from 'node:http';
import type { FastifyHttpOptions, FastifyServerOptions } from 'fastify';
import type { Config } from '../config.ts';
import { clientErrorHandler, frameworkErrorHandler } from './errors.ts';
import { parsePythonQuery } from './fastapi/python-query.ts';
import { requestIdFor } from './request-id.ts';

export interface TlsFiles {
  key: string | Buffer;
  cert: string | Buffer;
}

/**
 * Fastify and Node server options: every bound a client can push against (header and URL
 * size, slow headers, slow or idle connections, keep-alive), the proxy trust, HTTPS, and the
 * `{"detail": ...}` shape for errors raised before routing.
 */
export function serverOptions(
  config: Config,
  https: TlsFiles | null | undefined,
): FastifyHttpOptions<Server> {
  const nodeServer = {
    maxHeaderSize: config.MAX_HEADER_SIZE,
    headersTimeout: Math.min(config.HEADERS_TIMEOUT_MS, config.REQUEST_TIMEOUT_MS),
    requestTimeout: config.REQUEST_TIMEOUT_MS,
    // How often Node checks the two timeouts above (its default is 30 s).
    connectionsCheckingInterval: Math.min(1000, config.HEADERS_TIMEOUT_MS),
    // Node would answer an HTTP/1.1 request without Host with a bare 400 of its own (no body,
    // no request id, no security headers); errorsPlugin answers it in our shape instead.
    requireHostHeader: false,
  };
  const options: FastifyHttpOptions<Server> = {
    genReqId: requestIdFor,
    requestIdHeader: false,
    // FastAPI answers HEAD on a GET route with 405, and a trailing slash with a 307 redirect.
    // Only the probes opt in to HEAD (exposeHeadRoute in areas/health), for load balancers.
    exposeHeadRoutes: false,
    routerOptions: {
      ignoreTrailingSlash: false,
      maxParamLength: config.MAX_PARAM_LENGTH,
      querystringParser: parsePythonQuery,
    },
    frameworkErrors: frameworkErrorHandler,
    clientErrorHandler,
    // A hop count is valid at run time (proxy-addr); Fastify's type omits it.
    trustProxy: config.TRUST_PROXY as FastifyServerOptions['trustProxy'],
    http: nodeServer,
    connectionTimeout: config.CONNECTION_TIMEOUT_MS,
    requestTimeout: config.REQUEST_TIMEOUT_MS,
    keepAliveTimeout: config.KEEP_ALIVE_TIMEOUT_MS,
    // MAX_REQUESTS_PER_SOCKET is applied by keepAlivePlugin (keep-alive.ts): Node's own
    // bound answers past it with a bare 503 and leaves the connection open.
    maxRequestsPerSocket: 0,
    // A read-only API takes no request bodies.
    bodyLimit: 16 * 1024,
    // errorsPlugin answers 503 in the detail shape while closing.
    return503OnClosing: false,
    forceCloseConnections: 'idle',
  };
  // Fastify serves HTTPS when `https` is set (the app stays typed as an HTTP/1.1 app).
  return https ? Object.assign(options, { https: { ...nodeServer, ...https } }) : options;
}
