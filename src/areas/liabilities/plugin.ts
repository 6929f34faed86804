import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';

export const liabilitiesPlugin: FastifyPluginAsyncZod = async () => {};
