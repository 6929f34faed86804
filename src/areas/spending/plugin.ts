import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';

export const spendingPlugin: FastifyPluginAsyncZod = async () => {};
