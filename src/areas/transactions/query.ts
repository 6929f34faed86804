import { PAGE_SIZE_MAX, PAGE_SIZE_MIN } from '../../http/pagination.ts';
import { qDate, qInt, queryObject } from '../../http/validation/index.ts';

/** `page` and `page_size` of api-spec.md; either one turns pagination on. */
export const paginationQuery = {
  page: qInt({
    ge: 1,
    optional: true,
    description: '1-based page number; defaults to 1 once pagination is on.',
  }),
  page_size: qInt({
    ge: PAGE_SIZE_MIN,
    le: PAGE_SIZE_MAX,
    optional: true,
    description: `Page size, ${PAGE_SIZE_MIN} to ${PAGE_SIZE_MAX}; defaults to ${PAGE_SIZE_MAX} once pagination is on.`,
  }),
};

export const TransactionListQuery = queryObject({
  transacted_at_from: qDate({
    optional: true,
    description: 'First transaction date included (YYYY-MM-DD).',
  }),
  transacted_at_to: qDate({
    optional: true,
    description: 'Last transaction date included (YYYY-MM-DD).',
  }),
  ...paginationQuery,
});
