import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { sendDetail } from '../../http/fastapi/detail.ts';
import { notFoundResponse, protectedResponses } from '../../http/schemas.ts';

export const UserProfile = z
  .object({
    id: z.string(),
    name: z.string(),
    email: z.string(),
    phone: z.string().nullable(),
  })
  .meta({ id: 'UserProfile', description: "The token owner's profile" });

export const userPlugin: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/v1/user',
    {
      schema: {
        operationId: 'getUserProfile',
        summary: 'User profile',
        description: "The name, email and phone of the token's owner.",
        tags: ['user'],
        response: { 200: UserProfile, ...protectedResponses, ...notFoundResponse },
      },
    },
    async (request, reply) => {
      const user = await request.store.profile(request.userId);
      // A token whose user row vanished is rejected by the auth join; this guards a race only.
      if (!user) return sendDetail(reply, 404);
      return user;
    },
  );
};
