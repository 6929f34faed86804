/**
 * 422 answers of the spending endpoints: the checks across parameters (start_date after the
 * effective end_date, unknown categories) and each of the endpoint's own parameters. The
 * validation module's golden tests cover pydantic's wording in general.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CATEGORIES } from '../../src/domain/taxonomy.ts';
import { basicFixtureApp, type SpendingTestApp } from '../fixtures/spending/app.ts';

let t: SpendingTestApp;
beforeAll(async () => {
  t = await basicFixtureApp();
});
afterAll(() => t.close());

// biome-ignore lint/suspicious/noExplicitAny: response bodies are checked field by field
type Body = any;

describe('422: cross-field checks, only once every field is valid, reported together', () => {
  const START_AFTER_END = {
    type: 'value_error',
    loc: ['query', 'start_date'],
    msg: 'Value error, start_date must be on or before end_date',
    input: '2026-03-10',
    ctx: { error: {} },
  };
  const unknownCategory = (name: string, input: unknown) => ({
    type: 'value_error',
    loc: ['query', 'categories'],
    msg: `Value error, unknown category '${name}'; valid categories: ${CATEGORIES.join(', ')}`,
    input,
    ctx: { error: {} },
  });
  it('start_date after end_date', async () => {
    const response = await t.get(
      'group_by=category&time_period=month&start_date=2026-03-10&end_date=2026-03-09',
    );
    expect(response.statusCode).toBe(422);
    expect(response.json()).toEqual({ detail: [START_AFTER_END] });
  });
  it('start_date after the effective end (today)', async () => {
    const response = await t.get('group_by=category&time_period=month&start_date=2026-03-16');
    expect(response.json()).toEqual({ detail: [{ ...START_AFTER_END, input: '2026-03-16' }] });
  });
  it('start_date equal to the end is fine', async () => {
    expect(
      (await t.get('group_by=category&time_period=month&start_date=2026-03-15')).statusCode,
    ).toBe(200);
  });
  it('an unknown category lists the valid names', async () => {
    const response = await t.get(
      'group_by=category&time_period=month&categories=Food and Drink,Groceries',
    );
    expect(response.json()).toEqual({
      detail: [unknownCategory('Groceries', 'Food and Drink,Groceries')],
    });
  });
  it('both cross-field errors at once, start_date first', async () => {
    const response = await t.get(
      'group_by=category&time_period=month&start_date=2026-03-10&end_date=2026-03-09&categories=Nope',
    );
    expect(response.json()).toEqual({
      detail: [START_AFTER_END, unknownCategory('Nope', 'Nope')],
    });
  });
  it('not run while a field is invalid', async () => {
    const response = await t.get(
      'group_by=category&time_period=fortnight&start_date=2026-03-10&end_date=2026-03-09&categories=Nope',
    );
    expect(response.statusCode).toBe(422);
    expect(response.json().detail.map((item: Body) => item.loc)).toEqual([
      ['query', 'time_period'],
    ]);
  });
});

describe('422: the endpoint parameters', () => {
  it.each([
    ['group_by missing', 'time_period=month', 'group_by', 'missing'],
    ['group_by outside the enum', 'group_by=day&time_period=month', 'group_by', 'enum'],
    ['time_period missing', 'group_by=category', 'time_period', 'missing'],
    ['time_period outside the enum', 'group_by=category&time_period=weekly', 'time_period', 'enum'],
    [
      'start_date not a date',
      'group_by=category&time_period=month&start_date=2026-02-30',
      'start_date',
      undefined,
    ],
    [
      'end_date not a date',
      'group_by=category&time_period=month&end_date=tomorrow',
      'end_date',
      undefined,
    ],
    [
      'min_total_amount not a decimal',
      'group_by=category&time_period=month&min_total_amount=abc',
      'min_total_amount',
      'decimal_parsing',
    ],
    [
      'include_income not a boolean',
      'group_by=category&time_period=month&include_income=maybe',
      'include_income',
      'bool_parsing',
    ],
    [
      'secondary_group_by outside the enum',
      'group_by=time_period&time_period=month&secondary_group_by=time_period',
      'secondary_group_by',
      'enum',
    ],
    [
      'secondary_group_by empty',
      'group_by=time_period&time_period=month&secondary_group_by=',
      'secondary_group_by',
      'enum',
    ],
  ])('%s', async (_name, query, parameter, type) => {
    const response = await t.get(query);
    expect(response.statusCode).toBe(422);
    const [item] = response.json().detail;
    expect(item.loc).toEqual(['query', parameter]);
    if (type) expect(item.type).toBe(type);
  });
  it('every field error at once', async () => {
    const response = await t.get('include_income=maybe');
    expect(response.json().detail.map((item: Body) => item.loc[1])).toEqual([
      'group_by',
      'time_period',
      'include_income',
    ]);
  });
});

describe('legacy GET /v1/users/spending validates the same way', () => {
  it('a missing group_by is a 422 there too', async () => {
    const response = await t.get('time_period=month', { path: '/v1/users/spending' });
    expect(response.statusCode).toBe(422);
    expect(response.json().detail[0].loc).toEqual(['query', 'group_by']);
  });
});
