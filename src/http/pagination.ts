import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { PageWindow } from '../port/read-port.ts';
import { qInt } from './fastapi/index.ts';
import { parseInteger } from './fastapi/pydantic.ts';
import { lastRawValue } from './fastapi/raw-query.ts';

/** docs/api.md "Limits": page_size bounds and default once paginating. */
const PAGE_SIZE_MIN = 10;
const PAGE_SIZE_MAX = 500;
const PAGE_SIZE_DEFAULT = 500;

/** `page` and `page_size` of docs/api.md; either one turns pagination on. */
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
    description: `Page size, ${PAGE_SIZE_MIN} to ${PAGE_SIZE_MAX}; defaults to ${PAGE_SIZE_DEFAULT} once pagination is on.`,
  }),
};

/** One page of a list; `undefined` means the caller asked for no pagination. */
export interface PageRequest {
  page: number;
  /** The page number exactly as sent: past 2^53 `page` is rounded, this is not. */
  exactPage: bigint;
  pageSize: number;
  /** Rows before the page's first. */
  offset: number;
}

/** Pagination turns on when `page` or `page_size` is passed (docs/api.md, rule 1). */
export function pageRequest(
  query: { page?: number | undefined; page_size?: number | undefined },
  rawPage: string | null = null,
): PageRequest | undefined {
  if (query.page === undefined && query.page_size === undefined) return undefined;
  const page = query.page ?? 1;
  const pageSize = query.page_size ?? PAGE_SIZE_DEFAULT;
  return {
    page,
    exactPage: exactPage(page, rawPage),
    pageSize,
    // pydantic accepts any int: a page far past the end must still read as an empty page.
    offset: Math.min((page - 1) * pageSize, Number.MAX_SAFE_INTEGER),
  };
}

export interface PageLinks {
  next: string | null;
  previous: string | null;
}

/**
 * `next` and `previous` as paths relative to the base URL, carrying every query parameter the
 * caller sent, with only `page` changed. `previous` is page - 1 whenever page > 1, so a page
 * past the end points at the page before it (docs/api.md: "null on the first page" only).
 */
export function pageLinks(
  requestUrl: string,
  page: PageRequest | undefined,
  count: number,
): PageLinks {
  if (!page) return { next: null, previous: null };
  const current = page.exactPage;
  const hasNext = page.page * page.pageSize < count;
  return {
    next: hasNext ? urlForPage(requestUrl, current + 1n) : null,
    previous: current > 1n ? urlForPage(requestUrl, current - 1n) : null,
  };
}

export interface Paginated<T> extends PageLinks {
  count: number;
  rows: T[];
}

/**
 * A list endpoint's pagination: the rows of the page the request asks for (every row when it
 * asks for none) with the total count across pages, and the links.
 */
export async function paginated<T, P extends { rows: T[]; total: number }>(
  request: FastifyRequest<{ Querystring: { page?: number; page_size?: number } }>,
  fetchPage: (window: PageWindow) => Promise<P>,
): Promise<Omit<P, 'total'> & Paginated<T>> {
  const page = pageRequest(request.query, lastRawValue(request, 'page'));
  const { total, ...result } = await fetchPage({
    limit: page?.pageSize ?? null,
    offset: page?.offset ?? 0,
  });
  return { ...result, count: total, ...pageLinks(request.url, page, total) };
}

/** The validated page, or the raw one when the number lost precision. */
function exactPage(page: number, raw: string | null): bigint {
  if (Number.isSafeInteger(page) || raw === null) return BigInt(page);
  const parsed = parseInteger(raw);
  return parsed.ok ? parsed.value : BigInt(page);
}

function urlForPage(requestUrl: string, page: bigint): string {
  const at = requestUrl.indexOf('?');
  const path = at < 0 ? requestUrl : requestUrl.slice(0, at);
  // Re-encoding every other parameter is URLSearchParams' job here (reading one is not).
  const query = new URLSearchParams(at < 0 ? '' : requestUrl.slice(at + 1));
  // `set` replaces the first `page` in place and drops repeats (the last value was the one used).
  query.set('page', String(page));
  return `${path}?${query.toString()}`;
}

/** The list envelope fields shared by paginated responses. */
export const paginationFields = {
  count: z.int().min(0).meta({ description: 'Total results across all pages.' }),
  next: z.string().nullable().meta({
    description:
      'Relative URL (path and query) of the next page, carrying every query parameter sent; null on the last page or without pagination.',
  }),
  previous: z.string().nullable().meta({
    description:
      'Relative URL (path and query) of the previous page, carrying every query parameter sent; null on the first page or without pagination.',
  }),
};
