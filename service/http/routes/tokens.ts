// /v1/auth/tokens: the review API tokens of the owner, managed with the dashboard token.
import Type from 'typebox';
import type { FastifyInstance } from 'fastify';
import { LIMITS } from '../../api/limits.ts';
import {
  CreateTokenBody,
  CreatedToken,
  TokenIdParams,
  TokenList,
  type CreateTokenBody as CreateBody,
} from '../../api/schemas.ts';
import type { TokenService } from '../../auth/tokens.ts';
import { principalOf } from '../auth.ts';
import { dashboardSecurity } from '../route-schemas.ts';

const tags = ['tokens'];

export function tokenRoutes(app: FastifyInstance, { tokens, rateLimit }: { tokens: TokenService; rateLimit: number }) {
  const config = (scope: 'tokens:read' | 'tokens:write') => ({
    auth: { type: 'dashboard', scope } as const,
    rateLimit: rateLimit > 0 ? { max: rateLimit, timeWindow: 60_000, groupId: 'tokens' } : (false as const),
  });

  app.post<{ Body: CreateBody }>('/v1/auth/tokens', {
    bodyLimit: LIMITS.smallBodyBytes,
    config: config('tokens:write'),
    schema: {
      operationId: 'createToken',
      summary: 'Create a review API token',
      description:
        'Answers the token record with its secret in `token`. The secret is shown this once and never again; only its SHA-256 hash is kept.',
      tags,
      security: dashboardSecurity,
      body: CreateTokenBody,
      response: { 201: CreatedToken },
      errorStatuses: [400, 401, 403, 429, 500],
    },
    handler: async (request, reply) => {
      const created = await tokens.createReviewToken(principalOf(request).owner, request.body);
      return reply.code(201).header('cache-control', 'no-store').send(created);
    },
  });

  app.get('/v1/auth/tokens', {
    config: config('tokens:read'),
    schema: {
      operationId: 'listTokens',
      summary: 'List the review API tokens, newest first',
      description: 'Revoked tokens and the dashboard token are not listed.',
      tags,
      security: dashboardSecurity,
      response: { 200: TokenList },
      errorStatuses: [401, 403, 429, 500],
    },
    handler: async (request) => ({ tokens: await tokens.list(principalOf(request).owner) }),
  });

  app.delete<{ Params: { id: string } }>('/v1/auth/tokens/:id', {
    config: config('tokens:write'),
    schema: {
      operationId: 'deleteToken',
      summary: 'Revoke a review API token',
      description: 'The token fails from its very next request.',
      tags,
      security: dashboardSecurity,
      params: TokenIdParams,
      response: { 204: Type.Null({ description: 'Revoked.' }) },
      errorStatuses: [401, 403, 404, 429, 500],
    },
    handler: async (request, reply) => {
      await tokens.revoke(principalOf(request).owner, request.params.id);
      return reply.code(204).send();
    },
  });
}
