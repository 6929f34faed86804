/**
 * The recurring streams' rules (domain/recurring/streams.ts, docs/api.md "GET
 * /v2/users/recurring") on rows made here: which keys are read, status and its boundaries, the
 * amounts and their rounding, the amount change, the order.
 */
import { describe, expect, it } from 'vitest';
import { addDays } from '../../src/domain/calendar.ts';
import type { RawKeyDays, RecurringRow } from '../../src/domain/recurring/model.ts';
import { planStreams, shapeStreams } from '../../src/domain/recurring/streams.ts';
import type { Direction } from '../../src/domain/taxonomy.ts';

interface Charge {
  date: string;
  amount?: string;
  merchant?: string | null;
  description?: string;
  direction?: Direction;
  account?: string;
  platform?: boolean;
  id?: string;
}

let sequence = 0;
function row(charge: Charge): RecurringRow {
  sequence += 1;
  return {
    id: charge.id ?? `t${String(sequence).padStart(4, '0')}`,
    account_id: charge.account ?? 'a1',
    transacted_at: charge.date,
    amount: charge.amount ?? '10.00',
    direction: charge.direction ?? 'DEBIT',
    merchant_name: charge.merchant === undefined ? 'Merchant' : charge.merchant,
    description: charge.description ?? 'MERCHANT 123',
    category: 'General Services',
    subcategory: null,
    to_platform: charge.platform ?? false,
  };
}

/** What an engine reads of these rows: the days of each raw key. */
function keyDaysOf(rows: readonly RecurringRow[]): RawKeyDays[] {
  const groups = new Map<string, RawKeyDays & { dates: string[] }>();
  for (const r of rows) {
    const description = r.merchant_name ? null : r.description;
    const key = JSON.stringify([r.direction, r.merchant_name, description, r.to_platform]);
    const group = groups.get(key) ?? {
      direction: r.direction,
      merchant_name: r.merchant_name,
      description,
      to_platform: r.to_platform,
      dates: [],
    };
    if (!group.dates.includes(r.transacted_at)) group.dates.push(r.transacted_at);
    groups.set(key, group);
  }
  return [...groups.values()];
}

/** The streams of `charges` as of `today`. */
function streamsOf(charges: readonly Charge[], today = '2026-11-20') {
  const rows = charges.map(row);
  const plan = planStreams(keyDaysOf(rows));
  const { merchantNames, descriptions } = plan.texts;
  // What the engine sends back for the plan's texts.
  const read = rows.filter((r) =>
    r.merchant_name
      ? merchantNames.includes(r.merchant_name)
      : descriptions.includes(r.description),
  );
  return { plan, ...shapeStreams('u1', today, plan, read) };
}

/** `count` charges `gap` days apart, the last on `last`. */
const every = (gap: number, count: number, last: string, extra: Omit<Charge, 'date'> = {}) =>
  Array.from({ length: count }, (_, i) => ({
    ...extra,
    date: addDays(last, -gap * (count - 1 - i)),
  }));

describe('planStreams', () => {
  it('merges raw keys that make one merchant key, and asks for their texts only', () => {
    const { plan, outflow_streams } = streamsOf([
      { date: '2026-08-05', merchant: 'Netflix' },
      { date: '2026-09-05', merchant: 'NETFLIX' },
      { date: '2026-10-05', merchant: null, description: 'NETFLIX' },
      { date: '2026-10-20', merchant: 'Corner Cafe' },
    ]);
    expect(plan.texts).toEqual({
      merchantNames: ['NETFLIX', 'Netflix'],
      descriptions: ['NETFLIX'],
    });
    expect(outflow_streams.map((s) => s.transaction_count)).toEqual([3]);
  });

  it('leaves out transfers to an investment platform, a key of noise only and a single date', () => {
    const { plan } = streamsOf([
      ...every(30, 4, '2026-11-02', { merchant: 'Robinhood', platform: true }),
      ...every(30, 4, '2026-11-03', { merchant: null, description: '#1234 5678' }),
      { date: '2026-11-04', merchant: 'Once' },
    ]);
    expect(plan.candidates.size).toBe(0);
    expect(plan.texts).toEqual({ merchantNames: [], descriptions: [] });
  });

  it('drops rows to a platform even of a key that forms a stream', () => {
    const { outflow_streams } = streamsOf([
      ...every(30, 3, '2026-11-02', { merchant: 'Robinhood' }),
      { date: '2026-11-03', merchant: 'Robinhood', platform: true, amount: '500.00' },
    ]);
    expect(outflow_streams[0]?.transaction_count).toBe(3);
    expect(outflow_streams[0]?.last_amount).toBe('10.00');
  });
});

describe('status', () => {
  it('is early with two dates, mature from three (from two when yearly)', () => {
    const status = (charges: Charge[]) => streamsOf(charges).outflow_streams[0]?.status;
    expect(status(every(30, 2, '2026-11-10'))).toBe('early_detection');
    expect(status(every(30, 3, '2026-11-10'))).toBe('mature');
    expect(status(every(182, 2, '2026-11-10'))).toBe('early_detection');
    expect(status(every(365, 2, '2026-11-10'))).toBe('mature');
  });

  it.each([
    // Weekly from 2026-11-10 (a Tuesday): next 11-17, grace 3 days -> active through 11-20.
    ['weekly', 7, '2026-11-10', '2026-11-17', 3],
    // Biweekly: next 11-24, grace 7.
    ['biweekly', 14, '2026-11-10', '2026-11-24', 7],
    // Monthly on the 10th: next 2026-12-10, grace 15.
    ['monthly', 30, '2026-11-10', '2026-12-10', 15],
    // Quarterly on the 10th: next 2027-02-10, grace 45.
    ['quarterly', 91, '2026-11-10', '2027-02-10', 45],
  ])(
    '%s: tombstoned only once next date + grace is before today',
    (cadence, gap, last, next, grace) => {
      // Monthly and quarterly dates on the 10th whatever the month's length.
      const dates =
        cadence === 'monthly'
          ? ['2026-08-10', '2026-09-10', '2026-10-10', '2026-11-10']
          : cadence === 'quarterly'
            ? ['2026-02-10', '2026-05-10', '2026-08-10', '2026-11-10']
            : every(gap, 4, last).map((charge) => charge.date);
      const charges = dates.map((date) => ({ date }));
      const lastDay = addDays(next, grace);
      const on = streamsOf(charges, lastDay).outflow_streams[0];
      expect(on).toMatchObject({ cadence, status: 'mature', predicted_next_date: next });
      const after = streamsOf(charges, addDays(lastDay, 1)).outflow_streams[0];
      expect(after).toMatchObject({
        cadence,
        status: 'tombstoned',
        is_active: false,
        predicted_next_date: null,
      });
    },
  );
});

describe('amounts', () => {
  it('averages every transaction exactly, rounding once, half away from zero', () => {
    // 0.01 + 0.02 = 0.03 / 2 = 0.015 -> 0.02; weekly x 52 = 0.78.
    const [stream] = streamsOf([
      { date: '2026-11-03', amount: '0.01' },
      { date: '2026-11-10', amount: '0.02' },
    ]).outflow_streams;
    expect(stream).toMatchObject({ average_amount: '0.02', annual_amount: '0.78' });
    // 10.00 + 10.00 + 10.01 = 30.01 / 3 = 10.0033.. -> 10.00; monthly: 30.01 x 12 / 3 = 120.04.
    const [monthly] = streamsOf([
      { date: '2026-09-10' },
      { date: '2026-10-10' },
      { date: '2026-11-10', amount: '10.01' },
    ]).outflow_streams;
    expect(monthly).toMatchObject({ average_amount: '10.00', annual_amount: '120.04' });
  });

  it('reports a change of more than 5% of the amount before, from when the last amount took hold', () => {
    const change = (amounts: string[]) =>
      streamsOf(amounts.map((amount, i) => ({ date: addDays('2026-06-10', 7 * i), amount })))
        .outflow_streams[0]?.amount_change;
    expect(change(['10.00', '10.00', '10.00'])).toBeNull();
    // Exactly 5% is not a change; 5.01% is.
    expect(change(['100.00', '100.00', '105.00'])).toBeNull();
    expect(change(['100.00', '100.00', '105.01'])).toEqual({
      previous_amount: '100.00',
      changed_on: '2026-06-24',
    });
    expect(change(['100.00', '100.00', '95.00'])).toBeNull();
    expect(change(['100.00', '100.00', '94.99'])).toEqual({
      previous_amount: '100.00',
      changed_on: '2026-06-24',
    });
    // The last amount held since the third charge: the change is dated then.
    expect(change(['13.99', '13.99', '15.99', '15.99', '15.99'])).toEqual({
      previous_amount: '13.99',
      changed_on: '2026-06-24',
    });
    // Back to an old amount: compared with the one just before.
    expect(change(['10.00', '12.00', '10.00'])).toEqual({
      previous_amount: '12.00',
      changed_on: '2026-06-24',
    });
  });

  it('takes the last transaction by date, then id, and lists the accounts once, ascending', () => {
    const [stream] = streamsOf([
      { date: '2026-10-10', account: 'b_card', id: 'x1' },
      { date: '2026-11-10', account: 'a_chk', id: 'x3', amount: '7.00', description: 'LATE' },
      { date: '2026-11-10', account: 'b_card', id: 'x2', amount: '9.00' },
      { date: '2026-09-10', account: 'b_card', id: 'x0' },
    ]).outflow_streams;
    expect(stream).toMatchObject({
      transaction_ids: ['x0', 'x1', 'x2', 'x3'],
      last_amount: '7.00',
      description: 'LATE',
      account_ids: ['a_chk', 'b_card'],
      transaction_count: 4,
    });
  });
});

describe('order', () => {
  it('lists outflows and inflows apart, each by annual amount, largest first', () => {
    const { outflow_streams, inflow_streams } = streamsOf([
      ...every(30, 3, '2026-11-10', { merchant: 'Small', amount: '5.00' }),
      ...every(30, 3, '2026-11-11', { merchant: 'Big', amount: '50.00' }),
      ...every(30, 3, '2026-11-12', { merchant: 'Monthly', amount: '10.00' }),
      // 2.31 x 52 = 120.12, above 10.00 x 12.
      ...every(7, 3, '2026-11-12', { merchant: 'Weekly', amount: '2.31' }),
      ...every(30, 3, '2026-11-13', { merchant: 'Pay', direction: 'CREDIT', amount: '900.00' }),
    ]);
    expect(outflow_streams.map((s) => [s.merchant_name, s.annual_amount])).toEqual([
      ['Big', '600.00'],
      ['Weekly', '120.12'],
      ['Monthly', '120.00'],
      ['Small', '60.00'],
    ]);
    expect(inflow_streams.map((s) => [s.merchant_name, s.annual_amount])).toEqual([
      ['Pay', '10800.00'],
    ]);
  });

  it('compares annual amounts as written: a tie is broken by stream id', () => {
    // Beta: weekly, 20.02 x 52 / 3 = 347.0133..; Alpha: monthly, 115.67 x 12 / 4 = 347.01. Both
    // are written 347.01, so Alpha's smaller stream id (str_58d8..., Beta's str_d923...) leads,
    // though Beta's exact amount is larger.
    const { outflow_streams } = streamsOf([
      ...['6.67', '6.67', '6.68'].map((amount, i) => ({
        date: addDays('2026-11-01', 7 * i),
        merchant: 'Beta',
        amount,
      })),
      ...['28.91', '28.92', '28.92', '28.92'].map((amount, i) => ({
        date: `2026-${String(8 + i).padStart(2, '0')}-05`,
        merchant: 'Alpha',
        amount,
      })),
    ]);
    expect(outflow_streams.map((s) => [s.merchant_name, s.annual_amount, s.stream_id])).toEqual([
      ['Alpha', '347.01', 'str_58d8ffc2c1a81e72cb1e9e97'],
      ['Beta', '347.01', 'str_d92317d32d98cdd545961bd2'],
    ]);
  });
});
