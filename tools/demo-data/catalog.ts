/**
 * What a bank statement brings: merchants with their category, subcategory, MCC and a
 * typical amount, plus institutions, employers and names. Descriptions carry the noise
 * real statements have (store numbers, processor prefixes, phone numbers).
 */
import type { Category } from '../../src/domain/taxonomy.ts';
import type { Random } from './random.ts';

export interface Merchant {
  /** `null`: the statement line names no merchant. */
  merchant: string | null;
  describe: (random: Random) => string;
  category: Category;
  subcategory: string | null;
  mcc: string | null;
  /** Typical amount range in dollars. */
  min: number;
  max: number;
}

const m = (
  merchant: string | null,
  describe: string | ((random: Random) => string),
  category: Category,
  subcategory: string | null,
  mcc: string | null,
  min: number,
  max: number,
): Merchant => ({
  merchant,
  describe: typeof describe === 'string' ? () => describe : describe,
  category,
  subcategory,
  mcc,
  min,
  max,
});

const store = (prefix: string) => (random: Random) => `${prefix} #${random.int(100, 9999)}`;

/** Everyday card and debit purchases, grouped with a daily rate per average user. */
export const DISCRETIONARY: readonly (readonly [readonly Merchant[], number])[] = [
  [
    [
      m('Starbucks', store('STARBUCKS STORE'), 'Food and Drink', 'Coffee', '5814', 4, 9),
      m('Blue Bottle Coffee', 'SQ *BLUE BOTTLE COFFEE', 'Food and Drink', 'Coffee', '5814', 5, 12),
      m('Dunkin', store('DUNKIN'), 'Food and Drink', 'Coffee', '5814', 3, 8),
    ],
    0.35,
  ],
  [
    [
      m(
        'Chipotle',
        (r) => `TST* CHIPOTLE ${r.int(1000, 3999)}`,
        'Food and Drink',
        'Restaurants',
        '5812',
        10,
        24,
      ),
      m('Sweetgreen', 'SWEETGREEN ONLINE', 'Food and Drink', 'Restaurants', '5812', 12, 22),
      m("McDonald's", store("MCDONALD'S F"), 'Food and Drink', 'Fast Food', '5814', 6, 18),
      m("Joe's Pizza", "JOE'S PIZZA BROADWAY", 'Food and Drink', 'Restaurants', '5812', 15, 60),
      m('DoorDash', 'DOORDASH*THAI BASIL', 'Food and Drink', 'Restaurants', '5812', 18, 65),
      m(null, (r) => `SQ *FOOD TRUCK ${r.int(10, 99)}`, 'Food and Drink', null, '5812', 8, 20),
    ],
    0.45,
  ],
  [
    [
      m('Whole Foods Market', store('WHOLEFDS'), 'Food and Drink', 'Groceries', '5411', 25, 180),
      m(
        "Trader Joe's",
        (r) => `TRADER JOE S #${r.int(100, 999)}`,
        'Food and Drink',
        'Groceries',
        '5411',
        20,
        140,
      ),
      m('Safeway', store('SAFEWAY'), 'Food and Drink', 'Groceries', '5411', 15, 160),
      m('Kroger', store('KROGER'), 'Food and Drink', 'Groceries', '5411', 15, 160),
      m(
        'Costco',
        (r) => `COSTCO WHSE #${r.int(100, 1400)}`,
        'General Merchandise',
        'Superstores',
        '5300',
        60,
        320,
      ),
    ],
    0.3,
  ],
  [
    [
      m(
        'Amazon',
        (r) => `AMAZON.COM*${r.base36(9).toUpperCase()} AMZN.COM/BILL WA`,
        'General Merchandise',
        'Online Marketplaces',
        '5942',
        8,
        120,
      ),
      m(
        'Amazon',
        (r) => `AMAZON MKTPL*${r.base36(9).toUpperCase()} SEATTLE, WA`,
        'General Merchandise',
        'Online Marketplaces',
        '5942',
        8,
        90,
      ),
      m('Target', store('TARGET'), 'General Merchandise', 'Superstores', '5310', 12, 150),
      m(
        'Walmart',
        (r) => `WAL-MART #${r.int(1000, 5999)}`,
        'General Merchandise',
        'Superstores',
        '5311',
        10,
        140,
      ),
      m('Best Buy', store('BEST BUY'), 'General Merchandise', 'Electronics', '5732', 25, 600),
      m('Etsy', 'ETSY.COM', 'General Merchandise', null, '5999', 12, 80),
    ],
    0.3,
  ],
  [
    [
      m(
        'Uber',
        'UBER *TRIP HELP.UBER.COM',
        'Transportation',
        'Taxis and Ride Shares',
        '4121',
        9,
        45,
      ),
      m('Lyft', 'LYFT *RIDE SUN 8PM', 'Transportation', 'Taxis and Ride Shares', '4121', 8, 40),
      m('Shell', (r) => `SHELL OIL ${r.digits(11)}`, 'Transportation', 'Gas', '5542', 25, 75),
      m('Chevron', store('CHEVRON'), 'Transportation', 'Gas', '5542', 25, 80),
      m('SP+ Parking', 'SP+ PARKING 1042', 'Transportation', 'Parking', '7523', 6, 35),
    ],
    0.2,
  ],
  [
    [
      m('AMC Theatres', store('AMC'), 'Entertainment', 'Movies', '7832', 12, 45),
      m(
        'Ticketmaster',
        'TICKETMASTER 800-653-8000',
        'Entertainment',
        'Sporting Events and Concerts',
        '7922',
        45,
        250,
      ),
      m('Steam', 'STEAMGAMES.COM 4259522985', 'Entertainment', 'Video Games', '5816', 5, 60),
    ],
    0.05,
  ],
  [
    [
      m('Great Clips', store('GREAT CLIPS'), 'Personal Care', 'Hair and Beauty', '7230', 18, 40),
      m('Sephora', store('SEPHORA'), 'Personal Care', 'Hair and Beauty', '5977', 20, 120),
    ],
    0.04,
  ],
  [
    [
      m(
        'CVS Pharmacy',
        store('CVS/PHARMACY'),
        'Medical',
        'Pharmacies and Supplements',
        '5912',
        6,
        60,
      ),
      m('Walgreens', store('WALGREENS'), 'Medical', 'Pharmacies and Supplements', '5912', 6, 50),
      m('Kaiser Permanente', 'KAISER PERMANENTE COPAY', 'Medical', 'Primary Care', '8011', 20, 75),
      m(null, 'BRIGHT SMILES DENTAL', 'Medical', 'Dental Care', '8021', 80, 400),
    ],
    0.04,
  ],
  [
    [
      m('The Home Depot', store('THE HOME DEPOT'), 'Home Improvement', 'Hardware', '5200', 15, 300),
      m("Lowe's", store("LOWE'S"), 'Home Improvement', 'Hardware', '5200', 15, 250),
      m('IKEA', 'IKEA US EAST 211', 'Home Improvement', 'Furniture', '5712', 40, 500),
    ],
    0.04,
  ],
  [
    [
      m(
        'Delta Air Lines',
        (r) => `DELTA AIR ${r.digits(13)}`,
        'Travel',
        'Flights',
        '3058',
        120,
        650,
      ),
      m('United Airlines', (r) => `UNITED ${r.digits(13)}`, 'Travel', 'Flights', '3000', 120, 700),
      m('Airbnb', 'AIRBNB * HMQ3RZ8TXA', 'Travel', 'Lodging', '7011', 150, 900),
      m('Marriott', 'MARRIOTT BOSTON COPLEY', 'Travel', 'Lodging', '3509', 180, 800),
    ],
    0.015,
  ],
  [
    [
      m(
        'DMV',
        'CA DMV FEE',
        'Government and Non-Profit',
        'Government Departments and Agencies',
        '9399',
        30,
        250,
      ),
      m(
        'USPS',
        'USPS PO 0523470135',
        'Government and Non-Profit',
        'Postage and Shipping',
        '9402',
        5,
        30,
      ),
      m(
        'American Red Cross',
        'AMERICAN RED CROSS DONATION',
        'Government and Non-Profit',
        'Donations',
        '8398',
        25,
        100,
      ),
    ],
    0.015,
  ],
  [
    [
      m(null, (r) => `CHECK #${r.int(1001, 1999)}`, 'Other', null, null, 40, 600),
      m(null, 'MISC DEBIT', 'Other', 'Other', null, 5, 80),
      m(
        'Unknown',
        (r) => `POS PURCHASE ${r.digits(4)} UNKNOWN`,
        'General Merchandise',
        null,
        '5999',
        5,
        60,
      ),
      m(
        'Venmo',
        (r) => `VENMO PAYMENT ${r.digits(10)}`,
        'Transfer Out',
        'Peer to Peer',
        null,
        10,
        120,
      ),
      m(null, 'ZELLE PAYMENT TO JOHN S', 'Transfer Out', 'Peer to Peer', null, 20, 200),
      m(
        'The UPS Store',
        store('THE UPS STORE'),
        'General Services',
        'Postage and Shipping',
        '7399',
        8,
        45,
      ),
      m(null, 'CLEANERS & TAILOR 42ND ST', 'General Services', null, '7216', 12, 60),
    ],
    0.06,
  ],
];

/** Real spending at businesses that share a name with an investment platform. */
export const GUARD_SHOPS: readonly Merchant[] = [
  m(
    'Les Schwab Tire Centers',
    (r) => `LES SCHWAB TIRE CENTER #${r.int(100, 499)}`,
    'Transportation',
    'Auto Maintenance',
    '7538',
    90,
    900,
  ),
  m(
    'Vanguard Cleaning Systems',
    'VANGUARD CLEANING SYSTEMS',
    'General Services',
    'Cleaning',
    '7349',
    80,
    240,
  ),
  m(
    'Seattle Kraken',
    'SEATTLE KRAKEN TICKETS',
    'Entertainment',
    'Sporting Events and Concerts',
    '7941',
    60,
    300,
  ),
];

export interface Subscription {
  merchant: string;
  description: string;
  category: Category;
  subcategory: string | null;
  mcc: string | null;
  cents: number;
  cadence: 'monthly' | 'weekly';
}

const sub = (
  merchant: string,
  description: string,
  category: Category,
  subcategory: string | null,
  mcc: string | null,
  cents: number,
  cadence: 'monthly' | 'weekly' = 'monthly',
): Subscription => ({ merchant, description, category, subcategory, mcc, cents, cadence });

/** Recurring charges with stable amounts. */
export const SUBSCRIPTIONS: readonly Subscription[] = [
  sub('Netflix', 'NETFLIX.COM 866-579-7172', 'Entertainment', 'TV and Movies', '4899', 1549),
  sub('Spotify', 'SPOTIFY USA 877-778-1161', 'Entertainment', 'Music and Audio', '5815', 1199),
  sub('Hulu', 'HULU 877-8244858', 'Entertainment', 'TV and Movies', '4899', 1799),
  sub('Apple', 'APPLE.COM/BILL 866-712-7753', 'General Services', null, '5818', 299),
  sub(
    'Planet Fitness',
    'PLANET FITNESS CLUB FEES',
    'Personal Care',
    'Gyms and Fitness Centers',
    '7997',
    2499,
  ),
  sub(
    'Equinox',
    'EQUINOX 1095 6TH AVE',
    'Personal Care',
    'Gyms and Fitness Centers',
    '7997',
    24000,
  ),
  sub(
    'The New York Times',
    'NYTIMES*NYTIMES DIGITAL',
    'Entertainment',
    'News',
    '5994',
    400,
    'weekly',
  ),
  sub(
    'HelloFresh',
    'HELLOFRESH 646-846-3663',
    'Food and Drink',
    'Groceries',
    '5411',
    6999,
    'weekly',
  ),
  sub('GEICO', 'GEICO *AUTO 800-841-3000', 'General Services', 'Insurance', '6300', 13212),
  sub('Fidelity Life', 'FIDELITY LIFE INS PREM', 'General Services', 'Insurance', '6300', 3850),
  sub(
    'Fidelity & Guaranty Life',
    'FIDELITY & GUARANTY LIFE',
    'General Services',
    'Insurance',
    '6300',
    6125,
  ),
];

/** A biller of the recurring streams beyond the monthly and weekly subscriptions. */
export interface Biller {
  merchant: string;
  description: string;
  category: Category;
  subcategory: string | null;
  mcc: string | null;
}

const biller = (
  merchant: string,
  description: string,
  category: Category,
  subcategory: string | null,
  mcc: string | null,
): Biller => ({ merchant, description, category, subcategory, mcc });

/** Quarterly, half-yearly, yearly and semimonthly bills, and subscriptions that change. */
export const BILLERS = {
  water: biller(
    'Seattle Public Utilities',
    'SEATTLE PUBLIC UTIL WATER/SWR',
    'Rent and Utilities',
    'Water',
    '4900',
  ),
  insurance: biller('Lemonade', 'LEMONADE INSURANCE CO', 'General Services', 'Insurance', '6300'),
  membership: biller(
    'Amazon Prime',
    'AMAZON PRIME*MEMBERSHIP',
    'General Merchandise',
    'Online Marketplaces',
    '5968',
  ),
  dogWalker: biller('Rover', 'ROVER.COM DOG WALKING', 'General Services', 'Pet Care', '0742'),
  newSubscription: biller(
    'Disney+',
    'DISNEY PLUS 888-905-7888',
    'Entertainment',
    'TV and Movies',
    '4899',
  ),
  cancelled: biller(
    'Peloton',
    'PELOTON* MEMBERSHIP',
    'Personal Care',
    'Gyms and Fitness Centers',
    '7997',
  ),
  priceRise: biller(
    'YouTube Premium',
    'GOOGLE *YOUTUBEPREMIUM',
    'Entertainment',
    'TV and Movies',
    '4899',
  ),
  movedAccount: biller(
    'Audible',
    'AUDIBLE*ADBL 888-283-5051',
    'Entertainment',
    'Music and Audio',
    '5815',
  ),
} as const satisfies Record<string, Biller>;

export interface Platform {
  name: string;
  /** DEBIT lines moving money to the platform (not spending). */
  debits: readonly { description: (random: Random) => string; merchant: string | null }[];
  /** CREDIT lines from the platform back to the bank (kept as income). */
  credit: { description: string; category: Category; subcategory: string };
  accountSubtype: 'brokerage' | 'crypto' | 'ira';
}

const debit = (description: string | ((random: Random) => string), merchant: string | null) => ({
  description: typeof description === 'string' ? () => description : description,
  merchant,
});

export const PLATFORMS: readonly Platform[] = [
  {
    name: 'Robinhood',
    debits: [
      debit((r) => `ROBINHOOD DES:FUNDS ID:${r.digits(10)}`, null),
      debit('ROBINHOOD', 'Robinhood'),
    ],
    credit: {
      description: 'ROBINHOOD DES:WITHDRAWAL',
      category: 'Transfer In',
      subcategory: 'Investment and Retirement Funds',
    },
    accountSubtype: 'brokerage',
  },
  {
    name: 'Coinbase',
    debits: [debit('COINBASE.COM 8889087930', null), debit('COINBASE INC', 'Coinbase')],
    credit: {
      description: 'COINBASE.COM SELL 8889087930',
      category: 'Transfer In',
      subcategory: 'Investment and Retirement Funds',
    },
    accountSubtype: 'crypto',
  },
  {
    name: 'Vanguard',
    debits: [debit('VANGUARD BUY INVESTMENT', 'Vanguard'), debit('VANGUARD EDI PYMNTS', null)],
    credit: {
      description: 'VANGUARD DIVIDEND PAYMENT',
      category: 'Income',
      subcategory: 'Dividends',
    },
    accountSubtype: 'ira',
  },
  {
    name: 'Fidelity Investments',
    debits: [debit('FID BKG SVC LLC MONEYLINE', null), debit('FIDELITY', 'Fidelity')],
    credit: {
      description: 'FID BKG SVC LLC MONEYLINE CREDIT',
      category: 'Transfer In',
      subcategory: 'Investment and Retirement Funds',
    },
    accountSubtype: 'brokerage',
  },
  {
    name: 'Charles Schwab',
    debits: [
      debit('SCHWAB BROKERAGE MONEYLINK', 'Charles Schwab'),
      debit('SCHWAB BROKERAGE', null),
    ],
    credit: {
      description: 'SCHWAB BROKERAGE DIVIDEND',
      category: 'Income',
      subcategory: 'Dividends',
    },
    accountSubtype: 'brokerage',
  },
];

/** More platforms seen only as outgoing transfers. */
export const OTHER_PLATFORM_DEBITS: readonly { description: string; merchant: string | null }[] = [
  { description: 'E*TRADE SECURITIES ACH', merchant: 'E*TRADE' },
  { description: 'WEALTHFRONT EDI PYMNTS', merchant: 'Wealthfront' },
  { description: 'BETTERMENT DES:INVESTMENT', merchant: null },
  { description: 'ACORNS INVEST', merchant: 'Acorns' },
  { description: 'M1 FINANCE DES:TRANSFER', merchant: null },
  { description: 'KRAKEN.COM PURCHASE', merchant: 'Kraken' },
  { description: 'WEBULL FINANCIAL LLC', merchant: 'Webull' },
  { description: 'INTERACTIVE BROKERS ACH', merchant: 'Interactive Brokers' },
];

export const BANKS = [
  'Chase',
  'Bank of America',
  'Wells Fargo',
  'Citibank',
  'US Bank',
  'PNC',
  'Ally Bank',
  'SoFi',
];
export const CARD_ISSUERS = ['American Express', 'Capital One', 'Discover', 'Chase', 'Citi'];
export const PAYROLL_PROVIDERS = ['ADP', 'Gusto', 'Paychex', 'Workday', 'Rippling'];
export const EMPLOYERS = [
  'Acme Robotics Inc',
  'Northwind Traders',
  'Globex Corporation',
  'Initech LLC',
  'Umbrella Health',
  'Stark Logistics',
  'Hooli',
  'Pied Piper Inc',
  'Contoso Ltd',
  'Wayne Enterprises',
];
export const LANDLORDS = [
  'Avalon Communities',
  'Greystar',
  'Equity Residential',
  'Essex Property Trust',
];
export const UTILITIES = [
  {
    merchant: 'PG&E',
    description: 'PGANDE WEB ONLINE',
    subcategory: 'Gas and Electricity',
    mcc: '4900',
  },
  {
    merchant: 'Con Edison',
    description: 'CON ED OF NY INTELL CK',
    subcategory: 'Gas and Electricity',
    mcc: '4900',
  },
  {
    merchant: 'Duke Energy',
    description: 'DUKE ENERGY PAYMENT',
    subcategory: 'Gas and Electricity',
    mcc: '4900',
  },
];
export const INTERNET = [
  { merchant: 'Comcast Xfinity', description: 'COMCAST CABLE COMM', mcc: '4899' },
  { merchant: 'Verizon Fios', description: 'VERIZON*FIOS ONLINE', mcc: '4899' },
];
export const PHONE = [
  { merchant: 'T-Mobile', description: 'T-MOBILE PCS SVC', mcc: '4814' },
  { merchant: 'Verizon Wireless', description: 'VZWRLSS*APOCC VISB', mcc: '4814' },
];

export const FIRST_NAMES = [
  'Ana',
  'Ben',
  'Chloé',
  'David',
  'Emma',
  'Farid',
  'Grace',
  'Hiro',
  'Isabel',
  'Jamal',
  'Keiko',
  'Liam',
  'Maya',
  'Noah',
  'Olivia',
  'Priya',
  'Quinn',
  'Rosa',
  'Sam',
  'Tariq',
  'Uma',
  'Victor',
  'Wen',
  'Yusuf',
  'Zoe',
];
export const LAST_NAMES = [
  'Smith',
  'García',
  'Nguyen',
  'Johnson',
  "O'Brien",
  'Kim',
  'Patel',
  'Müller',
  'Rossi',
  'Okafor',
  'Chen',
  'Silva',
  'Novak',
  'Haddad',
  'Larsen',
];
