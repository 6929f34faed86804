import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';

export const transactionsPlugin: FastifyPluginAsyncZod = async () => {};
