/**
 * Recurring streams across change sets, on the engine of this test run: a stream keeps its
 * stream_id while its user, direction and merchant key stay (a new charge, a reworded
 * description, another account), and each generation is answered from its own data (the cached
 * answer of the one before is not served).
 */
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ChangingStore, openChangingStore } from '../helpers/changing-store.ts';
import type { FixtureRow } from '../helpers/store.ts';

const TODAY = '2026-11-20';

const charge = (id: string, date: string, extra: Partial<FixtureRow> = {}): FixtureRow => ({
  id,
  user_id: 'u1',
  account_id: 'a_chk',
  transacted_at: date,
  amount: '15.49',
  direction: 'DEBIT',
  description: 'STREAMFLIX.COM',
  merchant_name: 'StreamFlix',
  category: 'Entertainment',
  ...extra,
});

interface Stream {
  stream_id: string;
  status: string;
  transaction_ids: string[];
  account_ids: string[];
  description: string;
  predicted_next_date: string | null;
}

describe('GET /v2/users/recurring across change sets', () => {
  let store: ChangingStore;
  const streams = async (): Promise<Stream[]> => {
    const response = await store.app.inject({
      url: '/v2/users/recurring',
      headers: store.headers('u1'),
    });
    expect(response.statusCode, response.body).toBe(200);
    return response.json().outflow_streams;
  };

  beforeAll(async () => {
    store = await openChangingStore(
      {
        users: [{ id: 'u1', name: 'U', email: 'u@example.com', created_at: '2025-01-01 00:00:00' }],
        links: [
          {
            id: 'l1',
            user_id: 'u1',
            type: 'institution',
            name: 'Bank',
            status: 'active',
            created_at: '2025-01-01 00:00:00',
          },
        ],
        accounts: [
          { id: 'a_chk', user_id: 'u1', link_id: 'l1', name: 'Checking', type: 'depository' },
          { id: 'a_card', user_id: 'u1', link_id: 'l1', name: 'Card', type: 'credit' },
        ],
        transactions: [
          charge('f1', '2026-08-10'),
          charge('f2', '2026-09-10'),
          charge('f3', '2026-10-10'),
        ],
      },
      TODAY,
    );
  });
  afterAll(() => store?.close());

  it('keeps the stream id while the user, direction and merchant key stay', async () => {
    // SHA-256 of "u1", NUL, "DEBIT", NUL, "streamflix", in hex: its first 24 digits.
    const streamId = `str_${createHash('sha256').update('u1\0DEBIT\0streamflix').digest('hex').slice(0, 24)}`;
    const [before] = await streams();
    expect(before).toMatchObject({
      stream_id: streamId,
      transaction_ids: ['f1', 'f2', 'f3'],
      predicted_next_date: '2026-11-10',
    });

    // A new charge on the card, spelt otherwise; an old one's description reworded.
    await store.apply({
      upserts: {
        transactions: [
          charge('f4', '2026-11-10', {
            account_id: 'a_card',
            merchant_name: 'STREAMFLIX',
            description: 'STREAMFLIX 800-555-0101',
          }),
          charge('f1', '2026-08-10', { description: 'STREAMFLIX.COM MEMBERSHIP' }),
        ],
      },
    });
    const [after] = await streams();
    expect(after).toMatchObject({
      stream_id: streamId,
      status: 'mature',
      transaction_ids: ['f1', 'f2', 'f3', 'f4'],
      account_ids: ['a_card', 'a_chk'],
      description: 'STREAMFLIX 800-555-0101',
      predicted_next_date: '2026-12-10',
    });
  });

  it('drops a stream left with a single date', async () => {
    await store.apply({ deletes: { transactions: [{ id: 'f2' }, { id: 'f3' }, { id: 'f4' }] } });
    expect(await streams()).toEqual([]);
  });
});
