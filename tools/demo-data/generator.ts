/**
 * Deterministic demo data in the data contract's CSV format. Each user is generated from
 * its own PRNG stream (seed + index) and written before the next one, so output is
 * byte-identical for the same arguments and memory stays bounded at any size.
 * Amounts are integer cents throughout; they become decimal strings only when written.
 */
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { COLUMNS, type TableName } from '../../src/contract/tables.ts';
import { namesInvestmentPlatform } from '../../src/domain/platforms.ts';
import type { Category } from '../../src/domain/taxonomy.ts';
import {
  BANKS,
  BILLERS,
  type Biller,
  CARD_ISSUERS,
  DISCRETIONARY,
  EMPLOYERS,
  FIRST_NAMES,
  GUARD_SHOPS,
  INTERNET,
  LANDLORDS,
  LAST_NAMES,
  type Merchant,
  OTHER_PLATFORM_DEBITS,
  PAYROLL_PROVIDERS,
  PHONE,
  PLATFORMS,
  type Platform,
  SUBSCRIPTIONS,
  type Subscription,
  UTILITIES,
} from './catalog.ts';
import { type CsvValue, CsvWriter } from './csv-writer.ts';
import {
  addMonths,
  dayInMonth,
  isoDay,
  isoTimestamp,
  monthsBetween,
  parseDay,
  weekday,
  yearMonth,
} from './days.ts';
import { Random } from './random.ts';

/** Fixed, so output never depends on the wall clock. */
export const DEFAULT_END_DATE = '2026-11-20';
/** Recurring bills are scheduled this far past the end date ("future-dated are listed"). */
const SCHEDULED_AHEAD_DAYS = 14;

export const FIXTURE_TABLES = [
  'users',
  'links',
  'accounts',
  'transactions',
  'balances',
  'pay_statements',
  'liabilities',
] as const satisfies readonly TableName[];
type FixtureTable = (typeof FIXTURE_TABLES)[number];

export interface FixtureOptions {
  users: number;
  months: number;
  seed: string;
  outDir: string;
  /** YYYY-MM-DD, the last day of history; default DEFAULT_END_DATE. */
  end?: string;
  /** Adds one more user ("Heavy User", heavy.user@example.com) with about this many transactions. */
  heavyUserTransactions?: number;
  onProgress?: (line: string) => void;
}

export interface FixtureSummary {
  start: string;
  end: string;
  counts: Record<FixtureTable, number>;
  heavyUserId: string | null;
}

type Direction = 'DEBIT' | 'CREDIT';
type AccountType = 'depository' | 'credit' | 'loan' | 'investment';
type LoanKind = 'mortgage' | 'student_loan' | 'auto_loan';

interface Account {
  id: string;
  linkId: string;
  name: string;
  mask: string;
  type: AccountType;
  subtype: string;
  openingCents: number;
  creditLimitCents: number | null;
  aprBasisPoints: number;
  liability: {
    kind: 'credit_card' | LoanKind;
    paymentCents: number;
    principalCents: number | null;
    dueDate: number;
  } | null;
}

/** The share of generated people whose spending runs past their pay, on purpose. */
const TROUBLED_SHARE = 0.08;

interface Txn {
  day: number;
  account: Account;
  cents: number;
  direction: Direction;
  description: string;
  merchant: string | null;
  category: Category;
  subcategory: string | null;
  mcc: string | null;
  hidden: boolean;
  internal: boolean;
  /** Where its ids are drawn from when not the user's own stream (the bills', recurringBills). */
  ids?: Random;
}

interface Window {
  start: number;
  end: number;
  horizon: number;
}

/** Which features a user has; the first five users get fixed profiles so a small set covers everything. */
interface Profile {
  institutionLinks: number;
  payroll: boolean;
  payFrequency: 'biweekly' | 'monthly';
  housing: 'rent' | 'mortgage-connected' | 'mortgage-external';
  cards: number;
  savings: boolean;
  studentLoan: boolean;
  autoLoan: boolean;
  connectedPlatform: Platform | null;
  externalPlatforms: Platform[];
  otherPlatformDebits: boolean;
  guards: Subscription[];
  guardShops: boolean;
  linkStatus: 'active' | 'error' | 'disconnected';
}

const byName = (name: string) => {
  const platform = PLATFORMS.find((candidate) => candidate.name === name);
  if (!platform) throw new Error(`no platform ${name}`);
  return platform;
};
const guard = (merchant: string) => {
  const subscription = SUBSCRIPTIONS.find((candidate) => candidate.merchant === merchant);
  if (!subscription) throw new Error(`no subscription ${merchant}`);
  return subscription;
};
const GUARD_MERCHANTS = new Set(['Fidelity Life', 'Fidelity & Guaranty Life']);

function fixedProfile(index: number): Partial<Profile> | undefined {
  const profiles: Partial<Profile>[] = [
    {
      institutionLinks: 3,
      payroll: true,
      payFrequency: 'biweekly',
      housing: 'rent',
      cards: 1,
      studentLoan: true,
      autoLoan: false,
      connectedPlatform: byName('Robinhood'),
      externalPlatforms: [byName('Coinbase')],
      guards: [],
      guardShops: false,
    },
    {
      institutionLinks: 3,
      payroll: true,
      payFrequency: 'monthly',
      housing: 'mortgage-connected',
      cards: 2,
      studentLoan: false,
      autoLoan: false,
      connectedPlatform: byName('Vanguard'),
      externalPlatforms: [byName('Fidelity Investments'), byName('Charles Schwab')],
      guards: [guard('Fidelity Life')],
      guardShops: true,
    },
    {
      institutionLinks: 2,
      payroll: false,
      payFrequency: 'biweekly',
      housing: 'rent',
      cards: 1,
      studentLoan: false,
      autoLoan: true,
      connectedPlatform: byName('Coinbase'),
      externalPlatforms: [byName('Robinhood')],
      guards: [guard('Fidelity & Guaranty Life')],
      guardShops: true,
    },
    {
      institutionLinks: 1,
      payroll: true,
      payFrequency: 'biweekly',
      housing: 'rent',
      cards: 0,
      studentLoan: false,
      autoLoan: false,
      connectedPlatform: null,
      externalPlatforms: [byName('Charles Schwab'), byName('Vanguard')],
      otherPlatformDebits: true,
      guards: [],
    },
    {
      institutionLinks: 2,
      payroll: true,
      payFrequency: 'monthly',
      housing: 'mortgage-external',
      cards: 1,
      studentLoan: false,
      autoLoan: false,
      connectedPlatform: byName('Fidelity Investments'),
      externalPlatforms: [],
      guards: [guard('Fidelity Life'), guard('Fidelity & Guaranty Life')],
      linkStatus: 'error',
    },
  ];
  return profiles[index];
}

function randomProfile(random: Random, index: number): Profile {
  const platforms = PLATFORMS.filter(() => random.chance(0.25));
  const connected = random.chance(0.35) ? random.pick(PLATFORMS) : null;
  const profile: Profile = {
    institutionLinks: random.int(1, 3),
    payroll: random.chance(0.8),
    payFrequency: random.chance(0.6) ? 'biweekly' : 'monthly',
    housing: random.weighted([
      ['rent', 6],
      ['mortgage-connected', 3],
      ['mortgage-external', 1],
    ] as const),
    cards: random.weighted([
      [0, 1],
      [1, 6],
      [2, 3],
    ] as const),
    savings: random.chance(0.75),
    studentLoan: random.chance(0.2),
    autoLoan: random.chance(0.2),
    connectedPlatform: connected,
    externalPlatforms: platforms.filter((platform) => platform !== connected),
    otherPlatformDebits: random.chance(0.1),
    guards: SUBSCRIPTIONS.filter((sub) => GUARD_MERCHANTS.has(sub.merchant) && random.chance(0.08)),
    guardShops: random.chance(0.15),
    linkStatus: random.weighted([
      ['active', 17],
      ['error', 2],
      ['disconnected', 1],
    ] as const),
  };
  return { ...profile, ...fixedProfile(index) };
}

const formatCents = (cents: number): string => {
  const sign = cents < 0 ? '-' : '';
  const abs = Math.abs(cents);
  return `${sign}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
};

const upper = (text: string) => text.toUpperCase();

/** One user's rows, ready to write. */
interface UserRows {
  userId: string;
  rows: Record<FixtureTable, CsvValue[][]>;
}

class UserGenerator {
  private readonly txns: Txn[] = [];
  private readonly links: CsvValue[][] = [];
  private readonly accounts: Account[] = [];
  private readonly payStatements: CsvValue[][] = [];
  private readonly userId: string;

  constructor(
    private readonly random: Random,
    private readonly window: Window,
    private readonly index: number,
    private readonly profile: Profile,
    private readonly heavyTransactions: number,
    /**
     * The stream of recurringBills, its transactions' ids included, so that adding them left
     * every other value of the user as it was.
     */
    private readonly billRandom: Random,
  ) {
    this.userId = `usr_${random.base36(10)}`;
  }

  private add(
    txn: Omit<Txn, 'hidden' | 'internal'> & { hidden?: boolean; internal?: boolean },
  ): Txn {
    const full: Txn = { hidden: false, internal: false, ...txn };
    // Activity dated before the window (e.g. a few days before a monthly event) is dropped.
    if (full.day >= this.window.start) this.txns.push(full);
    return full;
  }

  private link(
    type: 'institution' | 'payroll',
    name: string,
    status: Profile['linkStatus'],
  ): string {
    const id = `lnk_${this.random.base36(12)}`;
    const created = this.window.start - this.random.int(30, 900);
    const lastSynced =
      status === 'active'
        ? isoTimestamp(this.window.end, this.random.int(0, 21_600))
        : status === 'error'
          ? isoTimestamp(this.window.end - this.random.int(2, 20), this.random.int(0, 86_399))
          : null;
    this.links.push([
      id,
      this.userId,
      type,
      name,
      status,
      isoTimestamp(created, this.random.int(0, 86_399)),
      lastSynced,
    ]);
    return id;
  }

  private account(
    linkId: string,
    name: string,
    type: AccountType,
    subtype: string,
    openingCents: number,
    extra: Partial<Pick<Account, 'creditLimitCents' | 'aprBasisPoints' | 'liability'>> = {},
  ): Account {
    const account: Account = {
      id: `acc_${this.random.base36(14)}`,
      linkId,
      name,
      mask: this.random.digits(4),
      type,
      subtype,
      openingCents,
      creditLimitCents: null,
      aprBasisPoints: 0,
      liability: null,
      ...extra,
    };
    this.accounts.push(account);
    return account;
  }

  generate(): UserRows {
    const { random, window } = this;
    const first = random.pick(FIRST_NAMES);
    const last = random.pick(LAST_NAMES);
    const heavy = this.heavyTransactions > 0;
    const name = heavy ? 'Heavy User' : `${first} ${last}`;
    const email = heavy
      ? 'heavy.user@example.com'
      : `${first}.${last}.${this.index}@example.com`
          .toLowerCase()
          .normalize('NFD')
          .replace(/[^a-z0-9.@]/g, '');
    const phone = random.chance(0.8) ? `+1555${random.digits(7)}` : null;
    // Some timestamps carry an offset: the builder stores them in UTC.
    const createdDay = window.start - random.int(60, 2000);
    const created = random.chance(0.3)
      ? `${isoDay(createdDay)}T09:${random.int(10, 59)}:00-05:00`
      : isoTimestamp(createdDay, random.int(0, 86_399));
    const user: CsvValue[] = [this.userId, name, email, phone, created];

    const annualCents = random.int(45_000, 180_000) * 100;
    const monthlyNet = Math.round((annualCents / 12) * 0.72);
    const accounts = this.openAccounts(monthlyNet);
    const spendScale = heavy ? 1 : 0.45 + annualCents / 27_000_000;

    this.salary(accounts.checking, annualCents);
    this.housing(accounts);
    this.bills(accounts);
    const firstPurchase = this.txns.length;
    this.purchases(accounts, spendScale);
    const purchases = this.txns.slice(firstPurchase);
    this.bankActivity(accounts);
    this.investing(accounts);
    if (!heavy) this.recurringBills(accounts);
    // Most people live within their pay; a few are in trouble on purpose: among the five
    // fixed profiles, the fifth (whose bank link is in error).
    const inTrouble = !heavy && (this.index < 5 ? this.index === 4 : random.chance(TROUBLED_SHARE));
    if (!heavy) this.budget(purchases, inTrouble);
    this.cardPayments(accounts);
    if (heavy) this.fillHeavy(accounts);
    if (!inTrouble) this.cushion(accounts.checking, monthlyNet);

    // Stable order: by day, then generation order.
    const order = this.txns.map((txn, position) => ({ txn, position }));
    order.sort((a, b) => a.txn.day - b.txn.day || a.position - b.position);
    const transactions = order.map(({ txn }) => {
      const ids = txn.ids ?? random;
      return [
        `txn_${ids.base36(20)}`,
        ids.chance(0.97) ? upper(ids.base36(24)) : null,
        this.userId,
        txn.account.id,
        isoDay(txn.day),
        formatCents(txn.cents),
        txn.direction,
        txn.description,
        txn.merchant,
        txn.category,
        txn.subcategory,
        txn.mcc,
        txn.hidden,
        txn.internal,
      ];
    });
    const sorted = order.map(({ txn }) => txn);
    const balances = this.balances(sorted);
    return {
      userId: this.userId,
      rows: {
        users: [user],
        links: this.links,
        accounts: this.accounts.map((account) => [
          account.id,
          this.userId,
          account.linkId,
          account.name,
          account.mask,
          account.type,
          account.subtype,
          'USD',
        ]),
        transactions,
        balances,
        pay_statements: this.payStatements,
        liabilities: this.liabilities(sorted),
      },
    };
  }

  private openAccounts(monthlyNet: number) {
    const { random, profile } = this;
    const bank = random.pick(BANKS);
    const bankLink = this.link('institution', bank, profile.linkStatus);
    let spareLinks = profile.institutionLinks - 1;
    const ownLink = (name: string) => {
      if (spareLinks <= 0) return { linkId: bankLink, brand: bank };
      spareLinks--;
      return {
        linkId: this.link('institution', name, random.chance(0.9) ? 'active' : 'error'),
        brand: name,
      };
    };
    const checking = this.account(
      bankLink,
      `${bank} Checking`,
      'depository',
      'checking',
      monthlyNet * 3,
    );
    const savings = profile.savings
      ? this.account(
          bankLink,
          `${bank} Savings`,
          'depository',
          'savings',
          random.int(2_000, 40_000) * 100,
        )
      : null;

    // Investment platforms get their own link first; loans and cards fall back to the bank's.
    let investment: Account | null = null;
    if (profile.connectedPlatform) {
      const platform = profile.connectedPlatform;
      const { linkId } = ownLink(platform.name);
      investment = this.account(
        linkId,
        `${platform.name} ${platform.accountSubtype === 'ira' ? 'Roth IRA' : platform.accountSubtype === 'crypto' ? 'Crypto' : 'Individual'}`,
        'investment',
        platform.accountSubtype,
        random.int(1_000, 60_000) * 100,
      );
    }
    const loan = (
      kind: LoanKind,
      servicer: string,
      paymentDollars: [number, number],
      principalDollars: [number, number],
    ) => {
      const principalCents = random.int(...principalDollars) * 100;
      const { linkId, brand } = ownLink(servicer);
      const subtype = { mortgage: 'mortgage', student_loan: 'student', auto_loan: 'auto' }[kind];
      return this.account(
        linkId,
        `${brand} ${subtype === 'student' ? 'Student Loan' : subtype === 'auto' ? 'Auto Loan' : 'Mortgage'}`,
        'loan',
        subtype,
        Math.round(principalCents * (0.55 + random.next() * 0.4)),
        {
          aprBasisPoints: random.int(
            kind === 'mortgage' ? 275 : 350,
            kind === 'mortgage' ? 725 : 899,
          ),
          liability: {
            kind,
            paymentCents: random.int(...paymentDollars) * 100 + random.int(0, 99),
            principalCents,
            dueDate: random.int(1, 5),
          },
        },
      );
    };
    const mortgage =
      profile.housing === 'mortgage-connected'
        ? loan('mortgage', 'Rocket Mortgage', [1_600, 4_200], [220_000, 680_000])
        : null;
    const studentLoan = profile.studentLoan
      ? loan('student_loan', 'Navient', [180, 650], [18_000, 95_000])
      : null;
    const autoLoan = profile.autoLoan
      ? loan('auto_loan', 'Toyota Financial Services', [290, 720], [16_000, 48_000])
      : null;
    const cards: Account[] = [];
    for (let i = 0; i < profile.cards; i++) {
      const issuer = random.pick(
        CARD_ISSUERS.filter((name) => !cards.some((card) => card.name.startsWith(name))),
      );
      const { linkId, brand } = ownLink(issuer);
      const limit = random.int(30, 250) * 10_000;
      cards.push(
        this.account(
          linkId,
          `${brand} ${random.pick(['Platinum Card', 'Rewards Visa', 'Cash Back Card', 'Sapphire'])}`,
          'credit',
          'credit card',
          random.int(0, 1_500) * 100,
          {
            creditLimitCents: limit,
            aprBasisPoints: random.int(1_799, 2_999),
            liability: {
              kind: 'credit_card',
              paymentCents: 0,
              principalCents: null,
              dueDate: random.int(10, 28),
            },
          },
        ),
      );
    }
    if (profile.payroll)
      this.payrollLinkId = this.link('payroll', random.pick(PAYROLL_PROVIDERS), 'active');
    return { checking, savings, investment, mortgage, studentLoan, autoLoan, cards };
  }

  private payrollLinkId: string | null = null;

  /** A purchase account: mostly a card when there is one. */
  private spendAccount(accounts: Accounts, cardShare = 0.7): Account {
    return accounts.cards.length > 0 && this.random.chance(cardShare)
      ? this.random.pick(accounts.cards)
      : accounts.checking;
  }

  private monthly(dayOfMonth: number, until: number, emit: (day: number) => void): void {
    for (const { year, month } of monthsBetween(this.window.start, until)) {
      const day = dayInMonth(year, month, dayOfMonth);
      if (day >= this.window.start && day <= until) emit(day);
    }
  }

  private salary(checking: Account, annualCents: number): void {
    const { random, window, profile } = this;
    const employer = random.pick(EMPLOYERS);
    const biweekly = profile.payFrequency === 'biweekly';
    const gross = Math.round(annualCents / (biweekly ? 26 : 12));
    const netRatio = 0.66 + random.next() * 0.12;
    const payDays: number[] = [];
    if (biweekly) {
      let day = window.start + ((5 - weekday(window.start) + 7) % 7) + (random.chance(0.5) ? 7 : 0);
      for (; day <= window.end; day += 14) payDays.push(day);
    } else {
      for (const { year, month } of monthsBetween(window.start, window.end)) {
        let day = dayInMonth(year, month, 31);
        while (weekday(day) === 0 || weekday(day) === 6) day--;
        if (day >= window.start && day <= window.end) payDays.push(day);
      }
    }
    for (const payDay of payDays) {
      const grossCents = random.chance(0.15) ? gross + random.int(1, 40) * 1_000 : gross;
      const netCents = Math.round(grossCents * netRatio);
      this.add({
        day: payDay,
        account: checking,
        cents: netCents,
        direction: 'CREDIT',
        description: `${upper(employer)} DES:PAYROLL ID:${random.digits(9)}`,
        merchant: employer,
        category: 'Income',
        subcategory: 'Wages',
        mcc: null,
      });
      if (this.payrollLinkId) {
        const { year, month } = yearMonth(payDay);
        const withPeriod = random.chance(0.9);
        const periodEnd = biweekly ? payDay - 5 : dayInMonth(year, month, 31);
        const periodStart = biweekly ? periodEnd - 13 : dayInMonth(year, month, 1);
        this.payStatements.push([
          `pst_${random.base36(12)}`,
          this.userId,
          this.payrollLinkId,
          employer,
          isoDay(payDay),
          withPeriod ? isoDay(periodStart) : null,
          withPeriod ? isoDay(periodEnd) : null,
          formatCents(grossCents),
          formatCents(netCents),
        ]);
      }
    }
  }

  /** A payment between two of the user's own accounts: flagged internal on both legs. */
  private internalTransfer(
    day: number,
    from: Account,
    to: Account,
    cents: number,
    out: { description: string; category: Category; subcategory: string | null },
    into: { description: string; category: Category; subcategory: string | null },
  ): void {
    this.add({
      day,
      account: from,
      cents,
      direction: 'DEBIT',
      merchant: null,
      mcc: null,
      internal: true,
      ...out,
    });
    this.add({
      day,
      account: to,
      cents,
      direction: 'CREDIT',
      merchant: null,
      mcc: null,
      internal: true,
      ...into,
    });
  }

  private housing(accounts: Accounts): void {
    const { random, window, profile } = this;
    const payDay = random.int(1, 3);
    if (profile.housing === 'rent') {
      const landlord = random.pick(LANDLORDS);
      const cents = random.int(1_100, 3_600) * 100;
      const viaZelle = random.chance(0.3);
      this.monthly(payDay, window.horizon, (day) =>
        this.add({
          day,
          account: accounts.checking,
          cents,
          direction: 'DEBIT',
          description: viaZelle
            ? 'ZELLE PAYMENT TO PROPERTY MGMT'
            : `${upper(landlord)} RENT WEB PMT`,
          merchant: viaZelle ? null : landlord,
          category: 'Rent and Utilities',
          subcategory: 'Rent',
          mcc: null,
        }),
      );
    } else if (profile.housing === 'mortgage-external') {
      const cents = random.int(1_500, 3_900) * 100 + random.int(0, 99);
      this.monthly(payDay, window.horizon, (day) =>
        this.add({
          day,
          account: accounts.checking,
          cents,
          direction: 'DEBIT',
          description: 'MR. COOPER MORTGAGE PMT',
          merchant: 'Mr. Cooper',
          category: 'Loan Payments',
          subcategory: 'Mortgage Payment',
          mcc: null,
        }),
      );
    }
    const loans = [accounts.mortgage, accounts.studentLoan, accounts.autoLoan];
    for (const loan of loans) {
      if (!loan?.liability) continue;
      const { paymentCents, dueDate, kind } = loan.liability;
      const subcategory =
        kind === 'mortgage'
          ? 'Mortgage Payment'
          : kind === 'student_loan'
            ? 'Student Loan Payment'
            : 'Car Payment';
      this.monthly(dueDate, window.end, (day) =>
        this.internalTransfer(
          day,
          accounts.checking,
          loan,
          paymentCents,
          { description: `${upper(loan.name)} PAYMENT`, category: 'Loan Payments', subcategory },
          { description: 'PAYMENT RECEIVED - THANK YOU', category: 'Loan Payments', subcategory },
        ),
      );
    }
  }

  private bills(accounts: Accounts): void {
    const { random, window, profile } = this;
    const utility = random.pick(UTILITIES);
    const utilityBase = random.int(60, 220) * 100;
    const billDay = random.int(12, 18);
    this.monthly(billDay, window.horizon, (day) =>
      this.add({
        day,
        account: accounts.checking,
        cents: Math.round(utilityBase * (0.85 + random.next() * 0.3)),
        direction: 'DEBIT',
        description: utility.description,
        merchant: utility.merchant,
        category: 'Rent and Utilities',
        subcategory: utility.subcategory,
        mcc: utility.mcc,
      }),
    );
    const fixedBills = [
      {
        ...random.pick(INTERNET),
        subcategory: 'Internet and Cable',
        cents: random.pick([5_999, 7_999, 8_999]),
      },
      {
        ...random.pick(PHONE),
        subcategory: 'Telephone',
        cents: random.pick([4_500, 6_500, 8_500]),
      },
    ];
    for (const bill of fixedBills) {
      const account = this.spendAccount(accounts, 0.5);
      this.monthly(random.int(5, 25), window.horizon, (day) =>
        this.add({
          day,
          account,
          cents: bill.cents,
          direction: 'DEBIT',
          description: bill.description,
          merchant: bill.merchant,
          category: 'Rent and Utilities',
          subcategory: bill.subcategory,
          mcc: bill.mcc,
        }),
      );
    }
    const ordinary = SUBSCRIPTIONS.filter((sub) => !GUARD_MERCHANTS.has(sub.merchant));
    const chosen = [...ordinary.filter(() => random.chance(0.3)), ...profile.guards];
    if (this.index < 5)
      chosen.push(
        ordinary[this.index % ordinary.length] as Subscription,
        ordinary[6] as Subscription,
      );
    for (const subscription of new Set(chosen)) {
      const account = this.spendAccount(accounts, 0.8);
      const emit = (day: number) =>
        this.add({
          day,
          account,
          cents: subscription.cents,
          direction: 'DEBIT',
          description: subscription.description,
          merchant: subscription.merchant,
          category: subscription.category,
          subcategory: subscription.subcategory,
          mcc: subscription.mcc,
        });
      if (subscription.cadence === 'monthly') this.monthly(random.int(1, 28), window.horizon, emit);
      else
        for (let day = window.start + random.int(0, 6); day <= window.horizon; day += 7) emit(day);
    }
  }

  /**
   * The recurring streams beyond the monthly and weekly subscriptions (before the budget, which
   * counts them), drawn from the bills' own stream (billRandom): a quarterly water bill, half-yearly insurance whose premium rises 6-12% a time, a
   * yearly membership, a dog walker paid on the 1st and the 15th (the Friday before on weekends),
   * a subscription cancelled half a year ago, one started last month, one whose price rose, one
   * moved from the card to checking (a replaced card). The first user has every one of them;
   * the others, each by chance.
   */
  private recurringBills(accounts: Accounts): void {
    const random = this.billRandom;
    const { window } = this;
    const every = this.index === 0;
    const has = (chance: number) => random.chance(chance) || every;
    const card = accounts.cards[0] ?? accounts.checking;
    const pay = (biller: Biller, account: Account, day: number, cents: number) =>
      this.add({ ...biller, day, account, cents, direction: 'DEBIT', ids: random });
    const months = monthsBetween(window.start, window.horizon);
    /** Day `date` of every `step`-th month from the `offset`-th of the history, up to `until`. */
    const everyMonths = (step: number, offset: number, date: number, until: number) =>
      months.flatMap(({ year, month }, i) => {
        const day = dayInMonth(year, month, date);
        return i >= offset && (i - offset) % step === 0 && day >= window.start && day <= until
          ? [day]
          : [];
      });
    const fridayBefore = (day: number) =>
      weekday(day) === 6 ? day - 1 : weekday(day) === 0 ? day - 2 : day;
    if (has(0.3)) {
      const base = random.int(110, 170) * 100;
      for (const day of everyMonths(3, random.int(0, 2), 20, window.horizon))
        pay(BILLERS.water, accounts.checking, day, base + random.int(0, 4_000));
    }
    if (has(0.4)) {
      let cents = random.int(80, 140) * 100;
      for (const day of everyMonths(6, 1, 12, window.horizon)) {
        pay(BILLERS.insurance, accounts.checking, day, cents);
        cents = Math.round(cents * (1 + random.int(6, 12) / 100));
      }
    }
    if (has(0.5)) {
      for (const day of everyMonths(12, random.int(1, 2), 14, window.horizon))
        pay(BILLERS.membership, card, day, 13_900);
    }
    if (has(0.15)) {
      const from = window.end - random.int(120, 300);
      for (const { year, month } of months) {
        for (const date of [1, 15]) {
          const day = fridayBefore(dayInMonth(year, month, date));
          if (day >= from && day <= window.end)
            pay(BILLERS.dogWalker, accounts.checking, day, 8_500);
        }
      }
    }
    if (has(0.2)) {
      for (const day of everyMonths(1, months.length - 3, 9, window.end))
        pay(BILLERS.newSubscription, card, day, 1_399);
    }
    if (has(0.3)) {
      const until = window.end - random.int(150, 200);
      for (const day of everyMonths(1, 0, 17, until)) pay(BILLERS.cancelled, card, day, 4_400);
    }
    if (has(0.3)) {
      const rise = window.end - random.int(60, 150);
      for (const day of everyMonths(1, 0, 6, window.horizon))
        pay(BILLERS.priceRise, card, day, day < rise ? 1_399 : 1_599);
    }
    if (has(0.2)) {
      const moved = window.end - random.int(100, 250);
      for (const day of everyMonths(1, 0, 23, window.horizon))
        pay(BILLERS.movedAccount, day < moved ? card : accounts.checking, day, 1_495);
    }
  }

  private purchase(accounts: Accounts, day: number, group: readonly Merchant[]): void {
    const { random, window } = this;
    const merchant = random.pick(group);
    const p2p = merchant.category === 'Transfer Out' || merchant.category === 'Other';
    const account = p2p ? accounts.checking : this.spendAccount(accounts);
    const cents = random.int(merchant.min * 100, merchant.max * 100);
    const txn = this.add({
      day,
      account,
      cents,
      direction: 'DEBIT',
      description: merchant.describe(random),
      merchant: merchant.merchant,
      category: merchant.category,
      subcategory: random.chance(0.97) ? merchant.subcategory : null,
      mcc: merchant.mcc,
      hidden: random.chance(0.008),
    });
    // Refunds: CREDITs in the purchase's own spending category.
    if (!p2p && random.chance(0.015)) {
      const refundDay = Math.min(day + random.int(2, 12), window.end);
      this.add({
        ...txn,
        day: refundDay,
        cents: random.chance(0.6) ? cents : random.int(1, cents),
        direction: 'CREDIT',
        description: `${upper(merchant.merchant ?? 'MERCHANT')} REFUND`,
        hidden: false,
      });
    }
  }

  private purchases(accounts: Accounts, scale: number): void {
    const { random, window, profile } = this;
    if (this.heavyTransactions > 0) return;
    for (let day = window.start; day <= window.end; day++) {
      for (const [group, rate] of DISCRETIONARY) {
        const count = random.poisson(rate * scale);
        for (let i = 0; i < count; i++) this.purchase(accounts, day, group);
      }
    }
    if (profile.guardShops) {
      for (const shop of GUARD_SHOPS) {
        const visits = random.int(1, 3);
        for (let i = 0; i < visits; i++) {
          this.purchase(accounts, random.int(window.start, window.end), [shop]);
        }
      }
    }
  }

  /**
   * Scales the discretionary purchases so that what the user spends is a share of what comes
   * in, on the API's own cash-flow basis (CREDITs in, DEBITs out; internal transfers,
   * investment accounts and transfers to platforms aside): 72-93% for most people, 104-115%
   * for the troubled few. The purchases keep their merchants, days and categories.
   */
  private budget(purchases: readonly Txn[], inTrouble: boolean): void {
    const counted = (txn: Txn) => !txn.internal && txn.account.type !== 'investment';
    let income = 0;
    let expenses = 0;
    for (const txn of this.txns) {
      if (!counted(txn)) continue;
      if (txn.direction === 'CREDIT') income += txn.cents;
      else if (!namesInvestmentPlatform(txn.merchant, txn.description)) expenses += txn.cents;
    }
    let discretionary = 0;
    for (const txn of purchases) {
      if (counted(txn) && txn.direction === 'DEBIT') discretionary += txn.cents;
    }
    if (discretionary === 0 || income === 0) return;
    const share = inTrouble ? 1.04 + this.random.next() * 0.11 : 0.72 + this.random.next() * 0.21;
    const factor = Math.min(
      3,
      Math.max(0.25, (share * income - (expenses - discretionary)) / discretionary),
    );
    for (const txn of purchases) txn.cents = Math.max(1, Math.round(txn.cents * factor));
  }

  /**
   * Opens the checking account with enough that its balance never dips below a cushion of a
   * fraction of a month's pay: people who live within their pay are not overdrawn.
   */
  private cushion(checking: Account, monthlyNet: number): void {
    let balance = checking.openingCents;
    let lowest = balance;
    const own = this.txns.filter((txn) => txn.account === checking).sort((a, b) => a.day - b.day);
    for (const txn of own) {
      balance += txn.direction === 'CREDIT' ? txn.cents : -txn.cents;
      lowest = Math.min(lowest, balance);
    }
    const floor = Math.round(monthlyNet * (0.2 + this.random.next() * 0.6));
    if (lowest < floor) checking.openingCents += floor - lowest;
  }

  /** The heavy user: purchases until the requested count is reached. */
  private fillHeavy(accounts: Accounts): void {
    const { random, window } = this;
    const groups = DISCRETIONARY.map(([group, rate]) => [group, rate] as const);
    while (this.txns.length < this.heavyTransactions) {
      this.purchase(accounts, random.int(window.start, window.end), random.weighted(groups));
    }
    this.txns.length = Math.min(this.txns.length, this.heavyTransactions);
  }

  private bankActivity(accounts: Accounts): void {
    const { random, window } = this;
    const { checking, savings } = accounts;
    const monthlyFee = random.chance(0.3);
    this.monthly(28, window.end, (day) => {
      if (monthlyFee || random.chance(0.08)) {
        this.add({
          day,
          account: checking,
          cents: monthlyFee ? 1_200 : 3_500,
          direction: 'DEBIT',
          description: monthlyFee ? 'MONTHLY SERVICE FEE' : 'OVERDRAFT ITEM FEE',
          merchant: null,
          category: 'Bank Fees',
          subcategory: monthlyFee ? 'Other Bank Fees' : 'Overdraft Fees',
          mcc: null,
        });
      }
      if (random.chance(0.5)) {
        const atmDay = day - random.int(0, 25);
        this.add({
          day: atmDay,
          account: checking,
          cents: random.pick([4_000, 6_000, 10_000, 20_000]),
          direction: 'DEBIT',
          description: `ATM WITHDRAWAL ${random.digits(6)} MAIN ST`,
          merchant: null,
          category: 'Transfer Out',
          subcategory: 'Withdrawal',
          mcc: '6011',
        });
        this.add({
          day: atmDay,
          account: checking,
          cents: 300,
          direction: 'DEBIT',
          description: 'NON-NETWORK ATM FEE',
          merchant: null,
          category: 'Bank Fees',
          subcategory: 'ATM Fees',
          mcc: null,
        });
      }
      if (random.chance(0.6)) {
        const p2p = random.chance(0.5);
        this.add({
          day: day - random.int(0, 20),
          account: checking,
          cents: random.int(15, 300) * 100,
          direction: 'CREDIT',
          description: p2p ? 'VENMO CASHOUT' : 'ZELLE FROM MARIA G',
          merchant: p2p ? 'Venmo' : null,
          category: 'Transfer In',
          subcategory: 'Peer to Peer',
          mcc: null,
        });
      }
      if (savings) {
        this.internalTransfer(
          day - 3,
          checking,
          savings,
          random.int(1, 10) * 10_000,
          {
            description: `ONLINE TRANSFER TO SAV ...${savings.mask}`,
            category: 'Transfer Out',
            subcategory: 'Savings',
          },
          {
            description: `ONLINE TRANSFER FROM CHK ...${checking.mask}`,
            category: 'Transfer In',
            subcategory: 'Savings',
          },
        );
        this.add({
          day,
          account: savings,
          cents: random.int(50, 9_000),
          direction: 'CREDIT',
          description: 'INTEREST PAYMENT',
          merchant: null,
          category: 'Income',
          subcategory: 'Interest Earned',
          mcc: null,
        });
      }
    });
  }

  private investing(accounts: Accounts): void {
    const { random, window, profile } = this;
    const { checking, investment } = accounts;
    const connected = profile.connectedPlatform;
    if (connected && investment) {
      const cents = random.int(1, 20) * 5_000;
      this.monthly(random.int(2, 27), window.end, (day) => {
        const line = random.pick(connected.debits);
        this.internalTransfer(
          day,
          checking,
          investment,
          cents,
          {
            description: line.description(random),
            category: 'Transfer Out',
            subcategory: 'Investment and Retirement Funds',
          },
          {
            description: 'DEPOSIT FROM LINKED BANK',
            category: 'Transfer In',
            subcategory: 'Deposit',
          },
        );
        // Activity on the investment account itself: a buy after each deposit, some dividends.
        const ticker =
          investment.subtype === 'crypto'
            ? random.pick(['BTC', 'ETH', 'SOL'])
            : random.pick(['VTI', 'VOO', 'AAPL', 'QQQ']);
        this.add({
          day: Math.min(day + 1, window.end),
          account: investment,
          cents: cents - random.int(0, 999),
          direction: 'DEBIT',
          description: `BUY ${ticker}`,
          merchant: null,
          category: 'Transfer Out',
          subcategory: 'Investment and Retirement Funds',
          mcc: null,
        });
        if (random.chance(0.35)) {
          this.add({
            day,
            account: investment,
            cents: random.int(200, 9_000),
            direction: 'CREDIT',
            description: `DIVIDEND ${ticker}`,
            merchant: null,
            category: 'Income',
            subcategory: 'Dividends',
            mcc: null,
          });
        }
      });
    }
    // Transfers to platforms whose accounts are not connected: DEBITs, not internal.
    for (const platform of profile.externalPlatforms) {
      const cents = random.int(1, 30) * 2_500;
      const biweekly = random.chance(0.3);
      const step = biweekly ? 14 : 30;
      for (let day = window.start + random.int(0, step - 1); day <= window.end; day += step) {
        const line = random.pick(platform.debits);
        this.add({
          day,
          account: checking,
          cents,
          direction: 'DEBIT',
          description: line.description(random),
          merchant: line.merchant,
          category: 'Transfer Out',
          subcategory: 'Investment and Retirement Funds',
          mcc: null,
        });
      }
      // Now and then money comes back: withdrawals and dividends are CREDITs that count as income.
      for (
        let day = window.start + random.int(20, 120);
        day <= window.end;
        day += random.int(60, 150)
      ) {
        const credit = platform.credit;
        this.add({
          day,
          account: checking,
          cents: random.int(2_000, 250_000),
          direction: 'CREDIT',
          description: credit.description,
          merchant: platform.name,
          category: credit.category,
          subcategory: credit.subcategory,
          mcc: null,
        });
      }
    }
    if (profile.otherPlatformDebits) {
      for (const line of OTHER_PLATFORM_DEBITS) {
        this.add({
          day: random.int(window.start, window.end),
          account: checking,
          cents: random.int(10, 500) * 100,
          direction: 'DEBIT',
          description: line.description,
          merchant: line.merchant,
          category: 'Transfer Out',
          subcategory: 'Investment and Retirement Funds',
          mcc: null,
        });
      }
    }
  }

  /** Each card's previous month is paid in full from checking on its due date. */
  private cardPayments(accounts: Accounts): void {
    const { window } = this;
    for (const card of accounts.cards) {
      const dueDate = card.liability?.dueDate ?? 20;
      const netByMonth = new Map<number, number>();
      for (const txn of this.txns) {
        if (txn.account !== card || txn.internal) continue;
        const { year, month } = yearMonth(txn.day);
        const key = year * 12 + month;
        netByMonth.set(
          key,
          (netByMonth.get(key) ?? 0) + (txn.direction === 'DEBIT' ? txn.cents : -txn.cents),
        );
      }
      for (const { year, month } of monthsBetween(window.start, window.end)) {
        const owed = netByMonth.get(year * 12 + month) ?? 0;
        const day = dayInMonth(year, month + 1, dueDate);
        if (owed <= 0 || day > window.end) continue;
        this.internalTransfer(
          day,
          accounts.checking,
          card,
          owed,
          {
            description: `${upper(card.name.split(' ')[0] ?? 'CARD')} CRD AUTOPAY ${this.random.digits(6)}`,
            category: 'Loan Payments',
            subcategory: 'Credit Card Payment',
          },
          {
            description: 'AUTOPAY PAYMENT - THANK YOU',
            category: 'Loan Payments',
            subcategory: 'Credit Card Payment',
          },
        );
      }
    }
  }

  /** Daily snapshots from the window's start to its end; credit and loan `current` is the amount owed. */
  private balances(sorted: Txn[]): CsvValue[][] {
    const { random, window } = this;
    const rows: CsvValue[][] = [];
    for (const account of this.accounts) {
      const owes = account.type === 'credit' || account.type === 'loan';
      let current = account.openingCents;
      let next = 0;
      const own = sorted.filter((txn) => txn.account === account);
      for (let day = window.start; day <= window.end; day++) {
        while (next < own.length && (own[next] as Txn).day <= day) {
          const txn = own[next++] as Txn;
          const sign = (txn.direction === 'DEBIT') === owes ? 1 : -1;
          current += sign * txn.cents;
        }
        if (account.type === 'loan' && yearMonth(day).date === 1) {
          current += Math.round((current * account.aprBasisPoints) / 120_000);
        }
        if (account.type === 'investment') {
          current = Math.max(0, current + Math.round(current * (random.next() - 0.47) * 0.02));
        }
        const available =
          account.type === 'depository'
            ? formatCents(current)
            : account.type === 'credit' && account.creditLimitCents !== null
              ? formatCents(account.creditLimitCents - current)
              : null;
        rows.push([
          account.id,
          isoDay(day),
          formatCents(current),
          available,
          account.creditLimitCents === null ? null : formatCents(account.creditLimitCents),
        ]);
      }
      // A card's minimum payment follows what is owed at the end.
      if (account.liability?.kind === 'credit_card') {
        account.liability.paymentCents = Math.max(2_500, Math.round(current * 0.02));
      }
    }
    return rows;
  }

  private liabilities(sorted: Txn[]): CsvValue[][] {
    const { window } = this;
    return this.accounts.flatMap((account) => {
      const liability = account.liability;
      if (!liability) return [];
      let lastPayment: Txn | undefined;
      for (const txn of sorted) {
        if (
          txn.account === account &&
          txn.internal &&
          txn.direction === 'CREDIT' &&
          txn.day <= window.end
        )
          lastPayment = txn;
      }
      const { year, month, date } = yearMonth(window.end);
      const nextDue = dayInMonth(
        year,
        date < liability.dueDate ? month : month + 1,
        liability.dueDate,
      );
      const apr = account.aprBasisPoints;
      return [
        [
          account.id,
          liability.kind,
          `${Math.floor(apr / 100)}.${String(apr % 100).padStart(2, '0')}`,
          formatCents(liability.paymentCents),
          isoDay(nextDue),
          lastPayment ? formatCents(lastPayment.cents) : null,
          lastPayment ? isoDay(lastPayment.day) : null,
          liability.principalCents === null ? null : formatCents(liability.principalCents),
        ],
      ];
    });
  }
}

type Accounts = ReturnType<UserGenerator['openAccounts']>;

export async function generateFixtures(options: FixtureOptions): Promise<FixtureSummary> {
  const progress = options.onProgress ?? (() => {});
  const end = parseDay(options.end ?? DEFAULT_END_DATE);
  const window: Window = {
    start: addMonths(end, -options.months) + 1,
    end,
    horizon: end + SCHEDULED_AHEAD_DAYS,
  };
  await mkdir(options.outDir, { recursive: true });
  const writers = Object.fromEntries(
    FIXTURE_TABLES.map((table) => [
      table,
      new CsvWriter(join(options.outDir, `${table}.csv`), COLUMNS[table]),
    ]),
  ) as Record<FixtureTable, CsvWriter>;

  const started = performance.now();
  const heavy = options.heavyUserTransactions ?? 0;
  const total = options.users + (heavy > 0 ? 1 : 0);
  let heavyUserId: string | null = null;
  for (let index = 0; index < total; index++) {
    const random = new Random(`${options.seed}:user:${index}`);
    const isHeavy = index === options.users;
    const generated = new UserGenerator(
      random,
      window,
      index,
      randomProfile(random, index),
      isHeavy ? heavy : 0,
      new Random(`${options.seed}:user:${index}:bills`),
    ).generate();
    if (isHeavy) heavyUserId = generated.userId;
    for (const table of FIXTURE_TABLES) {
      const writer = writers[table];
      for (const row of generated.rows[table]) writer.write(row);
      await writer.flush();
    }
    if ((index + 1) % 1000 === 0) {
      progress(
        `${index + 1} users, ${writers.transactions.rows.toLocaleString('en-US')} transactions (${((performance.now() - started) / 1000).toFixed(1)}s)`,
      );
    }
  }
  for (const writer of Object.values(writers)) await writer.close();
  const counts = Object.fromEntries(
    FIXTURE_TABLES.map((table) => [table, writers[table].rows]),
  ) as Record<FixtureTable, number>;
  return { start: isoDay(window.start), end: isoDay(window.end), counts, heavyUserId };
}
