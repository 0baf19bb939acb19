// The usual poll answered before Fastify routes it: GET /v1/reviews/{id} of a finished review by
// its owner, whose bytes the route has already serialized. The one piece the fast path lives in:
// server.ts puts it in front of Fastify's handler and closes it; it reads through the same checks
// the route uses (verifyToken via TokenService, ownedBy, FinishedBodies), only without promises.
import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import { REVIEW_ID } from '../api/schemas.ts';
import type { TokenService } from '../auth/tokens.ts';
import type { AuthRequirement, Principal } from '../auth/verify-token.ts';
import { ownedBy } from '../reviews/ownership.ts';
import type { ReviewService } from '../reviews/review-service.ts';
import type { FinishedBodies } from './finished-bodies.ts';
import type { HostCheck } from './host-check.ts';
import { JSON_TYPE } from './route-schemas.ts';

const PREFIX = '/v1/reviews/';

export interface PollAnswererDeps {
  tokens: TokenService;
  reviews: ReviewService;
  /** The answers of finished reviews, kept by the route. */
  bodies: FinishedBodies;
  /** The token the route demands (its `config.auth`). */
  need: AuthRequirement;
  /** True while each request is logged (at debug): Fastify logs them, so it answers them all. */
  debugLogging(): boolean;
  /** The Host check Fastify makes (a 421 is Fastify's to answer). */
  hostCheck?: HostCheck;
}

/**
 * Clients poll a job until it is finished, and then often go on polling it: that one request is
 * most of the service's traffic. Fastify's routing, hooks and reply objects were about a tenth of
 * its CPU time (test/bench/api-throughput.ts), so a request that is exactly that poll is answered
 * here, before Fastify: the same token check (verifyToken: timing-safe, expiry, scope, last use),
 * the same owner check (ownedBy), the same bytes and headers. Anything else, or anything that would
 * not be answered 200 (a bad or missing token, another owner's review, an unfinished one, one not
 * yet serialized, a query string, a store without synchronous lookups), is left to Fastify, which
 * answers it as it always did. It stands aside while debug logging is on (Fastify logs each
 * request then) and once the server begins to close (Fastify answers 503).
 */
export class PollAnswerer {
  readonly #o: PollAnswererDeps;
  #open = true;

  constructor(deps: PollAnswererDeps) {
    this.#o = deps;
  }

  /** Fastify's request listener with this in front of it. */
  inFrontOf(handler: RequestListener): RequestListener {
    return (request, response) => {
      if (!this.#answer(request, response)) handler(request, response);
    };
  }

  /** From now on every request goes to Fastify. */
  close(): void {
    this.#open = false;
  }

  /** True when the request was answered here. */
  #answer(request: IncomingMessage, response: ServerResponse): boolean {
    if (!this.#open || request.method !== 'GET' || !request.url!.startsWith(PREFIX)) return false;
    const id = request.url!.slice(PREFIX.length);
    if (!REVIEW_ID.test(id) || this.#o.hostCheck?.allows(request.headers.host) === false) return false;
    // Before the token: a request that will not be answered here should not be authenticated twice.
    const review = this.#o.reviews.peek(id);
    const bytes = review === undefined ? undefined : this.#o.bodies.get(review);
    if (bytes === undefined || this.#o.debugLogging()) return false;
    let caller: Principal | undefined;
    try {
      caller = this.#o.tokens.authenticateSync(request.headers.authorization, this.#o.need);
    } catch {
      return false; // Fastify checks the token again, and answers the 401 or 403
    }
    if (caller === undefined || !ownedBy(review!, caller.owner)) return false;
    response.writeHead(200, { 'content-type': JSON_TYPE, 'content-length': bytes.length });
    response.end(bytes);
    return true;
  }
}
