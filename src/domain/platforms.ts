/**
 * Investment and crypto platforms (docs/api.md, "Investment-platform transfers"): a DEBIT whose
 * merchant name or description names one is a transfer to savings, not spending. The rules are
 * data, kept here only: the platforms (spellings and guards) and the words of other trades. They
 * compile to regular expressions that DuckDB's RE2 evaluates in the query (and JavaScript's
 * RegExp identically, `namesInvestmentPlatform`).
 *
 * A transaction names a platform when one of the platform's spellings appears in its merchant
 * name or description at a word start and ends at a word end (digits may touch it:
 * "COINBASE8889087930", "FIDELITY401K"), and no look-alike of that platform appears in either
 * field. What follows the name does not matter otherwise: statements add codes, product names and
 * the rest of a legal name ("T.ROWE PRICE RPS", "SCHWAB ONE DES:TRANSFER", "MERRILL LYNCH
 * PIERCE FENNER", "FIDELITY XYZQ 0042") far more often than a business shares the name.
 *
 * A look-alike of a platform is a business sharing its name:
 *
 * - one of the platform's spellings followed, within its field, by a word of `TRADE_WORDS` as
 *   the first or second word after it ("ROBINHOOD PIZZA CO", "COINBASE CAFE", "FIDELITY BANK LOAN
 *   PMT", "VANGUARD HAIR SALON", "MERRILL GARDENS SENIOR LIVING"); digits and punctuation
 *   separate words and are not words;
 * - or one of its guards: a look-alike the trade words do not reveal ("LES SCHWAB", "FIDELITY
 *   NATIONAL", "SEATTLE KRAKEN", "LITTLE ACORNS").
 *
 * A look-alike found in either field rules its own platform out for the whole transaction
 * (merchant "Les Schwab Tire Centers" with description "SCHWAB #0123 BEND OR", merchant
 * "Robinhood Pizza Co" with description "ROBINHOOD #12"); another platform named beside it still
 * counts (merchant "Robinhood", description "LES SCHWAB REFERRAL").
 *
 * Spelling syntax: lower-case letters and digits; a space stands for any run of separators
 * (spaces, punctuation, `*`, none at all), so `e trade` covers "E*TRADE", "E-TRADE" and "ETRADE".
 * A spelling matches after a non-letter (digits may touch it: "8889COINBASE"); a trailing `*`
 * lets it end inside a word ("STASH INVESTMENTS" for `stash invest*`), the rest of that word
 * being part of the name. Guards match from a word start, as prefixes. Matching is on the
 * lower-cased fields (platformTextSql; platformText is the same in JavaScript).
 */
import { foldCase } from './case-fold.ts';

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

// --- Words of other trades -----------------------------------------------------------------------

/**
 * Words that name a trade other than investing, as they follow a look-alike's shared name:
 * food and drink, hospitality and leisure, building trades and home services, retail, care
 * (children, health, animals, the body), cars and travel, property, banks, lenders and insurers
 * ("a bank is another trade"). Syntax as a spelling's single word (`restaurant*`: prefix).
 *
 * Never a word a transfer line puts after a platform's name: statement fields and money
 * movement (`DES`, `ACH`, `TRANSFER`, `DEPOSIT`, `BUY`, `AUTO` for automatic), legal forms
 * (`INC`, `CO`, `GROUP`), the investment trade (`INVESTMENTS`, `BROKERAGE`, `MARKETS`,
 * `SECURITIES`, `CAPITAL`, `TRUST`, `SAVINGS`, `SERVICES`), places (`PARK`, `CENTER`, `STATION`)
 * or platforms' products (`ONE`, `GOLD`, `CARD`, `CASH`, `COLLEGE` of 529 plans, `HEALTH` of
 * health savings accounts, `GAS` of crypto fees, `INSURED` of insured cash), nor a word of many
 * trades (`HOME`, `LIFE`, `CREDIT`): those keep the name a platform, and the look-alikes they
 * would reveal are guards.
 */
export const TRADE_WORDS: readonly string[] = [
  // Food and drink.
  ...['restaurant*', 'pizza*', 'cafe', 'caffe', 'coffee*', 'espresso', 'tea', 'teahouse'],
  ...['bakery', 'bakeshop', 'bagel*', 'donut*', 'doughnut*', 'deli', 'delicatessen', 'diner'],
  ...['grill', 'grille', 'bar', 'bbq', 'barbecue', 'bistro', 'brasserie', 'kitchen', 'eatery'],
  ...['cantina', 'taqueria', 'taco*', 'burrito*', 'burger*', 'sushi', 'ramen', 'noodle*', 'pho'],
  ...['sandwich*', 'subs', 'wings', 'chicken', 'steak*', 'seafood', 'oyster*', 'crab', 'lobster'],
  ...['fish', 'poke', 'creamery', 'gelato', 'yogurt', 'juice', 'smoothie*', 'brew*', 'pub'],
  ...['tavern', 'saloon', 'lounge', 'cocktail*', 'winery', 'vineyard*', 'distillery', 'taproom'],
  ...['catering', 'caterer*', 'buffet', 'food', 'foods', 'eats', 'cuisine', 'kabob', 'kebab'],
  ...['gyro*', 'falafel', 'dumpling*', 'wok', 'curry', 'patisserie', 'cookie*', 'cupcake*'],
  ...['candy', 'chocolate*', 'confection*', 'snack*', 'cajun'],
  // Hospitality, leisure and events.
  ...['hotel*', 'motel*', 'inn', 'suites', 'resort*', 'lodge', 'lodging', 'hostel', 'casino'],
  ...['arena', 'stadium', 'theater', 'theatre', 'cinema*', 'movies', 'bowling', 'golf', 'arcade'],
  ...['tours', 'travel', 'tickets', 'parking', 'club', 'events', 'museum', 'zoo', 'aquarium'],
  ...['campground', 'marina', 'charters', 'limo*', 'taxi', 'cab', 'shuttle', 'airlines'],
  ...['airways', 'rum', 'hockey', 'tattoo*', 'games'],
  // Building trades and home services.
  ...['plumbing', 'plumber*', 'electric*', 'roofing', 'roofer*', 'construction', 'contracting'],
  ...['contractor*', 'builders', 'remodel*', 'renovation*', 'hvac', 'heating', 'cooling'],
  ...['painting', 'painters', 'drywall', 'flooring', 'carpet*', 'tile', 'tiles', 'concrete'],
  ...['masonry', 'paving', 'asphalt', 'fence', 'fencing', 'landscap*', 'lawn*', 'garden*'],
  ...['pest', 'exterminat*', 'termite', 'cleaning', 'cleaners', 'janitorial', 'maid*'],
  ...['carpentry', 'cabinet*', 'glass', 'locksmith', 'handyman', 'septic', 'welding', 'pools'],
  ...['solar', 'moving', 'movers', 'hauling', 'junk', 'storage', 'towing', 'laundry'],
  ...['laundromat', 'tailor*', 'alterations', 'repair*', 'photography', 'studio*', 'printing'],
  // Retail.
  ...['store', 'stores', 'shop', 'shoppe', 'shopping', 'mart', 'outlet', 'boutique', 'grocery'],
  ...['groceries', 'supermarket', 'liquor*', 'wine', 'wines', 'beer', 'spirits', 'florist*'],
  ...['flowers', 'floral', 'gifts', 'books', 'bookstore', 'hardware', 'lumber', 'furniture'],
  ...['mattress*', 'appliance*', 'jewel*', 'apparel', 'clothing', 'fashion*', 'shoes', 'boots'],
  ...['sporting', 'sports', 'toys', 'vape', 'smoke', 'tobacco', 'pawn', 'thrift', 'optical'],
  ...['eyewear', 'pharmacy', 'drug', 'drugs', 'cosmetic*', 'electronics', 'bikes', 'bicycle*'],
  ...['cycles', 'guitar*', 'gallery', 'crafts', 'fabric*', 'farm', 'farms'],
  ...['ranch', 'orchard*', 'dairy', 'meats', 'butcher', 'bait', 'tackle', 'outfitters', 'supply'],
  ...['supplies', 'wholesale', 'depot', 'warehouse', 'rental', 'rentals', 'webshop'],
  // Care: children, health, animals, the body, later life.
  ...['daycare', 'childcare', 'children', 'nursery', 'preschool', 'kindergarten', 'montessori'],
  ...['tutoring', 'school', 'academy', 'university', 'dental', 'dentist*', 'orthodont*', 'clinic'],
  ...['medical', 'hospital', 'pediatric*', 'physician*', 'doctors', 'chiropract*', 'therapy'],
  ...['rehab*', 'optometr*', 'vet', 'vets', 'veterinar*', 'animal*', 'pet', 'pets', 'grooming'],
  ...['kennel*', 'salon', 'hair', 'barber*', 'nails', 'beauty', 'spa', 'massage', 'tanning'],
  ...['piercing', 'skincare', 'waxing', 'lashes', 'fitness', 'gym', 'yoga', 'pilates'],
  ...['crossfit', 'karate', 'dance', 'senior', 'assisted', 'nursing', 'hospice', 'funeral'],
  ...['mortuary', 'cemetery', 'care', 'caregivers', 'charity', 'charitable', 'church'],
  // Cars.
  ...['automotive', 'motors', 'car', 'cars', 'carwash', 'tire*', 'tyre*', 'lube', 'muffler*'],
  ...['collision', 'autobody', 'fuel'],
  // Property.
  ...['realty', 'realtor*', 'propert*', 'apartment*', 'apts', 'homes', 'housing', 'leasing'],
  // Banks, lenders and insurers.
  ...['bank', 'banking', 'loan', 'loans', 'lending', 'lender*', 'mortgage*', 'insurance'],
  ...['insurer', 'insurers', 'assurance', 'title', 'escrow', 'warranty'],
];

/** How many words after a platform's name are read for a trade word ("ROBINHOOD FAMILY DENTAL"). */
export const NAME_TAIL_WORDS = 2;

// --- Compiling the rules -------------------------------------------------------------------------

/** One separator: not a letter, not a digit, not the break between the two fields. */
const SEPARATOR = '[^a-z0-9\\n]';
const SEPARATORS = `${SEPARATOR}*`;
const WORD_START = '(^|[^a-z])';
const WORD_END = '([^a-z]|$)';
/** Between words of one field, after a name: digits and punctuation, never the field break. */
const BETWEEN_WORDS = '[^a-z\\n]+';
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
      throw new Error(`invalid trade word: ${entry}`);
    }
    (prefix ? prefixes : whole).push(words[0] as string);
  }
  return `((${whole.join('|')})${WORD_END}|(${prefixes.join('|')}))`;
}

/** The spellings as alternatives of names (no word start, no word end). */
const namesOf = (spellings: readonly string[]): string => spellings.map(namePattern).join('|');

/**
 * Any guard, as a prefix (no word start). Guards sharing a first word share it in the pattern
 * ("kraken (jr|sushi|...)"): DuckDB compiles the pattern on every execution, and its cost grows
 * with the pattern's length.
 */
function anyGuardOf(guards: readonly string[]): string {
  const byFirstWord = new Map<string, string[]>();
  for (const guard of guards) {
    const [first = '', ...rest] = wordsOf(guard).words;
    const tails = byFirstWord.get(first) ?? [];
    tails.push(rest.join(SEPARATORS));
    byFirstWord.set(first, tails);
  }
  return [...byFirstWord]
    .map(([first, tails]) =>
      // A one-word guard (empty tail) covers every longer guard of that word.
      tails.includes('') ? first : `${first}${SEPARATORS}(${[...new Set(tails)].join('|')})`,
    )
    .join('|');
}

/** A spelling's or a guard's key: its words run together ("e trade" -> "etrade"). */
const keyOf = (spelling: string) => wordsOf(spelling).words.join('');

/** A name or a look-alike as written, as keys are written: letters and digits only. */
export const KEY_TEXT = '[^a-z0-9]';

/** Which platform a written name or look-alike is: by its key (see CompiledPlatformMatcher). */
export interface PlatformKey {
  key: string;
  /** A spelling ending in `*` (or a guard): the written text starts with the key. */
  prefix: boolean;
  /** The platform's index in the list. */
  platform: number;
}

/** The rules as regular expressions, valid in RE2 (DuckDB) and JavaScript alike. */
export interface CompiledPlatformMatcher {
  /** Any platform's name, from a word start to a word end. */
  platform: string;
  /**
   * Group 2 is a name as written from a word start, with the letters that follow it: a name
   * when its key text (KEY_TEXT removed) is a spelling's key, or starts with a prefix
   * spelling's key ("robinhoods" is none). The match ends on the name, so a name right after
   * it is read too.
   */
  names: string;
  /**
   * Group 2 is a look-alike as written from a word start: a name followed, as the first or
   * second word after it in its field, by a trade word, or a guard. Its key text starts with
   * the key of its platform's spelling or guard.
   */
  lookalikes: string;
  nameKeys: readonly PlatformKey[];
  lookalikeKeys: readonly PlatformKey[];
}

export function compilePlatformMatcher(
  platforms: readonly InvestmentPlatform[] = INVESTMENT_PLATFORMS,
): CompiledPlatformMatcher {
  const allNames = namesOf(platforms.flatMap((platform) => platform.spellings));
  const guards = platforms.flatMap((platform) => platform.guards);
  const tail = `(${BETWEEN_WORDS}[a-z]+){0,${NAME_TAIL_WORDS - 1}}${BETWEEN_WORDS}${wordGroup(TRADE_WORDS)}`;
  const nameKeys = platforms.flatMap((platform, index) =>
    platform.spellings.map((spelling) => ({
      key: keyOf(spelling),
      prefix: wordsOf(spelling).prefix,
      platform: index,
    })),
  );
  const guardKeys = platforms.flatMap((platform, index) =>
    platform.guards.map((guard) => ({ key: keyOf(guard), prefix: true, platform: index })),
  );
  return {
    platform: `${WORD_START}(${allNames})${WORD_END}`,
    names: `${WORD_START}((${allNames})[a-z]*)`,
    lookalikes: `${WORD_START}((${allNames})${tail}${guards.length ? `|${anyGuardOf(guards)}` : ''})`,
    nameKeys,
    lookalikeKeys: [...nameKeys.map((key) => ({ ...key, prefix: true })), ...guardKeys],
  };
}

// --- The same rules in JavaScript ------------------------------------------------------------------

/** A field as platformTextSql writes it: lower-cased as DuckDB does, line breaks as spaces. */
const lowerField = (value: string | null | undefined) =>
  foldCase(value ?? '').replaceAll(FIELD_BREAK, ' ');

/** platformTextSql, in JavaScript. */
export function platformText(
  merchantName: string | null | undefined,
  description: string | null | undefined,
): string {
  return `${lowerField(merchantName)}${FIELD_BREAK}${lowerField(description)}`;
}

/** The platform of a written name or look-alike: the first key it is (or starts with). */
function platformOf(written: string, keys: readonly PlatformKey[]): number | undefined {
  const text = written.replace(new RegExp(KEY_TEXT, 'g'), '');
  return keys.find(({ key, prefix }) => (prefix ? text.startsWith(key) : text === key))?.platform;
}

interface PlatformRegExps {
  platform: RegExp;
  names: RegExp;
  lookalikes: RegExp;
}

const REGEXPS = new WeakMap<CompiledPlatformMatcher, PlatformRegExps>();
let defaultMatcher: CompiledPlatformMatcher | undefined;

/** namesInvestmentPlatformSql over platformTextSql, in JavaScript: the same patterns and steps. */
export function namesInvestmentPlatform(
  merchantName: string | null | undefined,
  description: string | null | undefined,
  matcher?: CompiledPlatformMatcher,
): boolean {
  defaultMatcher ??= compilePlatformMatcher();
  const rules = matcher ?? defaultMatcher;
  let regExps = REGEXPS.get(rules);
  if (!regExps) {
    regExps = {
      platform: new RegExp(rules.platform),
      names: new RegExp(rules.names, 'g'),
      lookalikes: new RegExp(rules.lookalikes, 'g'),
    };
    REGEXPS.set(rules, regExps);
  }
  const text = platformText(merchantName, description);
  if (!regExps.platform.test(text)) return false;
  // As regexp_extract_all: leftmost-first matches, each search starting where the last ended.
  const written = (pattern: RegExp) => [...text.matchAll(pattern)].map((match) => match[2] ?? '');
  const ruledOut = new Set(
    written(regExps.lookalikes).map((lookalike) => platformOf(lookalike, rules.lookalikeKeys)),
  );
  return written(regExps.names).some((name) => {
    const platform = platformOf(name, rules.nameKeys);
    return platform !== undefined && !ruledOut.has(platform);
  });
}
