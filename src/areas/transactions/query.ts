import { DIRECTIONS } from '../../domain/taxonomy.ts';
import {
  qDate,
  qDecimal,
  qEnum,
  qInt,
  qList,
  qStr,
  queryObject,
} from '../../http/fastapi/index.ts';
import { paginationQuery } from '../../http/pagination.ts';
import { categoriesParameter } from '../common/categories-filter.ts';
import { LIST_FORMATS } from './export/formats.ts';

export const TransactionListQuery = queryObject({
  transacted_at_from: qDate({
    optional: true,
    description: 'First transaction date included (YYYY-MM-DD).',
  }),
  transacted_at_to: qDate({
    optional: true,
    description: 'Last transaction date included (YYYY-MM-DD).',
  }),
  account_ids: qList({
    description:
      'Account ids, comma-separated (`account_ids=a1,a2`), repeated (`account_ids=a1&account_ids=a2`) or both; blanks trimmed, empty items ignored; no item at all (`account_ids=`) means no filter. Ids that are not yours match nothing.',
  }),
  link_id: qStr({
    optional: true,
    description: 'Only accounts of this link; empty means no filter.',
  }),
  categories: categoriesParameter,
  direction: qEnum(DIRECTIONS, {
    optional: true,
    description: 'DEBIT (money out) or CREDIT (money in).',
  }),
  min_amount: qDecimal({
    optional: true,
    description: 'Smallest amount included (amounts are positive; `direction` tells the sign).',
  }),
  max_amount: qDecimal({ optional: true, description: 'Largest amount included.' }),
  q: qStr({
    optional: true,
    description:
      'Text the description or the merchant name contains, taken literally, case-insensitively (both lower-cased character by character, as DuckDB’s lower() does); empty means no filter.',
  }),
  ...paginationQuery,
  format: qEnum(LIST_FORMATS, {
    optional: true,
    description:
      'The answer’s format: `json` (the default), or a file of the transactions: `csv`, `ndjson` or `parquet`. When sent, it wins over `Accept`; without it the format is negotiated from `Accept` (`application/json`, `text/csv`, `application/x-ndjson`, `application/vnd.apache.parquet`).',
  }),
});

/** docs/api.md: a sync page holds 1 to 500 changes, 100 by default. */
export const SYNC_COUNT_DEFAULT = 100;
export const SYNC_COUNT_MAX = 500;

export const TransactionSyncQuery = queryObject({
  cursor: qStr({
    optional: true,
    description:
      'Where the last sync ended (its `next_cursor`), or where a sync under way goes on (the page before’s `next_cursor` while `has_more`). Omit it (or send it empty) to start from nothing: every current transaction is then `added`. Opaque: send it back as received.',
  }),
  count: qInt({
    ge: 1,
    le: SYNC_COUNT_MAX,
    optional: true,
    description: `Changes per page, 1 to ${SYNC_COUNT_MAX}; default ${SYNC_COUNT_DEFAULT}.`,
  }),
});
