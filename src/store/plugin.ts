import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Store } from './store.ts';

declare module 'fastify' {
  interface FastifyInstance {
    store: Store;
  }
}

/** Makes the store available to every area as `app.store`; the app does not own its lifecycle. */
export const storePlugin = fp<{ store: Store }>(async (app: FastifyInstance, { store }) => {
  app.decorate('store', store);
});
