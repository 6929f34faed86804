/**
 * GET /v2/users/recurring (docs/api.md): the user's recurring streams, money out and money in.
 * The store reads the distinct days of each raw key, then the rows of the keys whose days have a
 * cadence; the domain (domain/recurring/) decides everything else.
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { RecurringScope } from '../../domain/recurring/model.ts';
import { planStreams, shapeStreams } from '../../domain/recurring/streams.ts';
import { userCurrency } from '../../domain/taxonomy.ts';
import type { ResponseCache } from '../../http/response-cache.ts';
import { markRevalidatable } from '../../http/revalidation.ts';
import { protectedResponses } from '../../http/schemas.ts';
import { compileWriter } from '../../http/serializer.ts';
import type { ReadPort } from '../../port/read-port.ts';
import { RecurringQueryString, RecurringStreamsResponse } from './schemas.ts';

/** The answer as the route's serializer writes it. */
const write = compileWriter(RecurringStreamsResponse);

/** The user's streams in the scope, judged on `scope.through` (today). */
async function recurringStreams(
  store: ReadPort,
  scope: RecurringScope,
): Promise<RecurringStreamsResponse> {
  const [keyDays, accounts] = await Promise.all([
    store.recurringKeyDays(scope),
    store.accounts(scope.userId),
  ]);
  const plan = planStreams(keyDays);
  const rows = plan.candidates.size > 0 ? await store.recurringRows(scope, plan.texts) : [];
  return {
    as_of: scope.through,
    currency: userCurrency(accounts),
    ...shapeStreams(scope.userId, scope.through, plan, rows),
  };
}

export const recurringPlugin: FastifyPluginAsyncZod<{ cache: ResponseCache }> = async (
  app,
  options,
) => {
  // The answer depends only on the store's content, the user, the scope and today, so it is
  // cached per store generation, as the bytes the route's schema serializes.
  const { cache } = options;

  app.get(
    '/v2/users/recurring',
    {
      schema: {
        operationId: 'getRecurringStreams',
        summary: 'Recurring streams',
        description:
          'The user’s recurring streams (subscriptions, bills, pay): the counted transactions of one direction and one merchant key whose dates keep a cadence, over the whole history up to today, ' +
          'with cadence, status, amounts, a price change and the next expected date. Counted as on the spending endpoint: hidden transactions, internal transfers, investment-account activity and transfers to investment platforms never form a stream.',
        tags: ['recurring'],
        querystring: RecurringQueryString,
        // No 422: its parameters are ids, free text that nothing refuses (spending's alike).
        response: { 200: RecurringStreamsResponse, ...protectedResponses },
      },
    },
    async (request, reply) => {
      const { account_ids, link_id } = request.query;
      const scope: RecurringScope = {
        userId: request.userId,
        through: app.clock.today(),
        accountIds: account_ids,
        linkId: link_id ? link_id : null,
      };
      const key = `recurring ${JSON.stringify(scope)}`;
      const text = await cache.get(
        request.store.generation,
        key,
        async () => write(await recurringStreams(request.store, scope)),
        (written) => written.length,
      );
      markRevalidatable(request, reply);
      // A string skips the serializer: these are its bytes.
      return reply.type('application/json; charset=utf-8').send(text as never);
    },
  );
};
