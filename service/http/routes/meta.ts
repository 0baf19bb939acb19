// Public routes: health and the OpenAPI document.
import type { FastifyInstance } from 'fastify';
import { Health } from '../../api/schemas.ts';

export function metaRoutes(app: FastifyInstance, { version }: { version: string }) {
  app.get('/healthz', {
    schema: { operationId: 'health', summary: 'Liveness', tags: ['meta'], response: { 200: Health } },
    handler: async () => ({ status: 'ok' as const, version }),
  });
  app.get('/v1/openapi.json', {
    schema: { operationId: 'openapi', summary: 'This OpenAPI 3.1 document', tags: ['meta'] },
    handler: async () => app.swagger(),
  });
}
