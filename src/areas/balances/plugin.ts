import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';

export const balancesPlugin: FastifyPluginAsyncZod = async () => {};
