/**
 * What every published store records about itself, on both engines: its generation (what
 * tells a swapped-in store, and its caches, from the last), the version of the layout it was
 * built with, and the fingerprint of the investment-platform rules behind its derived flag.
 * A server reads only stores of its own format and rules: any other is refused, with the
 * advice to rebuild it, rather than read through a path kept for old layouts.
 */
import { randomBytes } from 'node:crypto';

/**
 * The layout build-db writes: tables, derived columns, rollups and packed ledgers. Raise it
 * whenever a change means a store built before it would be read wrongly (3: the change log and
 * sync cursors; 4: the packed ledgers, contract/ledger.ts; 5: each change set's record of the
 * users' other tables it changed).
 */
export const STORE_FORMAT_VERSION = 5;

/** A new store's generation. */
export function newGeneration(): string {
  return randomBytes(8).toString('hex');
}

/** The fields of a store's metadata row that decide whether this code may read it. */
export interface StoreFormatFields {
  format_version?: unknown;
  platform_rules?: unknown;
}

/** Why this code may not read a store with this metadata (`platformRules`: its own), or null. */
export function storeFormatProblem(
  meta: StoreFormatFields | undefined,
  platformRules: string,
): string | null {
  const version = meta?.format_version;
  if (version === undefined || version === null)
    return `it was built before store formats were recorded (this server reads format ${STORE_FORMAT_VERSION})`;
  if (Number(version) !== STORE_FORMAT_VERSION)
    return `it has store format ${String(version)} (this server reads format ${STORE_FORMAT_VERSION})`;
  if (meta?.platform_rules !== platformRules)
    return 'it was built with other investment-platform rules than this server applies';
  return null;
}
