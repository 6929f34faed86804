/**
 * The read port: everything the routes and authentication ask of the analytical store, as
 * typed methods with domain types in and out, an interface per area. One adapter per engine
 * (`src/engines/<engine>/`) implements StoreAdapter, and memoizedPort (memo.ts) makes the port
 * of it; the SQL and each engine's query strategy live in the adapters only.
 *
 * Values are exact: money and other decimals arrive as decimal text (`"1234.50"`), counts as
 * numbers, dates as `YYYY-MM-DD`, timestamps as ISO 8601 text without a zone (UTC).
 */
import type { UserDataTable } from '../contract/tables.ts';
import type { Window } from '../domain/calendar.ts';
import type { SpendingAggregates, SpendingQuery } from '../domain/spending/model.ts';
import type {
  AccountType,
  Category,
  Direction,
  LiabilityAccountType,
  LiabilityKind,
  LinkStatus,
  LinkType,
} from '../domain/taxonomy.ts';
import type { RecurringReads } from './recurring.ts';

/** Exact decimal text, as the store holds it (`"12.30"`, `"-0.50"`). */
export type DecimalText = string;

export interface UserProfile {
  id: string;
  name: string;
  email: string;
  phone: string | null;
}

export interface AccountRecord {
  id: string;
  link_id: string;
  name: string;
  mask: string | null;
  type: AccountType;
  subtype: string | null;
  currency: string;
}

export interface TransactionRecord {
  id: string;
  external_id: string | null;
  account_id: string;
  transacted_at: string;
  amount: DecimalText;
  direction: Direction;
  description: string;
  merchant_name: string | null;
  category: Category;
  subcategory: string | null;
  merchant_category_code: string | null;
  is_hidden: boolean;
  is_internal_transfer: boolean;
  is_investment_account: boolean;
}

/** Which of the user's transactions a list shows; null or empty means no such filter. */
export interface TransactionFilters {
  /** transacted_at bounds, inclusive. */
  from: string | null;
  to: string | null;
  /** Only these accounts (ids that are not the user's match nothing). */
  accountIds: readonly string[];
  /** Only accounts of this link. */
  linkId: string | null;
  categories: readonly Category[];
  direction: Direction | null;
  /** Amount bounds, inclusive, as exact decimal text with two places. */
  minAmount: DecimalText | null;
  maxAmount: DecimalText | null;
  /**
   * Text that the description or the merchant name contains, both lower-cased as DuckDB's
   * lower() does (foldCase, domain/case-fold.ts).
   */
  text: string | null;
}

/** A slice of a list: `limit` null means every row. */
export interface PageWindow {
  limit: number | null;
  offset: number;
}

export interface DailyTotalRecord {
  date: string;
  debits: DecimalText;
  credits: DecimalText;
  count: number;
}

export interface TransactionsPage {
  /** The page's rows, newest first (transacted_at desc, then id desc). */
  rows: TransactionRecord[];
  /** Every matching transaction, across all pages. */
  total: number;
  /** One per day present on the page, over every matching transaction of that day, newest first. */
  dailyTotals: DailyTotalRecord[];
}

export interface LinkRecord {
  id: string;
  type: LinkType;
  name: string;
  status: LinkStatus;
  /** ISO 8601 in UTC with its `Z`; fractional seconds only when there are any. */
  created_at: string;
  last_synced_at: string | null;
  /** The link's accounts' ids, ascending. */
  account_ids: string[];
}

export interface LinksPage {
  /** Oldest first (created_at, then id). */
  rows: LinkRecord[];
  total: number;
}

/** An account with its latest balance snapshot (nulls when it has none). */
export interface LatestBalanceRecord {
  account_id: string;
  link_id: string;
  name: string;
  mask: string | null;
  type: AccountType;
  subtype: string | null;
  currency: string;
  current: DecimalText | null;
  available: DecimalText | null;
  credit_limit: DecimalText | null;
  as_of: string | null;
}

/** One account's balance as of one day: its latest snapshot on or before it. */
export interface BalancePointRecord {
  end_date: string;
  account_id: string;
  type: AccountType;
  current: DecimalText | null;
  as_of: string | null;
}

export interface PayStatementRecord {
  link_id: string;
  /** The payroll link's name. */
  provider: string;
  employer: string;
  pay_date: string;
  gross_pay: DecimalText;
  net_pay: DecimalText;
}

/** Counted CREDITs of one calendar month (the spending endpoint's income basis). */
export interface MonthlyIncomeRecord {
  /** The month's first day, `YYYY-MM-01`. */
  month: string;
  total: DecimalText;
  count: number;
}

export interface LiabilityRecord {
  account_id: string;
  account_name: string;
  account_type: LiabilityAccountType;
  account_subtype: string | null;
  kind: LiabilityKind | null;
  apr: DecimalText | null;
  minimum_payment: DecimalText | null;
  next_payment_due_date: string | null;
  last_payment_amount: DecimalText | null;
  last_payment_date: string | null;
  original_principal: DecimalText | null;
  current_balance: DecimalText | null;
  as_of: string | null;
}

/**
 * Where the data stands in its lineage of change sets (docs/data-contract.md, "Change sets"):
 * the full build that started it, how many change sets were applied since (`seq`), and the
 * oldest `seq` the change log still covers.
 */
export interface SyncState {
  lineage: string;
  seq: number;
  logFloor: number;
  /**
   * The generation each change set of the lineage published, by number: `generations[0]` the
   * full build's (the lineage), `generations[seq]` this one's. A cursor names the generation it
   * stands at, so a store whose history went another way since (a restored copy, a rolled-back
   * sequence) is told from the one the cursor came from.
   */
  generations: readonly string[];
  /** The secret sync cursors are signed with (the same for every generation and replica). */
  cursorKey: string;
}

/** Where the data a store publishes now stands: its lineage and change set number. */
export type PublishedSync = Pick<SyncState, 'lineage' | 'seq'>;

/** Change sets `from` (exclusive) to `to` (inclusive), for ids after `after`, `limit` at most. */
export interface ChangeRange {
  from: number;
  to: number;
  after: string | null;
  limit: number | null;
}

/** One transaction's net change over a range: as it was before it and after it (null: absent). */
export interface TransactionChange {
  id: string;
  before: TransactionRecord | null;
  after: TransactionRecord | null;
}

/** What change sets did to one user's data, as the event stream tells it. */
export interface UserChange {
  userId: string;
  /** The user's transactions' net change, counted as the sync feed sends it. */
  added: number;
  modified: number;
  removed: number;
  /** The user's other tables (of USER_DATA_TABLES) a change set of the range changed. */
  tables: UserDataTable[];
}

/** The user a live (not revoked) token belongs to, and when it expires (epoch ms), if ever. */
export interface TokenOwner {
  userId: string;
  expiresAtMs: number | null;
}

/** The store as a whole: which generation it reads, whether it answers, its end. */
export interface StoreLifecycle {
  /** Identifies the data this port reads; another value whenever new data is published. */
  readonly generation: string;
  /** This generation's place among change sets (the sync feed). */
  readonly sync: SyncState;
  /** Resolves when the store answers a trivial query. */
  ping(): Promise<void>;
  close(): Promise<void>;
  /**
   * What the store publishes now, which may be newer than this port's generation (a cluster's
   * replica follows its coordinator a moment later; a file is its own).
   */
  publishedSync(): Promise<PublishedSync>;
  /**
   * The users this port answers from memory, the most recently asked first, `limit` at most
   * (absent: the port holds nobody in memory).
   */
  heldUsers?(limit: number): readonly string[];
  /**
   * Reads the ledgers of `userIds` into memory, one at a time in their order and each only
   * while the store's queue is idle, until done or `stop()` says so (asked before each read): a
   * new generation readied for its users while it serves. Resolves with the number read; a read
   * that fails ends the warming (the user is read when asked).
   */
  warm?(userIds: readonly string[], stop: () => boolean): Promise<number>;
  /**
   * Bytes the engine holds in this process now (DuckDB's buffers: part of the memory budget);
   * absent for an engine that runs elsewhere.
   */
  engineMemory?(): Promise<number>;
}

/** Bearer tokens (authentication). */
export interface TokenReads {
  /** The owner of a live token with this hash, provided the user exists; null otherwise. */
  tokenOwner(tokenHash: string): Promise<TokenOwner | null>;
}

/** The user's profile and accounts. */
export interface UserReads {
  profile(userId: string): Promise<UserProfile | null>;
  /** Every account of the user, by id. */
  accounts(userId: string): Promise<AccountRecord[]>;
}

export interface TransactionReads {
  /** A page of the user's transactions (every one when `page.limit` is null). */
  transactions(
    userId: string,
    filters: TransactionFilters,
    page: PageWindow,
  ): Promise<TransactionsPage>;
  /** How many of the user's transactions match. */
  transactionCount(userId: string, filters: TransactionFilters): Promise<number>;
  /**
   * Every matching transaction, newest first, a chunk at a time (the unpaginated list), so
   * that no list sits in memory whole; stopping early releases what the engine holds.
   */
  transactionChunks(
    userId: string,
    filters: TransactionFilters,
  ): AsyncIterable<TransactionRecord[]>;
  /** The user's transactions with an id after `after` (every one when null), by id, `limit` at most. */
  transactionsById(
    userId: string,
    after: string | null,
    limit: number,
  ): Promise<TransactionRecord[]>;
  /**
   * The user's transactions that differ between change sets `range.from` and `range.to` (both
   * within the change log, `to` at most this generation's), by id: each as it was at `from` and
   * at `to`, as the list shows it.
   */
  transactionChanges(userId: string, range: ChangeRange): Promise<TransactionChange[]>;
  /** One transaction of the user by id; null when there is none (or it is another user's). */
  transaction(userId: string, id: string): Promise<TransactionRecord | null>;
}

/** What change sets changed, for many users at once (the event streams). */
export interface ChangeReads {
  /**
   * What change sets `from` (exclusive) to `to` (inclusive) changed for each of `userIds` that
   * had anything changed, in any order: one statement for every user, reading only their part
   * of the change log's range (`from` at least `sync.logFloor`, `to` at most `sync.seq`).
   */
  userChanges(userIds: readonly string[], from: number, to: number): Promise<UserChange[]>;
}

export interface LinkReads {
  links(userId: string, page: PageWindow): Promise<LinksPage>;
}

export interface BalanceReads {
  /** Every account of the user, by id, with its latest snapshot. */
  latestBalances(userId: string): Promise<LatestBalanceRecord[]>;
  /** For each day of `days` (ascending) and each account of the user (by id): its balance. */
  balanceHistory(userId: string, days: readonly string[]): Promise<BalancePointRecord[]>;
}

export interface IncomeReads {
  /** The user's pay statements in the window, by pay date then id. */
  payStatements(userId: string, window: Window): Promise<PayStatementRecord[]>;
  /** Months of the window with counted income, in any order. */
  monthlyIncome(userId: string, window: Window): Promise<MonthlyIncomeRecord[]>;
}

export interface LiabilityReads {
  /** Every credit and loan account of the user, by id. */
  liabilities(userId: string): Promise<LiabilityRecord[]>;
}

export interface SpendingReads {
  /** The aggregates the spending analysis is shaped from (domain/spending/shape.ts). */
  spendingAggregates(query: SpendingQuery): Promise<SpendingAggregates>;
}

/** Everything the routes and authentication ask of the store: one port per generation. */
export interface ReadPort
  extends StoreLifecycle,
    TokenReads,
    UserReads,
    TransactionReads,
    ChangeReads,
    LinkReads,
    BalanceReads,
    IncomeReads,
    LiabilityReads,
    SpendingReads,
    RecurringReads {}

/**
 * What an engine adapter implements; memoizedPort (port/memo.ts) makes a ReadPort of it, which
 * is the only way an engine hands out a port. The adapter answers a token's owner and whether
 * a user exists apart (the port checks one against the other and remembers the users that
 * exist), and reads a balance history with the user's accounts as the port remembers them.
 * It is a plain object, its members its own (the port copies them).
 */
export interface StoreAdapter
  extends StoreLifecycle,
    UserReads,
    TransactionReads,
    ChangeReads,
    LinkReads,
    Omit<BalanceReads, 'balanceHistory'>,
    IncomeReads,
    LiabilityReads,
    SpendingReads,
    RecurringReads {
  /** The owner of a live (not revoked) token with this hash, whether or not the user exists. */
  liveTokenOwner(tokenHash: string): Promise<TokenOwner | null>;
  /** Whether the user exists in this generation. */
  userExists(userId: string): Promise<boolean>;
  /**
   * BalanceReads.balanceHistory; `accounts` gives the user's accounts, to an engine that
   * needs them beside the query (an engine whose query joins them need not ask).
   */
  balanceHistory(
    userId: string,
    days: readonly string[],
    accounts: () => Promise<AccountRecord[]>,
  ): Promise<BalancePointRecord[]>;
}

/**
 * The store was built by another version of build-db than this server reads (the store format
 * or the platform rules differ): it is refused at start-up and on a swap, never served.
 */
export class StoreFormatError extends Error {
  override readonly name = 'StoreFormatError';
  constructor(where: string, problem: string) {
    super(`${where}: ${problem}: rebuild it with npm run build-db`);
  }
}

/**
 * Rows an engine reads at a time for the unpaginated list (transactionChunks): a chunk is one
 * bounded query (the query time limit applies to each) and about 350 KB of JSON, so a list of
 * any length holds about a chunk in memory per response.
 */
export const LIST_CHUNK_ROWS = 1_000;

/**
 * How one store query ended, as the engines report it to the metrics: answered, failed, timed
 * out, or refused before it ran (the store closed, or too many waiting).
 */
export type QueryOutcome = 'ok' | 'error' | 'timeout' | 'rejected';

/** The store cannot answer (missing, closed, interrupted, overloaded): the API answers 503. */
export class StoreUnavailableError extends Error {
  override readonly name: string = 'StoreUnavailableError';
}

/**
 * The store ran out of memory or spill space for one statement: the API answers 503, and a
 * smaller read (the engine's own, a chunk at a time) may still succeed.
 */
export class StoreOverloadedError extends StoreUnavailableError {
  override readonly name = 'StoreOverloadedError';
}

/** Parts of a distributed store do not answer: readiness names them (`shard_2`). */
export class PartsUnavailableError extends StoreUnavailableError {
  override readonly name = 'PartsUnavailableError';
  constructor(
    readonly parts: readonly string[],
    options?: ErrorOptions,
  ) {
    super(`unreachable: ${parts.join(', ')}`, options);
  }
}
