import { z } from 'zod';
import { PAGE_SIZE_MAX, PAGE_SIZE_MIN } from '../../http/pagination.ts';

// Interim plain zod until src/http/validation lands (pydantic-exact 422 bodies).
const date = z.iso.date().optional();
const int = z.string().regex(/^\d+$/).transform(Number).pipe(z.int());

export const paginationQuery = {
  page: int
    .pipe(z.int().min(1))
    .optional()
    .meta({ description: '1-based page number; defaults to 1 once pagination is on.' }),
  page_size: int
    .pipe(z.int().min(PAGE_SIZE_MIN).max(PAGE_SIZE_MAX))
    .optional()
    .meta({
      description: `Page size, ${PAGE_SIZE_MIN} to ${PAGE_SIZE_MAX}; defaults to ${PAGE_SIZE_MAX} once pagination is on.`,
    }),
};

export const TransactionListQuery = z.object({
  transacted_at_from: date.meta({ description: 'First date included (YYYY-MM-DD).' }),
  transacted_at_to: date.meta({ description: 'Last date included (YYYY-MM-DD).' }),
  ...paginationQuery,
});
