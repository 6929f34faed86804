import { type Exact, ZERO } from './money.ts';
import { LIABILITY_ACCOUNT_TYPES } from './taxonomy.ts';

/** Account types whose balance is owed, not owned (docs/data-contract.md: `current` is the amount owed). */
const LIABILITY_TYPES: ReadonlySet<string> = new Set(LIABILITY_ACCOUNT_TYPES);

function isLiabilityType(type: string): boolean {
  return LIABILITY_TYPES.has(type);
}

export interface NetWorth {
  assets: Exact;
  liabilities: Exact;
  netWorth: Exact;
}

/** Sums exact balances by side; accounts without a balance (null) count for nothing. */
export function netWorthOf(balances: Iterable<{ type: string; current: string | null }>): NetWorth {
  let assets = ZERO;
  let liabilities = ZERO;
  for (const { type, current } of balances) {
    if (current === null) continue;
    if (isLiabilityType(type)) liabilities = liabilities.plus(current);
    else assets = assets.plus(current);
  }
  return { assets, liabilities, netWorth: assets.minus(liabilities) };
}
