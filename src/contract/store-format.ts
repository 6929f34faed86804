/**
 * What every published store records about itself, on both engines: its generation (what
 * tells a swapped-in store, and its caches, from the last) and the version of the layout it
 * was built with.
 */
import { randomBytes } from 'node:crypto';

/** A new store's generation. */
export function newGeneration(): string {
  return randomBytes(8).toString('hex');
}
