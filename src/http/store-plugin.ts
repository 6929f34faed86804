import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { fixedSource, isPortSource, type PortSource } from '../port/hot-swap.ts';
import type { ReadPort } from '../port/read-port.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** Where requests get their read port; the app does not own its lifecycle. */
    store: PortSource;
  }
  interface FastifyRequest {
    /** The read port this request started on: every query of the request goes to it. */
    store: ReadPort;
    /**
     * Gives back the port before the answer ends: an answer that stays open long after its
     * reads (an event stream) would otherwise keep a retired generation open.
     */
    releaseStore(): void;
  }
}

/**
 * Gives every request the read port current when it arrived (`request.store`) and keeps it
 * until the response is sent, so a swap to a new generation never changes the data under a
 * request.
 */
export const storePlugin = fp<{ store: ReadPort | PortSource }>(
  async (app: FastifyInstance, options) => {
    const source = isPortSource(options.store) ? options.store : fixedSource(options.store);
    app.decorate('store', source);
    app.decorateRequest('store', null as unknown as ReadPort);
    const releases = new WeakMap<object, () => void>();
    app.decorateRequest('releaseStore', function (this: object) {
      releases.get(this)?.();
    });
    app.addHook('onRequest', async (request, reply) => {
      const lease = source.lease();
      request.store = lease.port;
      releases.set(request, lease.release);
      // Whichever comes first; a lease ignores a second release.
      reply.raw.once('close', lease.release);
    });
    const release = async (request: object) => releases.get(request)?.();
    app.addHook('onResponse', release);
    app.addHook('onRequestAbort', release);
  },
);
