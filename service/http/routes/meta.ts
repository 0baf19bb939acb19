// Public routes: health and the OpenAPI document.
import Type from 'typebox';
import type { FastifyInstance } from 'fastify';
import { Health } from '../../api/schemas.ts';

export function metaRoutes(app: FastifyInstance, { version }: { version: string }) {
  app.get('/healthz', {
    schema: { operationId: 'health', summary: 'Liveness', tags: ['meta'], response: { 200: Health } },
    handler: async () => ({ status: 'ok' as const, version }),
  });
  app.get('/v1/openapi.json', {
    schema: {
      operationId: 'openapi',
      summary: 'This OpenAPI 3.1 document',
      tags: ['meta'],
      // Declared, so the document describes its own response like every other one.
      response: {
        200: {
          description: 'The OpenAPI 3.1 document of this API.',
          content: { 'application/json': { schema: Type.Object({}, { additionalProperties: true }) } },
        },
      },
    },
    handler: async () => app.swagger(),
  });
}
