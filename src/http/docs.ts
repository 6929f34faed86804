/**
 * Serves the interface description: `/openapi.json`, `/openapi.yaml` and an interactive
 * reference at `/docs` (Swagger UI from the installed package's own assets, no CDN).
 *
 * Register before the routes: @fastify/swagger collects them as they are added.
 */
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { jsonSchemaTransform, jsonSchemaTransformObject } from 'fastify-type-provider-zod';
import {
  documentToYaml,
  finishDocument,
  INFO,
  type Json,
  loadExamples,
} from './openapi-document.ts';

type JsonSchemaTransformObject = typeof jsonSchemaTransformObject;

export const docsPlugin = fp(async (app: FastifyInstance) => {
  const transformObject: JsonSchemaTransformObject = (input) =>
    finishDocument(
      jsonSchemaTransformObject(input) as Json,
      loadExamples(),
    ) as ReturnType<JsonSchemaTransformObject>;
  await app.register(swagger, {
    openapi: { openapi: '3.1.0', info: INFO },
    transform: jsonSchemaTransform,
    transformObject,
  });

  // The documentation routes need no token.
  await app.register(async (docs) => {
    docs.addHook('onRoute', (route) => {
      route.config = { ...route.config, public: true };
    });
    await docs.register(swaggerUi, {
      routePrefix: '/docs',
      uiConfig: { deepLinking: true, displayRequestDuration: true, tryItOutEnabled: false },
      validatorUrl: false,
      theme: { title: 'Personal Finance API reference' },
    });
    let yamlText: string | undefined;
    docs.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());
    docs.get('/openapi.yaml', { schema: { hide: true } }, async (_request, reply) => {
      yamlText ??= documentToYaml(app.swagger());
      return reply.type('application/yaml; charset=utf-8').send(yamlText);
    });
  });
});
