/**
 * The recurring streams' rules (docs/api.md, "GET /v2/users/recurring"), in two steps so that an
 * engine sends only what they read: planStreams finds, from the distinct days of every raw key,
 * the keys whose dates have a cadence (and the raw texts whose rows to read); shapeStreams makes
 * the streams of those rows: status, amounts, dates, order.
 */

import {
  CADENCES,
  type Cadence,
  inferCadence,
  nextExpectedDate,
  PERIODS_PER_YEAR,
} from '../cadence.ts';
import { addDays } from '../calendar.ts';
import { compareCodePoints, Exact, exact, money, ratio } from '../money.ts';
import type { Direction } from '../taxonomy.ts';
import { merchantKey, streamId } from './key.ts';
import type {
  RawKeyDays,
  RecurringRow,
  RecurringStream,
  RecurringStreams,
  StreamStatus,
  StreamTexts,
} from './model.ts';

/**
 * Days of grace after the next expected date before a stream is tombstoned: half the cadence's
 * length in whole days (7, 14, 15, 30, 91, 182, 365), at least 3.
 */
const GRACE_DAYS: Readonly<Record<Cadence, number>> = {
  weekly: 3,
  biweekly: 7,
  semimonthly: 7,
  monthly: 15,
  quarterly: 45,
  semiannually: 91,
  annually: 182,
};

/** A stream is mature from this many distinct dates (annual ones from 2); with fewer, early. */
const MATURE_DATES = 3;
const MATURE_ANNUAL_DATES = 2;

/**
 * An amount differing from the one before by more than this share of it is a change: 5%, as
 * `|last - previous| x 20 > previous`.
 */
const CHANGE_DIVISOR = 20;

/** A key whose dates have a cadence: a stream, once its rows are read. */
interface Candidate {
  direction: Direction;
  key: string;
  /** Distinct, ascending. */
  dates: string[];
  cadence: Cadence;
}

export interface StreamPlan {
  /** By direction and key (identityOf). */
  candidates: ReadonlyMap<string, Candidate>;
  /** The raw texts whose rows make the candidates. */
  texts: StreamTexts;
}

const identityOf = (direction: Direction, key: string) => `${direction}\0${key}`;

/**
 * The keys that form streams: rows to investment platforms set aside, the raw keys' days merged
 * per direction and merchant key, kept when they fit a cadence (two dates at least).
 */
export function planStreams(rawKeys: readonly RawKeyDays[]): StreamPlan {
  const merged = new Map<
    string,
    { direction: Direction; key: string; dates: Set<string>; raw: RawKeyDays[] }
  >();
  for (const raw of rawKeys) {
    if (raw.to_platform) continue;
    const key = merchantKey(raw.merchant_name, raw.description ?? '');
    if (key === '') continue;
    const identity = identityOf(raw.direction, key);
    let entry = merged.get(identity);
    if (!entry) {
      entry = { direction: raw.direction, key, dates: new Set(), raw: [] };
      merged.set(identity, entry);
    }
    for (const date of raw.dates) entry.dates.add(date);
    entry.raw.push(raw);
  }
  const candidates = new Map<string, Candidate>();
  const merchantNames = new Set<string>();
  const descriptions = new Set<string>();
  for (const [identity, { direction, key, dates, raw }] of merged) {
    const sorted = [...dates].sort();
    const cadence = inferCadence(sorted, CADENCES);
    if (cadence === null) continue;
    candidates.set(identity, { direction, key, dates: sorted, cadence });
    for (const { merchant_name, description } of raw) {
      if (merchant_name) merchantNames.add(merchant_name);
      else descriptions.add(description ?? '');
    }
  }
  return {
    candidates,
    texts: { merchantNames: [...merchantNames].sort(), descriptions: [...descriptions].sort() },
  };
}

/** Date order, then id (by code point). */
const byDateThenId = (a: RecurringRow, b: RecurringRow) =>
  a.transacted_at < b.transacted_at
    ? -1
    : a.transacted_at > b.transacted_at
      ? 1
      : compareCodePoints(a.id, b.id);

/**
 * The amount before the stream's last amount took hold, and when it did: the latest row whose
 * amount differs from the last row's, and the date of the row after it; null when every row has
 * the last amount, or the two differ by 5% of the earlier one or less.
 */
function amountChange(rows: readonly RecurringRow[]): RecurringStream['amount_change'] {
  const last = exact((rows.at(-1) as RecurringRow).amount);
  let first = rows.length - 1;
  while (first > 0 && exact((rows[first - 1] as RecurringRow).amount).eq(last)) first--;
  if (first === 0) return null;
  const previous = exact((rows[first - 1] as RecurringRow).amount);
  if (!last.minus(previous).abs().times(CHANGE_DIVISOR).gt(previous)) return null;
  return {
    previous_amount: money(previous),
    changed_on: (rows[first] as RecurringRow).transacted_at,
  };
}

function streamOf(
  userId: string,
  today: string,
  { direction, key, dates, cadence }: Candidate,
  rows: RecurringRow[],
): RecurringStream {
  rows.sort(byDateThenId);
  const last = rows.at(-1) as RecurringRow;
  const total = Exact.sum(...rows.map((row) => row.amount));
  const next = nextExpectedDate(dates, cadence);
  const tombstoned = addDays(next, GRACE_DAYS[cadence]) < today;
  const matureFrom = cadence === 'annually' ? MATURE_ANNUAL_DATES : MATURE_DATES;
  const status: StreamStatus = tombstoned
    ? 'tombstoned'
    : dates.length >= matureFrom
      ? 'mature'
      : 'early_detection';
  return {
    stream_id: streamId(userId, direction, key),
    merchant_name: last.merchant_name ? last.merchant_name : null,
    description: last.description,
    category: last.category,
    subcategory: last.subcategory,
    cadence,
    status,
    is_active: !tombstoned,
    first_date: dates[0] as string,
    last_date: dates.at(-1) as string,
    predicted_next_date: tombstoned ? null : next,
    transaction_count: rows.length,
    average_amount: money(ratio(total, rows.length)),
    last_amount: money(exact(last.amount)),
    annual_amount: money(ratio(total.times(PERIODS_PER_YEAR[cadence]), rows.length)),
    amount_change: amountChange(rows),
    account_ids: [...new Set(rows.map((row) => row.account_id))].sort(compareCodePoints),
    transaction_ids: rows.map((row) => row.id),
  };
}

/** Largest annual amount (as written) first, then stream id. */
const byAnnualAmount = (a: RecurringStream, b: RecurringStream) =>
  exact(b.annual_amount).cmp(exact(a.annual_amount)) || compareCodePoints(a.stream_id, b.stream_id);

/**
 * The streams of `plan` from the counted rows of its texts (read up to `today`, the day a stream
 * is judged on): outflows (DEBIT) and inflows (CREDIT), each by annual amount.
 */
export function shapeStreams(
  userId: string,
  today: string,
  plan: StreamPlan,
  rows: readonly RecurringRow[],
): RecurringStreams {
  const rowsOf = new Map<string, RecurringRow[]>();
  for (const row of rows) {
    if (row.to_platform) continue;
    const identity = identityOf(row.direction, merchantKey(row.merchant_name, row.description));
    if (!plan.candidates.has(identity)) continue;
    const own = rowsOf.get(identity);
    if (own) own.push(row);
    else rowsOf.set(identity, [row]);
  }
  const streams: RecurringStreams = { outflow_streams: [], inflow_streams: [] };
  for (const [identity, candidate] of plan.candidates) {
    const own = rowsOf.get(identity);
    if (!own) continue;
    const stream = streamOf(userId, today, candidate, own);
    (candidate.direction === 'DEBIT' ? streams.outflow_streams : streams.inflow_streams).push(
      stream,
    );
  }
  streams.outflow_streams.sort(byAnnualAmount);
  streams.inflow_streams.sort(byAnnualAmount);
  return streams;
}
