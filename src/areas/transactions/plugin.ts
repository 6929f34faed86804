import type { Readable } from 'node:stream';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { foldCase } from '../../domain/case-fold.ts';
import { Exact, exact, formatDifference, formatMoney } from '../../domain/money.ts';
import { SYNC_GONE } from '../../http/errors.ts';
import { sendDetail } from '../../http/fastapi/detail.ts';
import {
  RequestValidationError,
  type ValidationErrorItem,
  valueError,
} from '../../http/fastapi/index.ts';
import { lastRawValue } from '../../http/fastapi/raw-query.ts';
import { ALTERNATIVE_CONTENT } from '../../http/openapi-document.ts';
import { pageRequest, paginated } from '../../http/pagination.ts';
import { GENERATION_HEADER, markRevalidatable } from '../../http/revalidation.ts';
import {
  ErrorDetail,
  notFoundResponse,
  protectedResponses,
  validationResponse,
} from '../../http/schemas.ts';
import { currentClient } from '../../port/client-context.ts';
import {
  type DailyTotalRecord,
  StoreUnavailableError,
  type TransactionFilters,
} from '../../port/read-port.ts';
import { resolveCategories } from '../common/categories-filter.ts';
import { CONTENT_TYPES, NOT_ACCEPTABLE, negotiatedFormat } from './export/formats.ts';
import { HeavyListPlaces } from './heavy-lists.ts';
import { exportFileName, FILE_CONTENT, listBody } from './list-formats.ts';
import { SYNC_COUNT_DEFAULT, TransactionListQuery, TransactionSyncQuery } from './query.ts';
import {
  type DailyTotal,
  Transaction,
  TransactionListResponse,
  TransactionSyncResponse,
} from './schemas.ts';
import { listedTransaction, transactionListStream, wholeBody } from './stream.ts';
import { type CursorState, decodeCursor, encodeCursor, syncPage } from './sync.ts';

/**
 * An unpaginated list of more transactions than this is heavy: seconds of a core and a body of
 * tens of megabytes. At most `heavyListsMax` are sent at once (HEAVY_LISTS_MAX), shared by
 * client (heavy-lists.ts).
 */
export const HEAVY_LIST_ROWS = 20_000;

/** `Retry-After` for a client refused a heavy list beyond its share: about one list's time. */
const HEAVY_LIST_RETRY_AFTER_S = 10;

export const transactionsPlugin: FastifyPluginAsyncZod<{ heavyListsMax?: number }> = async (
  app,
  options,
) => {
  const heavyLists = new HeavyListPlaces(options.heavyListsMax ?? 0);

  app.get(
    '/v2/users/transactions',
    {
      schema: {
        operationId: 'listTransactions',
        summary: 'List transactions',
        description:
          'Every transaction of the user, newest first: hidden ones, internal transfers and investment-account activity included and flagged. ' +
          'Pagination turns on when `page` or `page_size` is passed; without either, every matching transaction is returned and `next`/`previous` are null. ' +
          'A page past the end answers 200 with an empty list. ' +
          'Filters combine (all must hold) and are kept in `next`/`previous`; `daily_totals` and `count` cover the matching transactions. ' +
          'The same list comes as a file of the transactions alone, one row each, when `format` (which wins) or `Accept` asks for it: CSV (`text/csv`), NDJSON (`application/x-ndjson`) or Parquet (`application/vnd.apache.parquet`), with `Content-Disposition: attachment`; an `Accept` that admits none of the four media types answers 406. A file without pagination is streamed like the JSON list, and cut short (never shortened) if the store fails midway.',
        tags: ['transactions'],
        querystring: TransactionListQuery,
        response: {
          200: TransactionListResponse,
          406: ErrorDetail,
          ...protectedResponses,
          ...validationResponse,
        },
        [ALTERNATIVE_CONTENT]: FILE_CONTENT,
      },
      config: { representation: requestedFormat },
    },
    async (request, reply) => {
      const { userId, store } = request;
      const filters = transactionFilters(request);
      const format = request.query.format ?? negotiatedFormat(request.headers.accept);
      if (format === undefined) return sendDetail(reply, 406, NOT_ACCEPTABLE);
      const page = pageRequest(request.query, lastRawValue(request, 'page'));
      /** A file is an attachment; named once it is sure to be sent (not on an error answer). */
      const attach = () => {
        if (format === 'json') return;
        const name = exportFileName({
          userId,
          from: filters.from,
          to: filters.to,
          generation: store.generation,
          page: page ? { page: page.exactPage, size: page.pageSize } : null,
          format,
        });
        reply.header('content-disposition', `attachment; filename="${name}"`);
      };
      if (page === undefined) {
        // Every matching transaction: streamed, whatever their number.
        const [total, accounts] = await Promise.all([
          store.transactionCount(userId, filters),
          store.accounts(userId),
        ]);
        let finished = () => {};
        if (total > HEAVY_LIST_ROWS) {
          const turn = heavyLists.take(currentClient());
          if ('refused' in turn) {
            const held = `lists of over ${HEAVY_LIST_ROWS} transactions are being sent already`;
            if (turn.refused === 'full') throw new StoreUnavailableError(`${held} to others`);
            reply.header('retry-after', String(HEAVY_LIST_RETRY_AFTER_S));
            return sendDetail(reply, 429);
          }
          finished = turn.release;
        }
        let body: Readable;
        try {
          body = await transactionListStream(
            total,
            store.transactionChunks(userId, filters),
            listBody(format, total, accounts),
            (error) => {
              // The answer has started: only a cut-short body tells the client, so the socket
              // is destroyed (the chunked body never ends). The status line goes out first if
              // the compressor still held it, so the client sees a broken 200, not a bare
              // reset, and the framework takes it for a stream cut short, not an error to answer.
              request.server.faultLog.warn(request.log, 'list cut short: the store failed', error);
              if (!reply.raw.headersSent) reply.raw.flushHeaders();
              reply.raw.destroy();
            },
          );
        } catch (error) {
          finished();
          throw error;
        }
        // Sent, cut short or abandoned by the client: the stream or the response closes.
        body.once('close', finished);
        reply.raw.once('close', finished);
        markRevalidatable(request, reply);
        attach();
        // From here the list goes at its reader's pace: it holds no running place (a slow
        // reader would hold it for minutes); the heavy-list places and the stalled-reader cut
        // bound it instead.
        request.leaveRunning();
        // A stream skips the response serializer: its bytes are written to the schema's shape.
        return reply.type(CONTENT_TYPES[format]).send(body as never);
      }
      const [{ rows, dailyTotals, ...list }, accounts] = await Promise.all([
        paginated(request, (window) => store.transactions(userId, filters, window)),
        store.accounts(userId),
      ]);
      if (format !== 'json') {
        // Bytes skip serialization, and so its hook's headers.
        markRevalidatable(request, reply);
        attach();
        return reply
          .type(CONTENT_TYPES[format])
          .send(wholeBody(listBody(format, list.count, accounts), rows) as never);
      }
      return {
        ...list,
        transactions: rows.map(listedTransaction),
        accounts,
        daily_totals: dailyTotals.map(dailyTotal),
      };
    },
  );

  app.get(
    '/v2/users/transactions/sync',
    {
      schema: {
        operationId: 'syncTransactions',
        summary: 'Sync transactions',
        description:
          'What changed in the user’s transactions since a cursor: `added`, `modified` (as the list shows them) and `removed` (ids), the net change between the data the cursor stands at and the current data, `count` changes a page, by transaction id. ' +
          'Without a cursor every current transaction is added. While `has_more` is true, ask again with `next_cursor`: every page of one sync reads the data it started on, even if newer data is published meanwhile. Once `has_more` is false, keep `next_cursor`: the next sync starts there. ' +
          'Following the cursors from none to the end reproduces the unpaginated list exactly; syncing again from the last cursor yields exactly what changed since. ' +
          'A cursor the store’s history no longer leads to answers 410: sync again without one. That is a cursor older than the change log the store keeps, one issued before the store was rebuilt in full, and one issued after the point a store was restored to (a restored copy, a rolled-back sequence of change sets: what the client holds may be gone). A cursor that is not one of ours (edited, truncated, another user’s) answers 422. Each page names the generation it was read at in `X-Store-Generation`: while a sync is under way, the one it started on.',
        tags: ['transactions'],
        querystring: TransactionSyncQuery,
        response: {
          200: TransactionSyncResponse,
          410: ErrorDetail,
          ...protectedResponses,
          ...validationResponse,
        },
      },
    },
    async (request, reply) => {
      const { userId, store } = request;
      const raw = request.query.cursor;
      let cursor: CursorState | null = null;
      if (raw) {
        const decoded = decodeCursor(store.sync.cursorKey, userId, raw);
        if (!decoded) {
          throw new RequestValidationError([
            valueError('cursor', 'invalid cursor', lastRawValue(request, 'cursor')),
          ]);
        }
        if (decoded === 'stale') return sendDetail(reply, 410, SYNC_GONE);
        cursor = decoded;
      }
      const page = await syncPage(store, userId, cursor, request.query.count ?? SYNC_COUNT_DEFAULT);
      if (page === 'gone') return sendDetail(reply, 410, SYNC_GONE);
      if (page === 'ahead') {
        throw new StoreUnavailableError('the cursor is ahead of the data this replica serves');
      }
      // A page of a sync under way reads the generation the sync started on, and says so.
      reply.header(GENERATION_HEADER, page.generation);
      return {
        added: page.added.map(listedTransaction),
        modified: page.modified.map(listedTransaction),
        removed: page.removed,
        next_cursor: encodeCursor(store.sync.cursorKey, userId, page.next),
        has_more: page.hasMore,
      };
    },
  );

  app.get(
    '/v2/users/transactions/:id',
    {
      schema: {
        operationId: 'getTransaction',
        summary: 'One transaction',
        description:
          'One transaction of the user by its `id`. 404 when the user has none with that id, whether or not another user has: the answer never says which.',
        tags: ['transactions'],
        params: TransactionParams,
        response: { 200: Transaction, ...protectedResponses, ...notFoundResponse },
      },
    },
    async (request, reply) => {
      const row = await request.store.transaction(request.userId, request.params.id);
      if (!row) return sendDetail(reply, 404);
      return listedTransaction(row);
    },
  );
};

const TransactionParams = z.object({
  id: z
    .string()
    .meta({ description: 'The transaction `id` (as the list and `transaction_ids` give it).' }),
});

type ListRequest = FastifyRequest<{ Querystring: z.infer<typeof TransactionListQuery> }>;

/**
 * The format a list request asks for, read before validation (the last `format` sent, else
 * `Accept`'s): its ETag's representation. A `format` that is no format answers 422 later.
 */
function requestedFormat(request: FastifyRequest): string {
  const sent = (request.query as Record<string, string | string[] | undefined>).format;
  const format = Array.isArray(sent) ? sent.at(-1) : sent;
  return format ?? negotiatedFormat(request.headers.accept) ?? 'not acceptable';
}

/** Amounts are cents: a bound beyond any amount the store can hold selects as well as this one. */
const AMOUNT_LIMIT = new Exact('1e30');

/** An amount bound on the cent grid: the smallest cent at or above (min), at or below (max). */
function centBound(value: string | undefined, rounding: 'up' | 'down'): string | null {
  if (value === undefined) return null;
  const bound = Exact.max(Exact.min(exact(value), AMOUNT_LIMIT), AMOUNT_LIMIT.negated());
  return bound
    .toDecimalPlaces(2, rounding === 'up' ? Exact.ROUND_CEIL : Exact.ROUND_FLOOR)
    .toFixed(2);
}

/**
 * The validated query as the engine's filters, after the checks across parameters (reversed
 * dates, reversed amounts, an unknown category), reported together as FastAPI would.
 */
function transactionFilters(request: ListRequest): TransactionFilters {
  const query = request.query;
  const problems: ValidationErrorItem[] = [];
  const from = query.transacted_at_from ?? null;
  const to = query.transacted_at_to ?? null;
  if (from !== null && to !== null && from > to) {
    problems.push(
      valueError(
        'transacted_at_from',
        'transacted_at_from must be on or before transacted_at_to',
        lastRawValue(request, 'transacted_at_from'),
      ),
    );
  }
  const { categories, problem } = resolveCategories(request, query.categories);
  if (problem) problems.push(problem);
  if (
    query.min_amount !== undefined &&
    query.max_amount !== undefined &&
    exact(query.min_amount).gt(exact(query.max_amount))
  ) {
    problems.push(
      valueError(
        'min_amount',
        'min_amount must be at most max_amount',
        lastRawValue(request, 'min_amount'),
      ),
    );
  }
  if (problems.length > 0) throw new RequestValidationError(problems);
  return {
    from,
    to,
    accountIds: query.account_ids,
    linkId: query.link_id ? query.link_id : null,
    categories,
    direction: query.direction ?? null,
    minAmount: centBound(query.min_amount, 'up'),
    maxAmount: centBound(query.max_amount, 'down'),
    text: query.q ? foldCase(query.q) : null,
  };
}

function dailyTotal(row: DailyTotalRecord): z.infer<typeof DailyTotal> {
  return {
    date: row.date,
    debits: formatMoney(row.debits),
    credits: formatMoney(row.credits),
    net: formatDifference(row.credits, row.debits),
    count: row.count,
  };
}
