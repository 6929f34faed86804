import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Store } from '../port/store.ts';
import { isLeasable, type StoreLease } from '../port/swappable.ts';

declare module 'fastify' {
  interface FastifyInstance {
    store: Store;
  }
  interface FastifyRequest {
    /** The store this request started on (hot-swappable stores only). */
    storeLease: StoreLease | null;
  }
}

/**
 * Makes the store available to every area as `app.store`; the app does not own its lifecycle.
 * With a swappable store, each request keeps the store it started on until its response is
 * sent, so a swap never changes the data under a request.
 */
export const storePlugin = fp<{ store: Store }>(async (app: FastifyInstance, { store }) => {
  app.decorate('store', store);
  if (!isLeasable(store)) return;
  app.decorateRequest('storeLease', null);
  app.addHook('onRequest', (request, reply, done) => {
    const lease = store.lease();
    request.storeLease = lease;
    reply.raw.once('close', lease.release);
    lease.run(done);
  });
  const release = async (request: { storeLease: StoreLease | null }) => {
    request.storeLease?.release();
  };
  app.addHook('onResponse', release);
  app.addHook('onRequestAbort', release);
});
