/**
 * The settled cases of docs/api.md ("Investment-platform transfers"), in order, then the
 * limits docs/api.md states: each a (merchant name, description) pair and whether a DEBIT with them
 * is a transfer to a platform. Checked by every path that decides them: the JavaScript matcher,
 * DuckDB's query-time SQL and the flag build-db stores (test/engines/duckdb/platform-cases.test.ts),
 * and the spending analysis on every engine (test/api/spending-platform-transfers.test.ts).
 */
export type PlatformCase = [merchant: string | null, description: string, transfer: boolean];

export const SETTLED_PLATFORM_CASES: Record<string, PlatformCase[]> = {
  'digits or punctuation glued to a name still match': [
    [null, 'COINBASE8889087930', true],
    [null, 'ROBINHOOD123456 FUNDS', true],
    [null, 'FIDELITY401K', true],
  ],
  'multi-word names with other separators or none': [
    [null, 'E-TRADE', true],
    [null, 'E TRADE', true],
    [null, 'M1FINANCE', true],
    [null, 'INTERACTIVEBROKERS', true],
  ],
  'full-service brokerages and an exchange’s legal name': [
    [null, 'MERRILL LYNCH', true],
    [null, 'MERRILL EDGE', true],
    [null, 'EDWARD JONES', true],
    [null, 'T. ROWE PRICE', true],
    [null, 'PAYWARD', true],
    ['Merrill Lynch', 'ONLINE TRANSFER', true],
  ],
  'common-word platforms only in their statement form, never bare': [
    [null, 'GEMINI', false],
    [null, 'PUBLIC', false],
    [null, 'STASH', false],
    [null, 'SOFI', false],
    [null, 'ALLY', false],
    [null, 'TITAN', false],
    [null, 'EMPOWER', false],
    [null, 'GEMINI TRUST', true],
    [null, 'PUBLIC.COM', true],
    [null, 'STASH CAPITAL', true],
    [null, 'SOFI INVEST', true],
    [null, 'ALLY INVEST', true],
    [null, 'EMPOWER RETIREMENT', true],
  ],
  'a platform’s name followed by words of another trade': [
    [null, 'KRAKEN SUSHI BAR', false],
    [null, 'LITTLE ACORNS DAYCARE', false],
    [null, 'CRYPTO.COM ARENA PARKING', false],
    [null, 'FIDELITY LIFEGUARD SVC', false],
    [null, 'FIDELITY GUARANTY LIFE', false],
    ['Les Schwab Tire Centers', 'SCHWAB TIRE #12', false],
  ],
  '"another trade" is any non-financial business; a bank is one': [
    [null, 'ROBINHOOD PIZZA CO', false],
    [null, 'FIDELITY PLUMBING INC', false],
    [null, 'COINBASE CAFE', false],
    [null, 'FIDELITY BANK LOAN PMT', false],
    ['Robinhood Pizza Co', 'POS PURCHASE', false],
    [null, 'VANGUARD HAIR SALON', false],
    [null, 'SCHWAB AUTO REPAIR 5551234', false],
    [null, 'MERRILL GARDENS SENIOR LIVING', false],
    [null, 'ROBINHOOD FAMILY DENTAL', false], // the trade word second after the name
  ],
  'a look-alike named in either field decides for the whole transaction': [
    ['Les Schwab Tire Centers', 'SCHWAB #0123 BEND OR', false],
    ['Les Schwab Tire Centers', 'SCHWAB #0123', false],
    [null, 'SCHWAB #0123 BEND OR', true], // alone, the description reads as Schwab
    ['Schwab', 'LES SCHWAB TIRE CENTER #123', false],
    ['Robinhood Pizza Co', 'ROBINHOOD #12 DENVER', false],
    ['Coinbase', 'COINBASE CAFE SEATTLE WA', false],
    ['Robinhood', 'LES SCHWAB REFERRAL', true], // a look-alike rules out only its own platform
    ['Robinhood', 'COINBASE CAFE', true],
  ],
  'a platform’s bare or legal name counts': [
    [null, 'MERRILL', true],
    [null, 'MERRILL ACH 123', true],
    [null, 'EDWARD D JONES & CO', true],
    [null, 'TITAN INVEST', true],
    ['Merrill', 'ACH DEBIT', true],
  ],
  'a word not recognisably of another trade keeps it a platform': [
    [null, 'T.ROWE PRICE RPS', true],
    [null, 'SCHWAB ONE DES:TRANSFER', true],
    [null, 'MERRILL LYNCH PIERCE FENNER', true],
    [null, 'VANGUARD BUY', true],
    [null, 'FIDELITY XYZQ 0042', true],
    ['Charles Schwab', 'SCHWAB ONE INTL', true],
    [null, 'ROBINHOOD DENVER CO', true],
    [null, 'FIDELITY DEPOSIT', true],
    [null, 'ROBINHOOD MENLO PARK CA', true],
    [null, 'COINBASE SAN FRANCISCO CA 94105', true],
    [null, 'ROBINHOOD DES:FUNDS ID:5XK2 INDN:JANE DOE CO ID:XXXXX PPD', true],
    [null, 'ROBINHOOD MARKETS INC', true],
    [null, 'FIDELITY INVESTMENTS', true],
    [null, 'SCHWAB BROKERAGE MONEYLINK', true],
    [null, 'COINBASE.COM 8889087930', true],
    [null, 'ACORNS EARLY', true],
    [null, 'VANGUARD 529 COLLEGE SAVINGS', true],
    [null, 'ORIG CO NAME:ROBINHOOD ORIG ID:123 DESC DATE:260105', true],
  ],
  'what the text cannot tell, as docs/api.md states it': [
    // Only the first two words after the name are read: the account holder's name is not.
    [null, 'ROBINHOOD DES:FUNDS INDN:JANE BAKER', true],
    // A town named with a trade word reads as that trade.
    [null, 'FIDELITY GARDEN CITY NY', false],
  ],
};

export const ALL_PLATFORM_CASES: PlatformCase[] = Object.values(SETTLED_PLATFORM_CASES).flat();
