/**
 * Investment and crypto platforms (decisions.md, "Investment-platform transfers"): a DEBIT whose
 * merchant name or description names one is a transfer to savings, not spending. The list is
 * data, kept here only; it compiles to RE2 regular expressions that DuckDB evaluates in the query.
 *
 * Spelling syntax: lower-case letters and digits; a space stands for any run of separators
 * (spaces, punctuation, `*`, none at all), so `e trade` covers "E*TRADE", "E-TRADE" and "ETRADE".
 * A spelling matches between non-letters (digits may touch it: "COINBASE8889087930"); a trailing
 * `*` lets it end inside a word ("STASH INVESTMENTS" for `stash invest*`). Guards name the
 * businesses that merely share a platform's name; they match from a word start, as prefixes.
 * RE2 has no lookaround: a text names a platform when a spelling still matches once every guard
 * phrase is blanked out. Matching is on lower-cased text.
 */

export interface InvestmentPlatform {
  name: string;
  spellings: readonly string[];
  /** Not this platform: businesses sharing its name. */
  guards: readonly string[];
}

export const INVESTMENT_PLATFORMS: readonly InvestmentPlatform[] = [
  { name: 'Robinhood', spellings: ['robinhood'], guards: [] },
  {
    name: 'Vanguard',
    spellings: ['vanguard'],
    guards: [
      'vanguard cleaning',
      'vanguard storage',
      'vanguard self storage',
      'vanguard car rental',
      'vanguard roofing',
      'vanguard animal',
    ],
  },
  {
    name: 'Fidelity Investments',
    spellings: ['fidelity', 'fid bkg*', 'fidelity brokerage', 'fidelity invest*'],
    guards: [
      'fidelity life',
      'fidelity guaranty',
      'fidelity and guaranty',
      'fidelity national',
      'fidelity title',
      'fidelity insurance',
      'fidelity security life',
      'fidelity mutual',
      'fidelity bank',
      'fidelity federal',
      'fidelity savings',
      'fidelity deposit',
      'fidelity credit union',
      'fidelity co op',
      'fidelity dental',
      'fidelity home',
    ],
  },
  {
    name: 'Charles Schwab',
    spellings: ['schwab', 'charles schwab'],
    guards: ['les schwab', 'schwab tire', 'schwab tyre'],
  },
  { name: 'E*TRADE', spellings: ['e trade'], guards: [] },
  {
    name: 'Interactive Brokers',
    spellings: ['interactive brok*', 'interactive brkr*', 'ibkr'],
    guards: [],
  },
  { name: 'Coinbase', spellings: ['coinbase'], guards: [] },
  {
    name: 'Kraken',
    spellings: ['kraken', 'payward'],
    guards: ['seattle kraken', 'kraken hockey', 'kraken rum', 'kraken iceplex', 'kraken community'],
  },
  { name: 'Wealthfront', spellings: ['wealthfront'], guards: [] },
  { name: 'Betterment', spellings: ['betterment'], guards: [] },
  {
    name: 'Acorns',
    spellings: ['acorns'],
    guards: ['acorns nursery', 'acorns preschool', 'acorns daycare', 'acorns child'],
  },
  { name: 'M1 Finance', spellings: ['m1 finance', 'm1 fin'], guards: [] },
  { name: 'Webull', spellings: ['webull'], guards: [] },
  { name: 'TD Ameritrade', spellings: ['ameritrade'], guards: [] },
  { name: 'Merrill Edge', spellings: ['merrill edge', 'merrill lynch'], guards: [] },
  { name: 'Ally Invest', spellings: ['ally invest*'], guards: [] },
  {
    name: 'SoFi Invest',
    spellings: ['sofi invest*', 'sofi securities', 'sofi crypto'],
    guards: [],
  },
  { name: 'Stash', spellings: ['stash invest*', 'stash capital'], guards: [] },
  { name: 'Public', spellings: ['public com'], guards: [] },
  { name: 'Gemini', spellings: ['gemini trust', 'gemini com', 'gemini exchange'], guards: [] },
  { name: 'Binance', spellings: ['binance'], guards: [] },
  { name: 'Crypto.com', spellings: ['crypto com'], guards: [] },
  { name: 'eToro', spellings: ['etoro'], guards: [] },
  { name: 'Firstrade', spellings: ['firstrade'], guards: [] },
  { name: 'tastytrade', spellings: ['tastytrade', 'tastyworks'], guards: [] },
  { name: 'Ellevest', spellings: ['ellevest'], guards: [] },
  { name: 'Edward Jones', spellings: ['edward jones'], guards: [] },
  { name: 'T. Rowe Price', spellings: ['t rowe price'], guards: [] },
];

const SEPARATORS = '[^a-z0-9]*';
const WORD_START = '(^|[^a-z])';
const WORD_END = '([^a-z]|$)';

function spellingPattern(spelling: string): string {
  const prefix = spelling.endsWith('*');
  const words = (prefix ? spelling.slice(0, -1) : spelling).split(' ');
  if (!words.every((word) => /^[a-z0-9]+$/.test(word))) {
    throw new Error(`invalid platform spelling: ${spelling}`);
  }
  return words.join(SEPARATORS) + (prefix ? '' : WORD_END);
}

/** One RE2 pattern (for lower-cased text) matching any of the spellings from a word start. */
function anyOf(spellings: readonly string[], asPrefixes = false): string {
  const body = spellings.map((spelling) => spellingPattern(asPrefixes ? `${spelling}*` : spelling));
  return `${WORD_START}(${body.join('|')})`;
}

export interface CompiledPlatformMatcher {
  /** Any platform's spelling. */
  platform: string;
  /** Any look-alike business name. */
  guard: string;
}

export function compilePlatformMatcher(
  platforms: readonly InvestmentPlatform[] = INVESTMENT_PLATFORMS,
): CompiledPlatformMatcher {
  return {
    platform: anyOf(platforms.flatMap((platform) => platform.spellings)),
    guard: anyOf(
      platforms.flatMap((platform) => platform.guards),
      true,
    ),
  };
}

const literal = (pattern: string) => `'${pattern.replaceAll("'", "''")}'`;

/**
 * A SQL boolean expression: does the lower-cased `textSql` name an investment platform outside
 * every look-alike name? Look-alike names are blanked out, then the platform pattern must still
 * match ("LES SCHWAB TIRES" no, "ROBINHOOD ... LES SCHWAB" yes). The patterns are this module's
 * constants, never request input. DuckDB compiles each pattern on every execution of a statement
 * with parameters, so there are few and they are case-sensitive (cheaper to compile); CASE runs
 * the blanking only for the texts that named a platform at all.
 */
export function namesInvestmentPlatformSql(
  textSql: string,
  matcher: CompiledPlatformMatcher = compilePlatformMatcher(),
): string {
  const platform = literal(matcher.platform);
  return `CASE WHEN NOT regexp_matches(${textSql}, ${platform}) THEN false
    ELSE regexp_matches(regexp_replace(${textSql}, ${literal(matcher.guard)}, ' ', 'g'), ${platform}) END`;
}

/** The text matched per transaction: merchant name and description, lower-cased, kept apart. */
export function platformTextSql(merchantNameSql: string, descriptionSql: string): string {
  return `lower(coalesce(${merchantNameSql}, '') || ' | ' || coalesce(${descriptionSql}, ''))`;
}
