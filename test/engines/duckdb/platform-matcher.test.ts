import { DuckDBInstance, type DuckDBPreparedStatement } from '@duckdb/node-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INVESTMENT_PLATFORMS } from '../../../src/domain/platforms.ts';
import { namesInvestmentPlatformSql, platformTextSql } from '../../../src/sql/platform.ts';

// The matcher runs in DuckDB's RE2, exactly as the spending query embeds it.
let instance: DuckDBInstance;
let statement: DuckDBPreparedStatement;

beforeAll(async () => {
  instance = await DuckDBInstance.create(':memory:');
  const connection = await instance.connect();
  statement = await connection.prepare(
    `SELECT ${namesInvestmentPlatformSql(platformTextSql('$1::VARCHAR', '$2::VARCHAR'))} AS hit`,
  );
});
afterAll(() => instance.closeSync());

async function namesPlatform(merchantName: string | null, description: string): Promise<boolean> {
  statement.bind([merchantName, description]);
  const rows = (await statement.runAndReadAll()).getRowObjectsJson();
  return rows[0]?.hit === true;
}

/** Statement lines per platform, noise included, as banks print them. */
const PLATFORM_TEXTS: Record<string, Array<[string | null, string]>> = {
  Robinhood: [
    [null, 'ROBINHOOD DES:FUNDS ID:5XK2 INDN:JANE DOE CO ID:XXXXX PPD'],
    ['Robinhood', 'ACH DEBIT'],
  ],
  Vanguard: [
    [null, 'VANGUARD BUY INVESTMENT 012345'],
    [null, 'The Vanguard Group ACH'],
  ],
  'Fidelity Investments': [
    [null, 'FID BKG SVC LLC MONEYLINE 123456'],
    [null, 'FIDELITY'],
    ['Fidelity Investments', 'ELECTRONIC WITHDRAWAL'],
  ],
  'Charles Schwab': [
    [null, 'SCHWAB BROKERAGE MONEYLINK'],
    ['Charles Schwab', 'ONLINE TRANSFER'],
  ],
  'E*TRADE': [
    [null, 'E*TRADE SECURITIES ACH TRANSFER'],
    [null, 'ETRADE ACH 20260101'],
    [null, 'E-TRADE FUNDING'],
  ],
  'Interactive Brokers': [
    [null, 'INTERACTIVE BROKERS LLC DEPOSIT'],
    [null, 'IBKR*DEPOSIT'],
  ],
  Coinbase: [
    [null, 'COINBASE.COM 8889087930 CA'],
    [null, 'POS DEBIT COINBASE8889087930'],
    ['Coinbase', 'CRYPTO PURCHASE'],
  ],
  Kraken: [
    [null, 'KRAKEN.COM DEPOSIT'],
    [null, 'PAYWARD VENTURES INC'],
  ],
  Wealthfront: [[null, 'WEALTHFRONT EDI PYMNTS']],
  Betterment: [[null, 'BETTERMENT DES:AUTOMATED ID:1234']],
  Acorns: [[null, 'ACORNS INVEST DES:TRANSFER']],
  'M1 Finance': [
    [null, 'M1 FINANCE DES:ACH'],
    [null, 'M1FINANCE LLC'],
  ],
  Webull: [[null, 'WEBULL FINANCIAL LLC']],
  'TD Ameritrade': [[null, 'TD AMERITRADE CLEARING']],
  Merrill: [[null, 'MERRILL EDGE TRANSFER']],
  'Ally Invest': [
    [null, 'ALLY INVESTMENTS TRANSFER'],
    [null, 'ALLY INVST SEC ACH'],
  ],
  'SoFi Invest': [
    [null, 'SOFI SECURITIES DEPOSIT'],
    [null, 'SOFI INVEST DES:TRANSFER'],
  ],
  Stash: [
    [null, 'STASH INVESTMENTS 1234'],
    [null, 'STASH CAPITAL LLC DES:STASH'],
  ],
  Public: [
    [null, 'PUBLIC.COM DEPOSIT'],
    [null, 'OPEN TO THE PUBLIC INVESTING DES:ACH'],
  ],
  Gemini: [
    [null, 'GEMINI TRUST COMPANY'],
    [null, 'GEMINI.COM TRANSFER'],
  ],
  Binance: [
    [null, 'BINANCE.US PURCHASE'],
    [null, 'BAM TRADING SERVICES INC'],
  ],
  'Crypto.com': [
    [null, 'CRYPTO.COM VISA TOPUP'],
    [null, 'FORIS DAX INC'],
  ],
  eToro: [[null, 'ETORO USA LLC']],
  Firstrade: [[null, 'FIRSTRADE SECURITIES']],
  tastytrade: [[null, 'TASTYTRADE INC']],
  Ellevest: [[null, 'ELLEVEST DEPOSIT']],
  'Edward Jones': [[null, 'EDWARD JONES INVESTMENTS']],
  'T. Rowe Price': [[null, 'T. ROWE PRICE TRANSFER']],
  Bitstamp: [[null, 'BITSTAMP USA INC']],
  'Empower (Personal Capital)': [
    [null, 'PERSONAL CAPITAL DES:TRANSFER'],
    [null, 'EMPOWER RETIREMENT CONTRIB'],
    ['Empower Personal Wealth', 'ACH DEBIT'],
  ],
  Titan: [
    [null, 'TITAN INVEST DES:DEPOSIT'],
    [null, 'TITAN GLOBAL CAPITAL MGMT'],
  ],
  Fundrise: [[null, 'FUNDRISE DES:INVEST']],
  Wealthsimple: [[null, 'WEALTHSIMPLE INVEST']],
  moomoo: [[null, 'MOOMOO FINANCIAL INC']],
  Ameriprise: [[null, 'AMERIPRISE FINANCIAL SVCS']],
  'Morgan Stanley': [[null, 'MORGAN STANLEY ACH CONTRIB']],
  'Raymond James': [[null, 'RAYMOND JAMES & ASSOC']],
  'LPL Financial': [[null, 'LPL FINANCIAL TRANSFER']],
  'Wells Fargo Advisors': [[null, 'WELLS FARGO ADVISORS ACH']],
};

describe('investment platforms: a DEBIT naming one is a transfer, not spending', () => {
  it('every platform has statement examples', () => {
    expect(Object.keys(PLATFORM_TEXTS).sort()).toEqual(
      INVESTMENT_PLATFORMS.map((platform) => platform.name).sort(),
    );
  });

  for (const platform of INVESTMENT_PLATFORMS) {
    it(`${platform.name}: statement lines and every spelling match, in any case`, async () => {
      for (const [merchant, description] of PLATFORM_TEXTS[platform.name] ?? []) {
        expect(await namesPlatform(merchant, description), description).toBe(true);
        expect(
          await namesPlatform(merchant?.toLowerCase() ?? null, description.toLowerCase()),
        ).toBe(true);
      }
      for (const spelling of platform.spellings) {
        const text = `ACH DEBIT ${spelling.replace('*', '').toUpperCase()} 8889087930`;
        expect(await namesPlatform(null, text), text).toBe(true);
        expect(await namesPlatform(spelling.replace('*', ''), 'PAYMENT'), spelling).toBe(true);
      }
    });
  }
});

/** Words a transfer line puts after the platform's name: no guard may swallow them. */
const TRANSFER_WORDS = [
  'DEPOSIT',
  'TRANSFER',
  'DES:FUNDS',
  'INVEST',
  'AUTOMATIC INVESTMENT',
  'EARLY INVEST',
  'BUY',
  'ACH',
  'CONTRIBUTION',
  'PURCHASE',
  'SAVINGS',
  'SECURITIES',
  'BROKERAGE',
  'PAYMENT',
  'DEBIT',
  'WITHDRAWAL',
  'INC',
  'LLC',
  'CO',
  'ONLINE',
  'MONEYLINE',
  'FEDWIRE',
];

describe('investment platforms: transfer wordings after any spelling still name the platform', () => {
  for (const platform of INVESTMENT_PLATFORMS) {
    it(`${platform.name}`, async () => {
      for (const spelling of platform.spellings) {
        for (const word of TRANSFER_WORDS) {
          const text = `${spelling.replace('*', '').toUpperCase()} ${word} 20260105`;
          expect(await namesPlatform(null, text), text).toBe(true);
        }
      }
    });
  }
});

/** Businesses sharing a platform's name, as they appear on statements. */
const LOOKALIKES: Array<[string | null, string]> = [
  ['Les Schwab Tire Centers', 'LES SCHWAB TIRES #0432 BEND OR'],
  [null, 'LES SCHWAB #0432'],
  [null, 'SCHWAB TIRE CTR 123'],
  ['Fidelity Life', 'FIDELITY LIFE INS PREM'],
  ['Fidelity & Guaranty Life', 'FIDELITY & GUARANTY LIFE PREMIUM'],
  [null, 'FIDELITY AND GUARANTY LIFE'],
  [null, 'FIDELITY NATIONAL TITLE ESCROW'],
  [null, 'FIDELITY BANK LOAN PMT'],
  [null, 'SEATTLE KRAKEN TICKETS'],
  [null, 'KRAKEN RUM WEBSHOP'],
  [null, 'VANGUARD CLEANING SYSTEMS'],
  [null, 'ACORNS NURSERY FEES'],
  [null, 'FIDELITY NATL TITLE INS CO'],
  [null, 'FIDELITY & GTY LIFE PREM'],
  [null, 'FIDELITY SEC LIFE INS'],
  [null, 'FIDELITY EXPRESS BILL PAY'],
  ['Fidelity National Financial', 'FNF ESCROW'],
  [null, 'VANGUARD DENTAL CARE'],
  [null, 'VANGUARD UNIVERSITY TUITION'],
  ['Kraken Jr', 'KRAKEN JR SEAFOOD'],
  [null, 'KRAKEN SUSHI & RAMEN'],
  [null, 'THE KRAKEN TEAM STORE'],
  [null, 'LITTLE ACORNS LEARNING CTR'],
  [null, 'ACORNS PRE-SCHOOL TUITION'],
  [null, 'CHARLES SCHWAB FIELD OMAHA'],
  [null, 'TD AMERITRADE PARK CONCESSIONS'],
  [null, 'CRYPTO.COM ARENA PARKING'],
  [null, 'RAYMOND JAMES STADIUM TAMPA'],
  [null, 'EDWARD JONES DOME ST LOUIS'],
  [null, 'AMERIPRISE AUTO & HOME INS'],
  [null, 'FIDELITY SAVINGS & LOAN ASSN'],
  [null, 'FIDELITY & DEPOSIT CO OF MD'],
  [null, 'CAPITAL ONE PERSONAL CAPITAL ONE MOBILE PMT'],
];

describe('false-positive guards: businesses sharing a platform name stay spending', () => {
  it.each(LOOKALIKES)('%s / %s', async (merchant, description) => {
    expect(await namesPlatform(merchant, description)).toBe(false);
  });

  for (const platform of INVESTMENT_PLATFORMS) {
    for (const guard of platform.guards) {
      it(`guard "${guard}" (${platform.name}) overrides the platform name`, async () => {
        expect(await namesPlatform(null, `POS ${guard.toUpperCase()} #123`)).toBe(false);
        expect(await namesPlatform(guard, 'PURCHASE')).toBe(false);
      });
    }
  }

  it('no spelling or guard spans merchant name and description', async () => {
    expect(await namesPlatform('Fidelity', 'PAYMENT')).toBe(true); // not "fidelity payment"
    expect(await namesPlatform('Les', 'SCHWAB BROKERAGE')).toBe(true); // not "les schwab"
    expect(await namesPlatform('Joe E', 'TRADE SHOW BOOTH')).toBe(false); // not "e trade"
  });

  it('a guard only neutralises its own platform', async () => {
    expect(await namesPlatform('Robinhood', 'LES SCHWAB REFERRAL')).toBe(true);
  });

  it.each([
    [null, 'ROBIN HOOD PUB'],
    [null, 'THE TRADE DESK'],
    [null, 'FREE TRADE COFFEE'],
    [null, 'SCHWABENHAUS BAKERY'],
    [null, 'GOOGLE *GEMINI'],
    [null, 'PUBLIC STORAGE 1234'],
    [null, 'CRYPTOCOMICS'],
    // Platforms' name-sharers matched only by their platforms' full statement names.
    [null, 'ALLY BANK AUTO LOAN PMT'],
    ['Ally Financial', 'ALLY AUTO PAYMENT'],
    [null, 'SOFI LOAN PAYMENT'],
    [null, 'STASH TEA COMPANY'],
    [null, 'GEMINI RESTAURANT'],
    [null, 'GEMINI HOTEL & SUITES'],
    [null, 'TITAN MACHINERY'],
    [null, 'TITAN FITNESS'],
    [null, 'EMPOWER FIELD AT MILE HIGH'],
    [null, 'EMPOWER FINANCE CASH ADVANCE'],
    [null, 'MERRILL GARDENS SENIOR LIVING'],
    [null, 'PUBLIC SERVICE ELECTRIC & GAS'],
    [null, 'BETTER HOMES AND GARDENS'],
    ['Starbucks', 'STARBUCKS STORE 1234'],
  ])('no platform named: %s / %s', async (merchant, description) => {
    expect(await namesPlatform(merchant, description)).toBe(false);
  });
});
