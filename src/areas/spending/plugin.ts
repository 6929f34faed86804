/**
 * GET /v2/users/spending (docs/api.md) and the legacy GET /v1/users/spending: the same query
 * and body, with its cash-flow fields null, marked deprecated in favour of v2.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { z } from 'zod';
import { effectiveWindow } from '../../domain/calendar.ts';
import type { SpendingQuery } from '../../domain/spending/model.ts';
import { shapeSpendingAnalysis } from '../../domain/spending/shape.ts';
import { userCurrency } from '../../domain/taxonomy.ts';
import { RequestValidationError, type ValidationErrorItem } from '../../http/fastapi/index.ts';
import type { ResponseCache } from '../../http/response-cache.ts';
import { markRevalidatable } from '../../http/revalidation.ts';
import { protectedResponses, validationResponse } from '../../http/schemas.ts';
import { compileWriter } from '../../http/serializer.ts';
import { resolveCategories } from '../common/categories-filter.ts';
import { windowProblem } from '../common/window-query.ts';
import { type SpendingBody, spendingBody } from './body.ts';
import { SpendingAnalysisEnrichedResponse, SpendingQueryString } from './schemas.ts';

/**
 * Turns the validated query into the engine's query, running the checks across parameters
 * (start after end, unknown category) and reporting them together, as FastAPI would.
 */
function spendingQuery(
  request: FastifyRequest,
  query: SpendingQueryString,
  today: string,
): SpendingQuery {
  const problems: ValidationErrorItem[] = [];
  const window = effectiveWindow(today, query.start_date, query.end_date);
  const windowOrder = windowProblem(request, window);
  if (windowOrder) problems.push(windowOrder);
  const { categories, problem } = resolveCategories(request, query.categories);
  if (problem) problems.push(problem);
  if (problems.length > 0) throw new RequestValidationError(problems);
  return {
    userId: request.userId,
    window,
    groupBy: query.group_by,
    timePeriod: query.time_period,
    secondaryGroupBy: query.secondary_group_by ?? null,
    linkId: query.link_id ? query.link_id : null,
    accountIds: query.account_ids,
    categories,
    includeIncome: query.include_income,
    minTotalAmount: query.min_total_amount,
  };
}

/**
 * The legacy endpoint's lifecycle headers: deprecated since 2026-01-01 (RFC 9745, a structured
 * date: `@` and Unix seconds), removed after 2027-06-30 (RFC 8594, an HTTP-date).
 */
const LEGACY_DEPRECATION = `@${Date.UTC(2026, 0, 1) / 1000}`;
const LEGACY_SUNSET = new Date(Date.UTC(2027, 5, 30, 23, 59, 59)).toUTCString();

/** The legacy endpoint has no cash flow. */
const NO_CASH_FLOW = {
  total_income: null,
  total_expenses: null,
  savings_rate: null,
} as const satisfies Partial<SpendingBody>;

/** An answer as the route's schema serializes it, cut around request_id and created_at. */
interface SerializedAnalysis {
  /** `{"spending":...,"summary":...` */
  head: string;
  /** `,"by_time_period":...}`: the fields after created_at, and the closing brace. */
  tail: string;
}

/** The answer's fields before request_id and created_at, and those after: the route's writer, cut. */
const writeHead = compileWriter(
  SpendingAnalysisEnrichedResponse.pick({ spending: true, summary: true }),
);
const writeTail = compileWriter(
  SpendingAnalysisEnrichedResponse.omit({
    spending: true,
    summary: true,
    request_id: true,
    created_at: true,
  }),
);

/** Writes the answer as the route's serializer does, cut where the per-request fields go. */
function serialized(
  analysis: Omit<z.input<typeof SpendingAnalysisEnrichedResponse>, 'request_id' | 'created_at'>,
): SerializedAnalysis {
  const after = writeTail(analysis);
  return {
    head: writeHead(analysis).slice(0, -1),
    tail: after === '{}' ? '}' : `,${after.slice(1)}`,
  };
}

export const spendingPlugin: FastifyPluginAsyncZod<{ cache: ResponseCache }> = async (
  app,
  options,
) => {
  const routeSchema = {
    tags: ['spending'],
    querystring: SpendingQueryString,
    response: {
      200: SpendingAnalysisEnrichedResponse,
      ...validationResponse,
      ...protectedResponses,
    },
  };

  // The analysis depends only on the store's content and the resolved query (window included),
  // so it is cached per store generation, as the bytes the route's schema serializes; the
  // per-request request_id and created_at are written between them on every answer.
  const { cache } = options;
  const length = (analysis: SerializedAnalysis) => analysis.head.length + analysis.tail.length;

  /** `legacy`: the v1 body, its cash-flow fields null. */
  function analyse(legacy: boolean) {
    return async (
      request: FastifyRequest<{ Querystring: SpendingQueryString }>,
      reply: FastifyReply,
    ) => {
      const query = spendingQuery(request, request.query, app.clock.today());
      const key = `spending ${legacy ? 'v1' : 'v2'} ${JSON.stringify(query)}`;
      const analysis = await cache.get(
        request.store.generation,
        key,
        async () => {
          const [aggregates, accounts] = await Promise.all([
            request.store.spendingAggregates(query),
            request.store.accounts(query.userId),
          ]);
          const body = spendingBody(shapeSpendingAnalysis(query, aggregates));
          return serialized({
            ...(legacy ? { ...body, ...NO_CASH_FLOW } : body),
            currency: userCurrency(accounts),
          });
        },
        length,
      );
      markRevalidatable(request, reply);
      // A string skips the serializer: these are its bytes, validated when they were cached.
      return reply
        .type('application/json; charset=utf-8')
        .send(
          `${analysis.head},"request_id":${JSON.stringify(request.id)},"created_at":${JSON.stringify(new Date().toISOString())}${analysis.tail}` as never,
        );
    };
  }

  app.get(
    '/v2/users/spending',
    {
      schema: {
        ...routeSchema,
        operationId: 'getSpending',
        summary: 'Spending analysis',
        description:
          "Categorized spending of the token's user over a window, grouped by category, merchant " +
          'or calendar period, with summary figures and whole-window cash flow.',
      },
    },
    analyse(false),
  );

  app.get(
    '/v1/users/spending',
    {
      schema: {
        ...routeSchema,
        operationId: 'getSpendingLegacy',
        summary: 'Spending analysis (legacy)',
        description:
          'Deprecated: use /v2/users/spending. Same query and body; total_income, ' +
          'total_expenses and savings_rate are always null.',
        deprecated: true,
      },
    },
    async (request, reply) => {
      reply.header('deprecation', LEGACY_DEPRECATION);
      reply.header('sunset', LEGACY_SUNSET);
      reply.header('link', '</v2/users/spending>; rel="successor-version"');
      return analyse(true)(request, reply);
    },
  );
};
