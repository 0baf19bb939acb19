// Bearer-token authentication, declared per route (`config.auth`) and checked before the body is read.
import type { FastifyInstance } from 'fastify';
import type { AuthRequirement, Principal, TokenService } from '../auth/tokens.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The token type and scope the route needs; routes without it are public. */
    auth?: AuthRequirement;
  }
  interface FastifyRequest {
    principal?: Principal;
  }
}

export function installAuth(app: FastifyInstance, tokens: TokenService) {
  app.decorateRequest('principal', undefined);
  app.addHook('onRequest', async (request) => {
    const need = request.routeOptions.config.auth;
    if (need) request.principal = await tokens.authenticate(request.headers.authorization, need);
  });
}

/** The authenticated caller of a route that declares `config.auth`. */
export function principalOf(request: { principal?: Principal }): Principal {
  if (!request.principal) throw new Error('route has no config.auth');
  return request.principal;
}
