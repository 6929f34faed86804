import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';

export const linksPlugin: FastifyPluginAsyncZod = async () => {};
