/**
 * Stores whose packed ledgers change sets rewrite, on either engine: rows that exercise every
 * part of a ledger (flags, credits, nulls, non-ASCII texts, a user id the cluster's COPY must
 * escape), three change sets over them, and each user's ledger as a store holds it and as his
 * rows pack it.
 */
import { copyFile } from 'node:fs/promises';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { LEDGERS_TABLE } from '../../src/contract/ledger.ts';
import { writeLedgers } from '../../src/ingest/duckdb/ledgers.ts';
import { sqlString } from '../../src/sql/literals.ts';
import type { ChangeSetFiles } from './changing-store.ts';
import { type FixtureRow, makeTempDir, queryStoreFile } from './store.ts';

/** A user id that must be spelled into the COPY escaped: a quote, a backslash, non-ASCII. */
export const ODD_USER = "usr_d'\\é";
const USERS = ['usr_a', 'usr_b', 'usr_c', ODD_USER, 'usr_gone'];

/** Rows that exercise every part of a ledger: flags, credits, nulls, non-ASCII texts. */
export function baseTables(): Record<string, FixtureRow[]> {
  const users = USERS.map((id) => ({
    id,
    name: `User ${id}`,
    email: `${id}@example.com`,
    created_at: '2025-01-01T00:00:00Z',
  }));
  const active = USERS.filter((user) => user !== 'usr_gone');
  const links = active.map((user) => ({
    id: `lnk_${user}`,
    user_id: user,
    type: 'institution',
    name: 'Bank',
    status: 'active',
    created_at: '2025-01-01T00:00:00Z',
  }));
  const accounts = active.flatMap((user) => [
    {
      id: `acc_${user}_chk`,
      user_id: user,
      link_id: `lnk_${user}`,
      name: 'Checking',
      type: 'depository',
    },
    {
      id: `acc_${user}_inv`,
      user_id: user,
      link_id: `lnk_${user}`,
      name: 'Brokerage',
      type: 'investment',
    },
  ]);
  const texts = ['Café Ünïcode', 'КНИЖНЫЙ ПУШКИН', 'ROBINHOOD DEPOSIT', 'plain shop', '𝒳 emoji 🎉'];
  const transactions = active.flatMap((user, u) =>
    Array.from({ length: 40 }, (_, k) => ({
      id: `txn_${user}_${String(k).padStart(3, '0')}`,
      external_id: k % 3 === 0 ? null : `EXT${u}${k}`,
      user_id: user,
      account_id: `acc_${user}_${k % 4 === 0 ? 'inv' : 'chk'}`,
      // Several rows a day: the id decides their order within it.
      transacted_at: `2026-0${1 + (k % 9)}-1${k % 3}`,
      amount: ((k + 1) * 137 + u).toString().replace(/(\d\d)$/, '.$1'),
      direction: k % 5 === 0 ? 'CREDIT' : 'DEBIT',
      description: texts[k % texts.length] as string,
      merchant_name: k % 3 === 1 ? null : (texts[(k + 1) % texts.length] as string),
      category: ['Food and Drink', 'Transfer Out', 'Travel', 'Income'][k % 4] as string,
      subcategory: k % 2 ? 'Coffee' : null,
      merchant_category_code: k % 7 === 0 ? '5814' : null,
      is_hidden: k % 11 === 0 ? 'true' : 'false',
      is_internal_transfer: k % 13 === 0 ? 'true' : 'false',
    })),
  );
  return { users, links, accounts, transactions };
}

/** The change set: one user's row changed, one's added, a user added and one removed. */
export const CHANGES: ChangeSetFiles = {
  upserts: {
    users: [
      { id: 'usr_new', name: 'New', email: 'new@example.com', created_at: '2026-01-01T00:00:00Z' },
    ],
    transactions: [
      {
        id: 'txn_usr_a_005',
        external_id: null,
        user_id: 'usr_a',
        account_id: 'acc_usr_a_chk',
        transacted_at: '2026-06-12',
        amount: '12.34',
        direction: 'DEBIT',
        description: 'Ωmega corrected',
        merchant_name: null,
        category: 'Travel',
        subcategory: null,
        merchant_category_code: null,
        is_hidden: 'false',
        is_internal_transfer: 'false',
      },
      {
        id: 'txn_usr_b_new',
        external_id: 'NEW1',
        user_id: 'usr_b',
        account_id: 'acc_usr_b_inv',
        transacted_at: '2026-10-01',
        amount: '99.99',
        direction: 'CREDIT',
        description: 'ROBINHOOD TRANSFER',
        merchant_name: 'Robinhood',
        category: 'Income',
        subcategory: 'Dividends',
        merchant_category_code: '6211',
        is_hidden: 'false',
        is_internal_transfer: 'false',
      },
    ],
  },
  deletes: { users: [{ id: 'usr_gone' }] },
};

/**
 * A second change set, on ledgers a change set wrote: a transaction moved to another user, an
 * account's type changed (its stored transactions derived again), a removal, and the first
 * transaction of the user the first one added.
 */
export const MORE_CHANGES: ChangeSetFiles = {
  upserts: {
    accounts: [
      {
        id: 'acc_usr_a_inv',
        user_id: 'usr_a',
        link_id: 'lnk_usr_a',
        name: 'Brokerage',
        type: 'depository',
      },
      {
        id: 'acc_usr_new',
        user_id: 'usr_new',
        link_id: 'lnk_usr_new',
        name: 'Checking',
        type: 'depository',
      },
    ],
    links: [
      {
        id: 'lnk_usr_new',
        user_id: 'usr_new',
        type: 'institution',
        name: 'Bank',
        status: 'active',
        created_at: '2026-01-01T00:00:00Z',
      },
    ],
    transactions: [
      {
        ...(baseTables().transactions?.find((row) => row.id === 'txn_usr_c_003') as FixtureRow),
        user_id: 'usr_b',
        account_id: 'acc_usr_b_chk',
      },
      {
        id: 'txn_usr_new_1',
        external_id: null,
        user_id: 'usr_new',
        account_id: 'acc_usr_new',
        transacted_at: '2026-10-02',
        amount: '5.00',
        direction: 'DEBIT',
        description: 'first',
        merchant_name: null,
        category: 'Food and Drink',
        subcategory: null,
        merchant_category_code: null,
        is_hidden: 'false',
        is_internal_transfer: 'false',
      },
    ],
  },
  deletes: { transactions: [{ id: 'txn_usr_b_010' }] },
};

/** An account name with every kind of character JSON escapes, and some it does not. */
export const ODD_NAME = 'Épargne "joint" \\ tab\t nl\n ctl\u0001\u000b\u001f\u007f / 😀';

/**
 * A third change set, of accounts alone: an account added to usr_c, which none of his
 * transactions refers to; his transactions are untouched, his ledger (which holds his
 * accounts) is not.
 */
export const ACCOUNTS_ONLY: ChangeSetFiles = {
  upserts: {
    accounts: [
      {
        id: 'acc_usr_c_sav',
        user_id: 'usr_c',
        link_id: 'lnk_usr_c',
        name: ODD_NAME,
        mask: '0042',
        type: 'depository',
        subtype: 'savings',
      },
    ],
  },
};

/** Each user's ledger, as hex, in a DuckDB store. */
export async function duckdbLedgers(databasePath: string): Promise<Map<string, string>> {
  const rows = await queryStoreFile<{ user_id: string; packed: string }>(
    databasePath,
    `SELECT user_id, lower(hex(packed)) AS packed FROM ${LEDGERS_TABLE} ORDER BY user_id`,
  );
  return new Map(rows.map((row) => [row.user_id, row.packed]));
}

/**
 * Each user's ledger, as hex, as a build packs it from the rows of the DuckDB store at
 * `databasePath` (packed anew in a copy of it, `batchRows` transactions read at a time).
 */
export async function ledgersPackedFromRows(
  databasePath: string,
  batchRows?: number,
): Promise<Map<string, string>> {
  const copy = join(makeTempDir('ledgers-from-rows'), 'finance.duckdb');
  await copyFile(databasePath, copy);
  const instance = await DuckDBInstance.create(':memory:');
  const conn = await instance.connect();
  try {
    await conn.run(`ATTACH ${sqlString(copy)} AS copy`);
    await conn.run(`DELETE FROM copy.main.${LEDGERS_TABLE}`);
    await writeLedgers(conn, 'copy', null, () => {}, batchRows);
    await conn.run('DETACH copy');
  } finally {
    conn.closeSync();
    instance.closeSync();
  }
  return duckdbLedgers(copy);
}
