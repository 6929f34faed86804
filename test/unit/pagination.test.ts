import { describe, expect, it } from 'vitest';
import { pageLinks, pageRequest } from '../../src/http/pagination.ts';

describe('pageRequest: pagination turns on with page or page_size', () => {
  it('neither -> off', () => {
    expect(pageRequest({})).toBeUndefined();
  });
  it('page only -> page_size 500', () => {
    expect(pageRequest({ page: 3 })).toEqual({
      page: 3,
      exactPage: 3n,
      pageSize: 500,
      offset: 1000,
    });
  });
  it('page_size only -> page 1', () => {
    expect(pageRequest({ page_size: 10 })).toEqual({
      page: 1,
      exactPage: 1n,
      pageSize: 10,
      offset: 0,
    });
  });
});

describe('pageLinks', () => {
  const url = '/v2/users/transactions?transacted_at_from=2026-01-01&page_size=10';
  it('no pagination -> both null', () => {
    expect(pageLinks(url, undefined, 1000)).toEqual({ next: null, previous: null });
  });
  it('first page: next only, page appended, other parameters kept in order', () => {
    expect(pageLinks(url, pageRequest({ page_size: 10 }), 25)).toEqual({
      next: '/v2/users/transactions?transacted_at_from=2026-01-01&page_size=10&page=2',
      previous: null,
    });
  });
  it('middle page: page replaced in place', () => {
    const middle = '/v2/users/transactions?page=2&page_size=10';
    expect(pageLinks(middle, pageRequest({ page: 2, page_size: 10 }), 25)).toEqual({
      next: '/v2/users/transactions?page=3&page_size=10',
      previous: '/v2/users/transactions?page=1&page_size=10',
    });
  });
  it('last page: previous only; exactly full last page has no next', () => {
    const last = '/v1/links?page=3&page_size=10';
    expect(pageLinks(last, pageRequest({ page: 3, page_size: 10 }), 30)).toEqual({
      next: null,
      previous: '/v1/links?page=2&page_size=10',
    });
  });
  it('a repeated page collapses to the one new value', () => {
    const repeated = '/v1/links?page=1&page_size=10&page=2';
    expect(pageLinks(repeated, pageRequest({ page: 2, page_size: 10 }), 30).next).toBe(
      '/v1/links?page=3&page_size=10',
    );
  });
  it('past the end: no next, previous is the page before (null only on page 1)', () => {
    expect(pageLinks('/v1/links?page=9', pageRequest({ page: 9, page_size: 10 }), 25)).toEqual({
      next: null,
      previous: '/v1/links?page=8',
    });
    expect(pageLinks('/v1/links?page=4', pageRequest({ page: 4 }), 0).previous).toBe(
      '/v1/links?page=3',
    );
    expect(pageLinks('/v1/links?page=1', pageRequest({ page: 1 }), 0)).toEqual({
      next: null,
      previous: null,
    });
  });
  it('a page past 2^53 keeps its exact value in previous', () => {
    const url = '/v1/links?page=99999999999999999999&page_size=10';
    const page = pageRequest(
      { page: Number(99999999999999999999n), page_size: 10 },
      '99999999999999999999',
    );
    expect(pageLinks(url, page, 30)).toEqual({
      next: null,
      previous: '/v1/links?page=99999999999999999998&page_size=10',
    });
  });
});
