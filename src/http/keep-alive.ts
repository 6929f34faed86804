import type { Socket } from 'node:net';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

export interface KeepAliveOptions {
  /** Requests answered on one connection before it is closed; 0: no bound. */
  maxRequestsPerSocket: number;
}

const served = Symbol('requests served on this connection');
type CountedSocket = Socket & { [served]?: number };

/**
 * MAX_REQUESTS_PER_SOCKET, done here rather than by Node's own option: Node answers a request
 * past the bound with a bare 503 of its own (no body, no request id, no headers) and keeps the
 * connection open, so a client that ignores `Connection: close` gets 503 after 503. Here the
 * last request a connection may carry is answered as usual with `Connection: close`, and Node
 * then closes the connection; a request already sent behind it (pipelined) is answered the
 * same way, never refused.
 */
export const keepAlivePlugin = fp<KeepAliveOptions>(async (app: FastifyInstance, options) => {
  if (options.maxRequestsPerSocket <= 0) return;
  app.addHook('onRequest', (request, reply, done) => {
    const socket = request.raw.socket as CountedSocket | null;
    if (socket) {
      const count = (socket[served] ?? 0) + 1;
      socket[served] = count;
      if (count >= options.maxRequestsPerSocket) reply.header('connection', 'close');
    }
    done();
  });
});
