/**
 * The read port over an engine's adapter, with what it adds whatever the engine: a token counts
 * only while its user exists, and what a generation never changes is remembered for the port's
 * life (one generation): the users known to exist, each user's accounts. Each memo is bounded,
 * cleared when full.
 */
import type { AccountRecord, ReadPort, StoreAdapter, TokenOwner } from './read-port.ts';

/** Users remembered per port (per memo): bounded, cleared when full. */
const KNOWN_USERS_LIMIT = 100_000;

/** The port of `adapter`; engines hand out only these (one per adapter). */
export function memoizedPort(adapter: StoreAdapter): ReadPort {
  const { liveTokenOwner, userExists, accounts: readAccounts, balanceHistory, ...reads } = adapter;
  const knownUsers = new Set<string>();
  const accountsByUser = new Map<string, Promise<AccountRecord[]>>();

  const accounts = (userId: string): Promise<AccountRecord[]> => {
    let known = accountsByUser.get(userId);
    if (!known) {
      known = readAccounts(userId);
      known.catch(() => accountsByUser.delete(userId));
      if (accountsByUser.size >= KNOWN_USERS_LIMIT) accountsByUser.clear();
      accountsByUser.set(userId, known);
    }
    return known;
  };

  const tokenOwner = async (tokenHash: string): Promise<TokenOwner | null> => {
    const owner = await liveTokenOwner(tokenHash);
    if (!owner) return null;
    if (!knownUsers.has(owner.userId)) {
      if (!(await userExists(owner.userId))) return null;
      if (knownUsers.size >= KNOWN_USERS_LIMIT) knownUsers.clear();
      knownUsers.add(owner.userId);
    }
    return owner;
  };

  return {
    ...reads,
    tokenOwner,
    accounts,
    balanceHistory: (userId, days) => balanceHistory(userId, days, () => accounts(userId)),
  };
}
