/**
 * Investment and crypto platforms (docs/api.md, "Investment-platform transfers"): a DEBIT whose
 * merchant name or description names one is a transfer to savings, not spending. The rules are
 * data, kept here only: the platforms (spellings and guards), the statement noise and financial
 * words that may follow a platform's name, and the region codes that end a city and state. They
 * compile to regular expressions that DuckDB's RE2 evaluates in the query (and JavaScript's
 * RegExp identically, `namesInvestmentPlatform`).
 *
 * A field (merchant name or description) names a platform when one of its spellings appears at
 * a word start and what follows the name, in that field, is statement noise, not another trade:
 *
 * - nothing but digits and punctuation up to the field's end ("FIDELITY", "COINBASE.COM 888");
 * - or a number ("ROBINHOOD123456 FUNDS", "SCHWAB #0123 BEND OR", "FIDELITY401K");
 * - or a word of `STATEMENT_NOISE` or `FINANCIAL_WORDS` ("ROBINHOOD DES:FUNDS", "MERRILL ACH",
 *   "VANGUARD BUY", "EDWARD D JONES & CO");
 * - or a city and state ending the field: at most `CITY_WORDS` words, then a code of
 *   `REGION_CODES` ("ROBINHOOD MENLO PARK CA").
 *
 * Any other word right after the name makes it another business sharing the name ("ROBINHOOD
 * PIZZA CO", "FIDELITY PLUMBING INC", "COINBASE CAFE", "FIDELITY BANK LOAN PMT"): only the first
 * word after the name is read; once noise has ended the name, the rest is statement fields.
 * Guards name look-alike businesses explicitly; a guard found in either field means the whole
 * transaction does not name that guard's platform (merchant "Les Schwab Tire Centers" with
 * description "SCHWAB #0123 BEND OR").
 *
 * Spelling syntax: lower-case letters and digits; a space stands for any run of separators
 * (spaces, punctuation, `*`, none at all), so `e trade` covers "E*TRADE", "E-TRADE" and "ETRADE".
 * A spelling matches after a non-letter (digits may touch it: "8889COINBASE"); a trailing `*`
 * lets it end inside a word ("STASH INVESTMENTS" for `stash invest*`), the rest of that word
 * being part of the name. Guards match from a word start, as prefixes. Matching is on the
 * lower-cased fields (platformTextSql; platformText reproduces it as far as the patterns see).
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
  // Merrill (Lynch, Edge): the bare name counts ("MERRILL ACH 123").
  { name: 'Merrill', spellings: ['merrill', 'merrill edge', 'merrill lynch'], guards: [] },
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
  // The legal name too: "EDWARD D JONES & CO".
  {
    name: 'Edward Jones',
    spellings: ['edward jones', 'edward d jones'],
    guards: ['edward jones dome'],
  },
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

// --- What may follow a platform's name -------------------------------------------------------

/**
 * Words banks print around a payee's name: ACH and card formats and their field labels, money
 * movement, legal forms, web addresses. Syntax as a spelling's single word (`contrib*`: prefix).
 */
export const STATEMENT_NOISE: readonly string[] = [
  // ACH / card formats and their labels ("DES:FUNDS ID:123 INDN:... CO ID:... PPD", "ORIG CO").
  'ach',
  'web',
  'ppd',
  'ccd',
  'ctx',
  'iat',
  'tel',
  'pos',
  'edi',
  'des',
  'descr',
  'id',
  'indn',
  'orig',
  'sec',
  'ref',
  'trace',
  'conf',
  'online',
  'recurring',
  'automatic',
  'automated',
  'instant',
  'visa',
  // Money movement.
  'transfer',
  'xfer',
  'trnsfr',
  'tfr',
  'deposit',
  'dep',
  'withdrawal',
  'wdrl',
  'debit',
  'dbt',
  'payment',
  'pmt',
  'pymt',
  'pymnt',
  'pymnts',
  'purchase',
  'buy',
  'contrib*',
  'fund',
  'funds',
  'funding',
  'topup',
  'top',
  'moneyline',
  'moneylink',
  'fedwire',
  'wire',
  // Legal forms and web addresses ("COINBASE.COM", "BINANCE.US", "EDWARD D JONES & CO").
  'inc',
  'llc',
  'co',
  'corp',
  'corporation',
  'company',
  'ltd',
  'lp',
  'llp',
  'com',
  'net',
  'www',
  'us',
  'usa',
];

/**
 * Words of the investment trade that keep a name a platform ("FIDELITY INVESTMENTS", "SCHWAB
 * BROKERAGE", "ACORNS EARLY"). Banks, lenders and insurers are other trades: `bank`, `loan`,
 * `mortgage`, `insurance`, `life` are deliberately absent ("FIDELITY BANK LOAN PMT" is spending).
 */
export const FINANCIAL_WORDS: readonly string[] = [
  'invest*',
  'invst',
  'reinvest*',
  'broker*',
  'brkg',
  'bkg',
  'securities',
  'financial',
  'finance',
  'finl',
  'fin',
  'capital',
  'trading',
  'trust',
  'exchange',
  'clearing',
  'custody',
  'wealth',
  'asset*',
  'markets',
  'advis*',
  'mgmt',
  'management',
  'group',
  'holdings',
  'ventures',
  'services',
  'svc',
  'svcs',
  'assoc',
  'associates',
  'retirement',
  'ira',
  'roth',
  'hsa',
  'savings',
  'portfolio',
  'mutual',
  'stock*',
  'shares',
  'dividend*',
  'crypto',
  'bitcoin',
  'btc',
  'wallet',
  'cash',
  'margin',
  // Acorns' accounts and round-ups.
  'early',
  'later',
  'round',
  'roundup*',
];

/**
 * State, territory and province codes that end a card statement's city ("MENLO PARK CA").
 * Not `co`: after a name it is the legal form ("ROBINHOOD PIZZA CO" is a pizza company).
 */
export const REGION_CODES: readonly string[] = [
  ...['al', 'ak', 'az', 'ar', 'ca', 'ct', 'de', 'dc', 'fl', 'ga', 'hi', 'id', 'il', 'in', 'ia'],
  ...['ks', 'ky', 'la', 'me', 'md', 'ma', 'mi', 'mn', 'ms', 'mo', 'mt', 'ne', 'nv', 'nh', 'nj'],
  ...['nm', 'ny', 'nc', 'nd', 'oh', 'ok', 'or', 'pa', 'ri', 'sc', 'sd', 'tn', 'tx', 'ut', 'vt'],
  ...['va', 'wa', 'wv', 'wi', 'wy', 'pr', 'vi', 'gu'],
  ...['ab', 'bc', 'mb', 'nb', 'nl', 'ns', 'nt', 'nu', 'on', 'pe', 'qc', 'sk', 'yt'],
];

/** The most words a city before a region code may have ("MENLO PARK", "SAN FRANCISCO"). */
export const CITY_WORDS = 2;

// --- Compiling the rules -------------------------------------------------------------------------

/** One separator: not a letter, not a digit, not the break between the two fields. */
const SEPARATOR = '[^a-z0-9\\n]';
const SEPARATORS = `${SEPARATOR}*`;
const WORD_START = '(^|[^a-z])';
const WORD_END = '([^a-z]|$)';
/** The end of a field: the break before the description, or the end of the text. */
const FIELD_END = '(\\n|$)';
/** Joins the two fields; never inside one (see platformText). */
const FIELD_BREAK = '\n';

function wordsOf(spelling: string): { words: string[]; prefix: boolean } {
  const prefix = spelling.endsWith('*');
  const words = (prefix ? spelling.slice(0, -1) : spelling).split(' ');
  if (!words.every((word) => /^[a-z0-9]+$/.test(word))) {
    throw new Error(`invalid platform spelling: ${spelling}`);
  }
  return { words, prefix };
}

/** A spelling as a name: its words across separators; a prefix takes the rest of its word. */
function namePattern(spelling: string): string {
  const { words, prefix } = wordsOf(spelling);
  return words.join(SEPARATORS) + (prefix ? '[a-z]*' : '');
}

/** Single words (`word` or `prefix*`) as one group: whole words, or words starting so. */
function wordGroup(list: readonly string[]): string {
  const whole: string[] = [];
  const prefixes: string[] = [];
  for (const entry of list) {
    const { words, prefix } = wordsOf(entry);
    if (words.length !== 1 || !/^[a-z]+$/.test(words[0] ?? '')) {
      throw new Error(`invalid statement word: ${entry}`);
    }
    (prefix ? prefixes : whole).push(words[0] as string);
  }
  return `((${whole.join('|')})${WORD_END}|(${prefixes.join('|')}))`;
}

/** What may follow a platform's name in its field for the name to count (see the header). */
function continuation(): string {
  return `(${[
    `[^a-z\\n]*${FIELD_END}`,
    `${SEPARATORS}[0-9]`,
    `${SEPARATOR}+${wordGroup([...STATEMENT_NOISE, ...FINANCIAL_WORDS])}`,
    `${SEPARATOR}+([a-z]+${SEPARATOR}+){0,${CITY_WORDS}}(${REGION_CODES.join('|')})[^a-z\\n]*(usa?[^a-z\\n]*)?${FIELD_END}`,
  ].join('|')})`;
}

/** The spellings as alternatives of names (no word start, no continuation). */
const namesOf = (spellings: readonly string[]): string => spellings.map(namePattern).join('|');

/**
 * One pattern matching any guard as a prefix from a word start. Guards sharing a first word
 * share it in the pattern ("kraken (jr|sushi|...)"): DuckDB compiles the pattern on every
 * execution, and its cost grows with the pattern's length.
 */
function anyPrefixOf(guards: readonly string[]): string {
  const byFirstWord = new Map<string, string[]>();
  for (const guard of guards) {
    const [first = '', ...rest] = wordsOf(guard).words;
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

/** Never matches: the text holds one field break, never two. */
const NO_NAME = '\\n\\n';

/** The rules as regular expressions, valid in RE2 (DuckDB) and JavaScript alike. */
export interface CompiledPlatformMatcher {
  /** Any platform's name followed by noise, not another trade: `before + names + after`. */
  platform: string;
  /** Any look-alike business name (guard). */
  guard: string;
  /** Around a list of name alternatives: the word start, and the continuation. */
  before: string;
  after: string;
  /** The names of the platforms without guards (alternatives), or a pattern matching nothing. */
  unguardedNames: string;
  /** Per platform with guards: its guard, and its names (alternatives). */
  guarded: ReadonlyArray<{ guard: string; names: string }>;
}

export function compilePlatformMatcher(
  platforms: readonly InvestmentPlatform[] = INVESTMENT_PLATFORMS,
): CompiledPlatformMatcher {
  const withGuards = platforms.filter((platform) => platform.guards.length > 0);
  const without = platforms.filter((platform) => platform.guards.length === 0);
  const before = `${WORD_START}(`;
  const after = `)${continuation()}`;
  return {
    platform: `${before}${namesOf(platforms.flatMap((platform) => platform.spellings))}${after}`,
    guard: anyPrefixOf(withGuards.flatMap((platform) => platform.guards)),
    before,
    after,
    unguardedNames: without.length
      ? namesOf(without.flatMap((platform) => platform.spellings))
      : NO_NAME,
    guarded: withGuards.map((platform) => ({
      guard: anyPrefixOf(platform.guards),
      names: namesOf(platform.spellings),
    })),
  };
}

// --- The same rules in JavaScript ------------------------------------------------------------------

/**
 * DuckDB's lower() as far as the patterns can tell: they read only a-z, 0-9 and the field
 * break, and besides A-Z only U+0130 (to "i") and the Kelvin sign U+212A (to "k") lower-case to
 * those in DuckDB (JavaScript would write U+0130 as "i" and a combining dot). Every other
 * character is a separator whatever its case.
 */
const lowerField = (value: string | null | undefined) =>
  (value ?? '')
    .replaceAll(FIELD_BREAK, ' ')
    .replace(/[A-Z\u0130\u212A]/g, (upper) => (upper === '\u0130' ? 'i' : upper.toLowerCase()));

/** platformTextSql, in JavaScript. */
export function platformText(
  merchantName: string | null | undefined,
  description: string | null | undefined,
): string {
  return `${lowerField(merchantName)}${FIELD_BREAK}${lowerField(description)}`;
}

interface PlatformRegExps {
  platform: RegExp;
  guard: RegExp;
  guarded: ReadonlyArray<{ guard: RegExp; names: string }>;
}

function regExpsOf(matcher: CompiledPlatformMatcher): PlatformRegExps {
  return {
    platform: new RegExp(matcher.platform),
    guard: new RegExp(matcher.guard),
    guarded: matcher.guarded.map(({ guard, names }) => ({ guard: new RegExp(guard), names })),
  };
}

const REGEXPS = new WeakMap<CompiledPlatformMatcher, PlatformRegExps>();
let defaultMatcher: CompiledPlatformMatcher | undefined;

/** namesInvestmentPlatformSql over platformTextSql, in JavaScript: the same patterns and steps. */
export function namesInvestmentPlatform(
  merchantName: string | null | undefined,
  description: string | null | undefined,
  matcher?: CompiledPlatformMatcher,
): boolean {
  if (!matcher) {
    defaultMatcher ??= compilePlatformMatcher();
    matcher = defaultMatcher;
  }
  let rules = REGEXPS.get(matcher);
  if (!rules) {
    rules = regExpsOf(matcher);
    REGEXPS.set(matcher, rules);
  }
  const text = platformText(merchantName, description);
  if (!rules.platform.test(text)) return false;
  if (rules.guarded.length === 0 || !rules.guard.test(text)) return true;
  const names = [
    matcher.unguardedNames,
    ...rules.guarded.filter(({ guard }) => !guard.test(text)).map(({ names }) => names),
  ];
  return new RegExp(`${matcher.before}${names.join('|')}${matcher.after}`).test(text);
}
