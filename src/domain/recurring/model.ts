/**
 * Recurring streams as the domain sees them (docs/api.md, "GET /v2/users/recurring"): what the
 * request scopes, what an engine reads for the rules (the distinct days of each raw key, then
 * the rows of the keys that form streams) and the streams the rules make of them. Every engine
 * adapter reads exactly these; the rules themselves are streams.ts's and key.ts's.
 */
import type { Cadence } from '../cadence.ts';
import type { Category, Direction } from '../taxonomy.ts';

/**
 * Whose transactions, through which day: the user's counted rows (spending rules 1, 3 and 4)
 * dated up to `through` (today), over the whole history, within the link and account scope.
 */
export interface RecurringScope {
  userId: string;
  /** The last day counted, inclusive (today). */
  through: string;
  /** Only these accounts (none: every account; ids that are not the user's match nothing). */
  accountIds: readonly string[];
  /** Only accounts of this link (null: no filter). */
  linkId: string | null;
}

/**
 * The distinct days of the counted rows of one raw key: a direction, the rows' merchant name
 * (null or empty: none), and their description when they have no merchant name.
 */
export interface RawKeyDays {
  direction: Direction;
  merchant_name: string | null;
  /** The description, for rows without a merchant name only; null otherwise. */
  description: string | null;
  /** Whether these rows are DEBIT transfers to an investment platform (never a stream). */
  to_platform: boolean;
  /** Distinct `YYYY-MM-DD` dates, in any order. */
  dates: readonly string[];
}

/** The raw texts whose rows a stream is made of: merchant names, and descriptions of nameless rows. */
export interface StreamTexts {
  merchantNames: readonly string[];
  descriptions: readonly string[];
}

/** One counted row of a candidate stream's raw texts. */
export interface RecurringRow {
  id: string;
  account_id: string;
  transacted_at: string;
  /** Exact decimal text. */
  amount: string;
  direction: Direction;
  merchant_name: string | null;
  description: string;
  category: Category;
  subcategory: string | null;
  to_platform: boolean;
}

export const STREAM_STATUSES = ['mature', 'early_detection', 'tombstoned'] as const;
export type StreamStatus = (typeof STREAM_STATUSES)[number];

/** A stream as the response lists it; money as decimal text with two places. */
export interface RecurringStream {
  stream_id: string;
  merchant_name: string | null;
  description: string;
  category: Category;
  subcategory: string | null;
  cadence: Cadence;
  status: StreamStatus;
  is_active: boolean;
  first_date: string;
  last_date: string;
  predicted_next_date: string | null;
  transaction_count: number;
  average_amount: string;
  last_amount: string;
  annual_amount: string;
  amount_change: { previous_amount: string; changed_on: string } | null;
  account_ids: string[];
  transaction_ids: string[];
}

export interface RecurringStreams {
  outflow_streams: RecurringStream[];
  inflow_streams: RecurringStream[];
}
