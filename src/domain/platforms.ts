/**
 * Investment and crypto platforms (docs/api.md, "Investment-platform transfers"): a DEBIT whose
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
      // Clinics, schools, trades and realtors named Vanguard on card statements.
      'vanguard dental',
      'vanguard health',
      'vanguard vet',
      'vanguard university',
      'vanguard college',
      'vanguard school',
      'vanguard academy',
      'vanguard plumbing',
      'vanguard electric',
      'vanguard pest',
      'vanguard moving',
      'vanguard renewable',
      'vanguard propert',
      'vanguard realty',
      'vanguard security',
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
      // Not bare 'fidelity savings' / 'fidelity deposit': "FIDELITY DEPOSIT" is a transfer.
      'fidelity savings bank',
      'fidelity savings loan',
      'fidelity savings and loan',
      'fidelity and deposit',
      'fidelity deposit co of',
      'fidelity deposit company',
      'fidelity credit union',
      'fidelity co op',
      'fidelity dental',
      'fidelity home',
      // Statement abbreviations of the same look-alikes ("FIDELITY NATL TITLE", "FIDELITY & GTY").
      'fidelity natl',
      'fidelity guar',
      'fidelity gty',
      'fidelity sec life',
      'fidelity security',
      // Bill payment, warranty sellers, lenders. Never a word a transfer line uses after the
      // name ("FIDELITY DEPOSIT", "VANGUARD AUTOMATIC INVESTMENT", "ACORNS EARLY INVEST").
      'fidelity express',
      'fidelity warranty',
      'fidelity mortgage',
      'fidelity credit',
    ],
  },
  {
    name: 'Charles Schwab',
    spellings: ['schwab', 'charles schwab'],
    // Les Schwab tires; Charles Schwab Field (Omaha ballpark) and the Charles Schwab Challenge
    // (golf) sell tickets and food.
    guards: ['les schwab', 'schwab tire', 'schwab tyre', 'schwab field', 'schwab challenge'],
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
    guards: [
      // The Seattle hockey team, its arena shop and rink, the rum.
      'seattle kraken',
      'kraken hockey',
      'kraken team',
      'kraken shop',
      'kraken rum',
      'kraken iceplex',
      'kraken community',
      // Restaurants, bars and shops named after the sea monster.
      'kraken jr',
      'kraken sushi',
      'kraken seafood',
      'kraken fish',
      'kraken cajun',
      'kraken poke',
      'kraken taco',
      'kraken grill',
      'kraken kitchen',
      'kraken restaurant',
      'kraken bar',
      'kraken pub',
      'kraken brew',
      'kraken coffee',
      'kraken cafe',
      'kraken tea',
      'kraken tattoo',
      'kraken games',
      'kraken fitness',
      'kraken gym',
    ],
  },
  { name: 'Wealthfront', spellings: ['wealthfront'], guards: [] },
  { name: 'Betterment', spellings: ['betterment'], guards: [] },
  {
    name: 'Acorns',
    spellings: ['acorns'],
    guards: [
      // Nurseries, preschools and schools ("LITTLE ACORNS LEARNING CTR"), pubs.
      'little acorns',
      'acorns nursery',
      'acorns preschool',
      'acorns pre school',
      'acorns daycare',
      'acorns day care',
      'acorns child',
      'acorns learning',
      'acorns montessori',
      'acorns academy',
      'acorns school',
      'acorns play',
      'acorns restaurant',
      'acorns pub',
      'acorns tavern',
    ],
  },
  { name: 'M1 Finance', spellings: ['m1 finance', 'm1 fin'], guards: [] },
  { name: 'Webull', spellings: ['webull'], guards: [] },
  // TD Ameritrade Park: the Omaha ballpark's former name.
  { name: 'TD Ameritrade', spellings: ['ameritrade'], guards: ['ameritrade park'] },
  { name: 'Merrill Edge', spellings: ['merrill edge', 'merrill lynch'], guards: [] },
  // Not bare "Ally": Ally Bank deposits and Ally auto loan payments are no platform.
  { name: 'Ally Invest', spellings: ['ally invest*', 'ally invst'], guards: [] },
  {
    name: 'SoFi Invest',
    // Not bare "SoFi": SoFi loan payments and SoFi Money are no platform.
    spellings: ['sofi invest*', 'sofi securities', 'sofi crypto', 'sofi wealth'],
    guards: [],
  },
  // Not bare "Stash" (tea, shops), "Public" (Public Storage, public utilities), "Gemini" (Google
  // Gemini subscriptions, restaurants, hotels): only the platforms' own statement names.
  { name: 'Stash', spellings: ['stash invest*', 'stash capital', 'stash financial'], guards: [] },
  { name: 'Public', spellings: ['public com', 'public investing'], guards: [] },
  { name: 'Gemini', spellings: ['gemini trust', 'gemini com', 'gemini exchange'], guards: [] },
  // BAM Trading Services and Foris DAX: the legal names of Binance.US and Crypto.com.
  { name: 'Binance', spellings: ['binance', 'bam trading'], guards: [] },
  // Crypto.com Arena: the Los Angeles arena (tickets, concessions, parking).
  { name: 'Crypto.com', spellings: ['crypto com', 'foris dax'], guards: ['crypto com arena'] },
  { name: 'eToro', spellings: ['etoro'], guards: [] },
  { name: 'Firstrade', spellings: ['firstrade'], guards: [] },
  { name: 'tastytrade', spellings: ['tastytrade', 'tastyworks'], guards: [] },
  { name: 'Ellevest', spellings: ['ellevest'], guards: [] },
  { name: 'Edward Jones', spellings: ['edward jones'], guards: ['edward jones dome'] },
  { name: 'T. Rowe Price', spellings: ['t rowe price'], guards: [] },
  { name: 'Bitstamp', spellings: ['bitstamp'], guards: [] },
  {
    // Personal Capital became Empower Personal Wealth; bare "Empower" is a cash-advance app,
    // gyms and salons.
    name: 'Empower (Personal Capital)',
    spellings: ['personal capital', 'empower retirement', 'empower personal'],
    guards: ['personal capital one'],
  },
  // Bare "Titan" is machinery, gyms, tyres: only the investing app's names.
  { name: 'Titan', spellings: ['titan invest*', 'titan global cap*'], guards: [] },
  { name: 'Fundrise', spellings: ['fundrise'], guards: [] },
  { name: 'Wealthsimple', spellings: ['wealthsimple'], guards: [] },
  { name: 'moomoo', spellings: ['moomoo'], guards: [] },
  // Ameriprise also sells car and home insurance: premiums are spending.
  {
    name: 'Ameriprise',
    spellings: ['ameriprise'],
    guards: ['ameriprise auto home', 'ameriprise insurance'],
  },
  { name: 'Morgan Stanley', spellings: ['morgan stanley'], guards: [] },
  // Raymond James Stadium: Tampa's football stadium.
  { name: 'Raymond James', spellings: ['raymond james'], guards: ['raymond james stadium'] },
  { name: 'LPL Financial', spellings: ['lpl financial'], guards: [] },
  { name: 'Wells Fargo Advisors', spellings: ['wells fargo advisors'], guards: [] },
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
function anyOf(spellings: readonly string[]): string {
  return `${WORD_START}(${spellings.map(spellingPattern).join('|')})`;
}

/**
 * One RE2 pattern matching any guard as a prefix from a word start. Guards sharing a first word
 * share it in the pattern ("kraken (jr|sushi|...)"): DuckDB compiles the pattern on every
 * execution, and its cost grows with the pattern's length.
 */
function anyPrefixOf(guards: readonly string[]): string {
  const byFirstWord = new Map<string, string[]>();
  for (const guard of guards) {
    const [first = '', ...rest] = spellingPattern(`${guard}*`).split(SEPARATORS);
    const tails = byFirstWord.get(first) ?? [];
    tails.push(rest.join(SEPARATORS));
    byFirstWord.set(first, tails);
  }
  const body = [...byFirstWord].map(([first, tails]) =>
    // A one-word guard (empty tail) covers every longer guard of that word.
    tails.includes('') ? first : `${first}${SEPARATORS}(${[...new Set(tails)].join('|')})`,
  );
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
    guard: anyPrefixOf(platforms.flatMap((platform) => platform.guards)),
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

/**
 * The text matched per transaction: merchant name and description, lower-cased, kept apart by
 * a digit. Separators inside a spelling never cross a digit, so no spelling or guard spans the
 * two fields (merchant "Fidelity", description "PAYMENT" is not the guard "fidelity payment"),
 * while a digit still ends a word on either side.
 */
export function platformTextSql(merchantNameSql: string, descriptionSql: string): string {
  return `lower(coalesce(${merchantNameSql}, '') || ' 0 ' || coalesce(${descriptionSql}, ''))`;
}
