// Bearer-token authentication, declared per route (`config.auth`) and checked before the body is read.
import type { FastifyInstance, onRequestHookHandler } from 'fastify';
import type { TokenService } from '../auth/tokens.ts';
import type { AuthRequirement, Principal } from '../auth/verify-token.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The token type and scope the route needs; routes without it are public. */
    auth?: AuthRequirement;
  }
  interface FastifyRequest {
    principal?: Principal;
  }
}

/**
 * Gives each route that declares `config.auth` an onRequest hook of its own, first among its
 * onRequest hooks (as a global hook would run): public routes, the 404 and the 405 answers pay
 * nothing, and no request looks its route's config up. Callback style, so that a request waits
 * for one promise (the token lookup), not for the hook's own as well. Must be installed before the
 * routes are declared. Where the tokens are at hand (a store with a SyncTokenLookup, lowdb's) the
 * hook waits for no promise at all; both ways end in the same verifyToken.
 */
export function installAuth(app: FastifyInstance, tokens: TokenService) {
  app.decorateRequest('principal', undefined);
  app.addHook('onRoute', (route) => {
    const need = route.config?.auth;
    if (!need) return;
    const authenticate: onRequestHookHandler = (request, _reply, done) => {
      let principal: Principal | undefined;
      try {
        principal = tokens.authenticateSync(request.headers.authorization, need);
      } catch (error) {
        done(error as Error);
        return;
      }
      if (principal !== undefined) {
        request.principal = principal;
        done();
        return;
      }
      tokens.authenticate(request.headers.authorization, need).then((found) => {
        request.principal = found;
        done();
      }, done);
    };
    route.onRequest = [authenticate, ...(route.onRequest === undefined ? [] : [route.onRequest].flat())];
  });
}

/** The authenticated caller of a route that declares `config.auth`. */
export function principalOf(request: { principal?: Principal }): Principal {
  if (!request.principal) throw new Error('route has no config.auth');
  return request.principal;
}
