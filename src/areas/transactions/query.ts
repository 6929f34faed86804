import { qDate, queryObject } from '../../http/fastapi/index.ts';
import { paginationQuery } from '../../http/pagination.ts';

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
