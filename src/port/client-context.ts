/**
 * Which client the work running now is for, so the store's queue (fair-queue.ts) can take
 * turns between clients without every port method carrying one. Admission sets it for each
 * request (its client key: the token, else the address); it follows the request through
 * Fastify's hooks, its handler and every promise they start. Work begun for one request and
 * shared by others (a read several requests wait for) keeps the first asker's client. Work
 * with no request behind it (CLIs, tests, the engine's own checks) is one anonymous client.
 */
import { AsyncLocalStorage } from 'node:async_hooks';

/** The client of work that no request started. */
export const ANONYMOUS_CLIENT = '';

const storage = new AsyncLocalStorage<string>();

/** Runs `work`, and everything it starts, as `client`'s. */
export function runAsClient<T>(client: string, work: () => T): T {
  return storage.run(client, work);
}

/** The client the current work is for. */
export function currentClient(): string {
  return storage.getStore() ?? ANONYMOUS_CLIENT;
}
