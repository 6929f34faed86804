import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';

export const incomePlugin: FastifyPluginAsyncZod = async () => {};
