// The typed client of API v1 (its contract: service/api, served as /v1/openapi.json). One method per operation.
import type { RuleDetail } from '../api/rule-schemas.ts';
import type {
  CreatedToken,
  CreateReviewBody,
  CreateTokenBody,
  Health,
  ListReviewsQuery,
  ReviewJob,
  ReviewList,
  TokenList,
} from '../api/schemas.ts';
import { reviewEvents } from './events.ts';
import { followReviews, ownerEvents, type OwnerEvent } from './owner-events.ts';
import { newIdempotencyKey } from './idempotency-key.ts';
import type {
  CallOptions,
  ClientOptions,
  CreateReviewOptions,
  EventsOptions,
  FollowOptions,
  WaitOptions,
} from './options.ts';
import { createTransport } from './transport.ts';
import { waitForReview } from './wait.ts';

/** A SARIF 2.1.0 log, as returned by GET /v1/reviews/{id}/sarif. Only the envelope is typed. */
export interface SarifLog {
  version: string;
  $schema?: string;
  runs: unknown[];
  [key: string]: unknown;
}

export interface DiffReviewClient {
  /** The base address in use, without a trailing slash. */
  readonly baseUrl: string;
  /** GET /healthz (no token needed). */
  health(options?: CallOptions): Promise<Health>;
  /** GET /v1/openapi.json: the service's OpenAPI 3.1 document (no token needed). */
  openapi(options?: CallOptions): Promise<Record<string, unknown>>;
  /** POST /v1/reviews: answered with the job in state `queued`. Always sends an Idempotency-Key. */
  createReview(body: CreateReviewBody, options?: CreateReviewOptions): Promise<ReviewJob>;
  /** GET /v1/reviews/{id}. */
  getReview(reviewId: string, options?: CallOptions): Promise<ReviewJob>;
  /** GET /v1/reviews: newest first, one page; pass `next_cursor` as `cursor` for the next. */
  listReviews(query?: ListReviewsQuery, options?: CallOptions): Promise<ReviewList>;
  /** POST /v1/reviews/{id}/cancel: a queued or running job ends `failed` with code `cancelled`. */
  cancelReview(reviewId: string, options?: CallOptions): Promise<ReviewJob>;
  /** GET /v1/reviews/{id}/sarif: the result as SARIF 2.1.0. */
  getSarif(reviewId: string, options?: CallOptions): Promise<SarifLog>;
  /** GET /v1/reviews/{id}/events: each state of the job until a terminal one (Server-Sent Events). */
  events(reviewId: string, options?: EventsOptions): AsyncGenerator<ReviewJob, void, undefined>;
  /** GET /v1/events: the owner's unfinished reviews, `ready`, then every change of any of them, until the service ends the stream. */
  ownerEvents(options?: EventsOptions): AsyncGenerator<OwnerEvent, void, undefined>;
  /** Keeps GET /v1/events open (reopened with backoff) until the signal fires or the token is refused. */
  followReviews(options: FollowOptions): Promise<never>;
  /** Waits for `completed` or `failed`: events first, polling when they are missing or break. */
  waitForReview(reviewId: string, options?: WaitOptions): Promise<ReviewJob>;
  /** GET /v1/rules/{id} (no token needed): one rule's documentation, its page as Markdown included. */
  getRule(ruleId: string, options?: CallOptions): Promise<RuleDetail>;
  /** POST /v1/auth/tokens (dashboard token): the answer holds the secret, shown only this once. */
  createToken(body: CreateTokenBody, options?: CallOptions): Promise<CreatedToken>;
  /** GET /v1/auth/tokens (dashboard token). */
  listTokens(options?: CallOptions): Promise<TokenList>;
  /** DELETE /v1/auth/tokens/{id} (dashboard token): revokes the token. */
  deleteToken(tokenId: string, options?: CallOptions): Promise<void>;
}

export function createClient(options: ClientOptions): DiffReviewClient {
  const transport = createTransport(options);
  const review = (id: string, suffix = '') => `/v1/reviews/${encodeURIComponent(id)}${suffix}`;

  const client: DiffReviewClient = {
    baseUrl: transport.baseUrl,
    health: (o = {}) => transport.json({ method: 'GET', path: '/healthz', anonymous: true, signal: o.signal }),
    openapi: (o = {}) => transport.json({ method: 'GET', path: '/v1/openapi.json', anonymous: true, signal: o.signal }),
    createReview: (body, o = {}) =>
      transport.json({
        method: 'POST',
        path: '/v1/reviews',
        json: body,
        headers: { 'idempotency-key': o.idempotencyKey ?? newIdempotencyKey() },
        retryable: true,
        noRateLimitRetry: o.retryRateLimited === false,
        signal: o.signal,
      }),
    getReview: (id, o = {}) => transport.json({ method: 'GET', path: review(id), signal: o.signal }),
    listReviews: (query = {}, o = {}) =>
      transport.json({
        method: 'GET',
        path: '/v1/reviews',
        searchParams: { status: query.status, repository: query.repository, limit: query.limit, cursor: query.cursor },
        signal: o.signal,
      }),
    cancelReview: (id, o = {}) => transport.json({ method: 'POST', path: review(id, '/cancel'), signal: o.signal }),
    getSarif: (id, o = {}) => transport.json({ method: 'GET', path: review(id, '/sarif'), signal: o.signal }),
    events: (id, o = {}) => reviewEvents(transport, id, o),
    ownerEvents: (o = {}) => ownerEvents(transport, o),
    followReviews: (o) => followReviews(transport, o),
    waitForReview: (id, o = {}) => waitForReview(client, id, o),
    getRule: (id, o = {}) =>
      transport.json({ method: 'GET', path: `/v1/rules/${encodeURIComponent(id)}`, anonymous: true, signal: o.signal }),
    createToken: (body, o = {}) =>
      transport.json({ method: 'POST', path: '/v1/auth/tokens', json: body, signal: o.signal }),
    listTokens: (o = {}) => transport.json({ method: 'GET', path: '/v1/auth/tokens', signal: o.signal }),
    deleteToken: (id, o = {}) =>
      transport.send({ method: 'DELETE', path: `/v1/auth/tokens/${encodeURIComponent(id)}`, signal: o.signal }),
  };
  return client;
}
