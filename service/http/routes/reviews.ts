// /v1/reviews: create, get, list, cancel, events (SSE), SARIF; /v1/events: all of an owner's events (SSE).
import Type from 'typebox';
import type { FastifyInstance } from 'fastify';
import { DiffTooLargeError } from '../../api/errors.ts';
import { LIMITS } from '../../api/limits.ts';
import {
  CreateReviewBody,
  ListReviewsQuery,
  ReviewIdParams,
  ReviewList,
  type CreateReviewBody as CreateBody,
  type ListReviewsQuery as ListQuery,
} from '../../api/schemas.ts';
import type { ReviewService } from '../../reviews/review-service.ts';
import { principalOf } from '../auth.ts';
import { JSON_TYPE, reviewSecurity } from '../route-schemas.ts';
import { streamReviewEvents } from '../review-events-stream.ts';
import { streamOwnerEvents } from '../owner-events-stream.ts';
import type { FinishedBodies } from '../finished-bodies.ts';
import { isTerminal } from '../../api/review-status.ts';
import type { ReviewEvents } from '../../jobs/review-events.ts';
import type { EventStreamSlots } from '../event-stream-slots.ts';
import { boundCreateBody } from '../diff-size-bound.ts';

export interface ReviewRoutesOptions {
  reviews: ReviewService;
  events: ReviewEvents;
  rateLimit: { create: number; read: number };
  /** The answers of finished reviews, shared with the poll fast path. */
  bodies: FinishedBodies;
  /** The open event streams, capped per token and in total. */
  streams: EventStreamSlots;
}

/** What the reading routes demand of a token; GET /v1/reviews/{id}'s fast path demands the same. */
export const reviewRead = { type: 'review', scope: 'reviews:read' } as const;
const write = { type: 'review', scope: 'reviews:write' } as const;
const tags = ['reviews'];

export function reviewRoutes(
  app: FastifyInstance,
  { reviews, events, rateLimit, bodies, streams }: ReviewRoutesOptions,
) {
  // One budget per token for each scope: reads share one, creates and cancels another.
  const limit = (max: number, groupId: string) =>
    max > 0 ? { rateLimit: { max, timeWindow: 60_000, groupId } } : { rateLimit: false as const };
  const readLimit = limit(rateLimit.read, 'reviews:read');
  const writeLimit = limit(rateLimit.create, 'reviews:write');

  app.post<{ Body: CreateBody }>('/v1/reviews', {
    bodyLimit: LIMITS.reviewBodyBytes,
    config: { auth: write, ...writeLimit },
    // A body whose text already holds more than any valid create: 413 as it streams in, unread.
    preParsing: async (_request, _reply, payload) => boundCreateBody(payload),
    // Bytes, not characters: checked before validation so that a too-large diff is a 413.
    preValidation: async (request) => {
      const diff = (request.body as { diff?: unknown } | undefined)?.diff;
      if (
        typeof diff === 'string' &&
        diff.length > LIMITS.diffBytes / 4 &&
        Buffer.byteLength(diff, 'utf8') > LIMITS.diffBytes
      ) {
        throw new DiffTooLargeError(Buffer.byteLength(diff, 'utf8'));
      }
    },
    schema: {
      operationId: 'createReview',
      summary: 'Submit a diff for review',
      description:
        'Queues a review job and answers at once with the job in state `queued`. Poll GET /v1/reviews/{review_id} (or follow its events) until it is `completed` or `failed`. Send `Idempotency-Key` to make retries safe: the same key with the same body within 24 h answers the first job again (with `Idempotent-Replayed: true`).',
      tags,
      security: reviewSecurity,
      headers: Type.Object({
        'idempotency-key': Type.Optional(Type.String({ description: '1–255 printable characters, e.g. a UUID.' })),
      }),
      body: CreateReviewBody,
      response: {
        202: Type.Ref('ReviewJob', { description: 'Queued. `Location` names the job.' }),
      },
      errorStatuses: [400, 401, 403, 413, 429, 500],
    },
    handler: async (request, reply) => {
      const { owner } = principalOf(request);
      const key = request.headers['idempotency-key'];
      const { job, replayed } = await reviews.create(owner, request.body, typeof key === 'string' ? key : undefined);
      if (replayed) reply.header('idempotent-replayed', 'true');
      return reply.code(202).header('location', `/v1/reviews/${job.review_id}`).send(job);
    },
  });

  app.get<{ Querystring: ListQuery }>('/v1/reviews', {
    config: { auth: reviewRead, ...readLimit },
    schema: {
      operationId: 'listReviews',
      summary: 'List reviews, newest first',
      tags,
      security: reviewSecurity,
      querystring: ListReviewsQuery,
      response: { 200: ReviewList },
      errorStatuses: [400, 401, 403, 429, 500],
    },
    handler: async (request) => reviews.list(principalOf(request).owner, request.query),
  });

  app.get<{ Params: { review_id: string } }>('/v1/reviews/:review_id', {
    // Not rate-limited: the seed fixes this operation's statuses to 200/401/403/404/500, and a
    // poll is a cheap in-memory read. Clients that want fewer requests follow /events instead.
    config: { auth: reviewRead, rateLimit: false },
    schema: {
      operationId: 'getReview',
      summary: 'Get a review job',
      tags,
      security: reviewSecurity,
      params: ReviewIdParams,
      response: { 200: Type.Ref('ReviewJob') },
      errorStatuses: [401, 403, 404, 500],
    },
    // A finished review's bytes are serialized once and kept: later polls of it are answered from them.
    handler: async (request, reply) => {
      const review = await reviews.find(principalOf(request).owner, request.params.review_id);
      if (!isTerminal(review)) return reviews.view(review);
      let bytes = bodies.get(review);
      if (bytes === undefined) {
        bytes = Buffer.from(reply.serialize(await reviews.view(review)) as string, 'utf8');
        bodies.set(review, bytes);
      }
      return reply.type(JSON_TYPE).send(bytes);
    },
  });

  app.post<{ Params: { review_id: string } }>('/v1/reviews/:review_id/cancel', {
    config: { auth: write, ...writeLimit },
    schema: {
      operationId: 'cancelReview',
      summary: 'Cancel a queued or running review',
      description: 'The job ends `failed` with error code `cancelled`. A finished job answers 409.',
      tags,
      security: reviewSecurity,
      params: ReviewIdParams,
      response: { 200: Type.Ref('ReviewJob') },
      errorStatuses: [401, 403, 404, 409, 429, 500],
    },
    handler: async (request) => reviews.cancel(principalOf(request).owner, request.params.review_id),
  });

  app.get<{ Params: { review_id: string } }>('/v1/reviews/:review_id/sarif', {
    config: { auth: reviewRead, ...readLimit },
    schema: {
      operationId: 'getReviewSarif',
      summary: 'The result as SARIF 2.1.0',
      description:
        'Rule ids, help text, regions and fingerprints, for tools that want more than the four comment fields. Available once the review is completed (409 before).',
      tags,
      security: reviewSecurity,
      params: ReviewIdParams,
      response: {
        200: {
          description: 'A SARIF 2.1.0 log.',
          content: { 'application/sarif+json': { schema: Type.Object({}, { additionalProperties: true }) } },
        },
      },
      errorStatuses: [401, 403, 404, 409, 429, 500],
    },
    handler: async (request, reply) => {
      const sarif = await reviews.sarif(principalOf(request).owner, request.params.review_id);
      return reply.type('application/sarif+json').send(JSON.stringify(sarif));
    },
  });

  app.get<{ Params: { review_id: string } }>('/v1/reviews/:review_id/events', {
    config: { auth: reviewRead, ...readLimit },
    schema: {
      operationId: 'getReviewEvents',
      summary: 'Follow a review as Server-Sent Events',
      description:
        'Each event is `event: review` with the job as JSON in `data`: the job as it is on connect, then the job on every state change. The stream ends after a terminal state. Comment lines (`: keep-alive`) keep idle connections open. ' +
        `A token may hold ${streams.limits.perToken} streams open at once and the service ${streams.limits.total} in all; beyond, 429 \`rate_limited\` with Retry-After (poll GET /v1/reviews/{review_id} instead). ` +
        `A stream also ends after ${formatDuration(streams.limits.lifetimeMs)}, before the job is finished if need be: reconnect, or poll.`,
      tags,
      security: reviewSecurity,
      params: ReviewIdParams,
      response: {
        200: { description: 'An event stream.', content: { 'text/event-stream': { schema: Type.String() } } },
      },
      errorStatuses: [401, 403, 404, 429, 500],
    },
    handler: async (request, reply) => {
      const { owner, tokenId } = principalOf(request);
      const reviewId = request.params.review_id;
      await reviews.find(owner, reviewId); // 404 before a stream is opened
      const slot = streams.take(tokenId);
      return streamReviewEvents(reply, {
        reviewId,
        find: () => reviews.find(owner, reviewId),
        events,
        view: (r) => reviews.view(r),
        slot,
        lifetimeMs: streams.limits.lifetimeMs,
      });
    },
  });

  // Not under /v1/reviews/: "events" would read as a review id there (GET /v1/reviews/{review_id}).
  app.get('/v1/events', {
    config: { auth: reviewRead, ...readLimit },
    schema: {
      operationId: 'getEvents',
      summary: "Follow all the token owner's reviews as Server-Sent Events",
      description:
        "One stream for every review of the token's owner, for a dashboard that follows many jobs (one socket instead of one per job). " +
        'On connect: `event: review` for each queued or running review, then `event: ready` (data `{"unfinished": n}`); after it, `event: review` with the job as JSON in `data` on every state change of any of the owner\'s reviews, new ones included. Other owners\' reviews are never told. ' +
        'There are no event ids: a client that reconnects gets the unfinished reviews again, and reads a job it followed that is not among them (finished meanwhile) with GET /v1/reviews/{review_id} or the list. Comment lines (`: keep-alive`) keep idle connections open. ' +
        `The stream counts among the event streams: a token may hold ${streams.limits.perToken} open at once and the service ${streams.limits.total} in all; beyond, 429 \`rate_limited\` with Retry-After. ` +
        `It does not end by itself, except after ${formatDuration(streams.limits.lifetimeMs)} or when the service stops: reconnect.`,
      tags,
      security: reviewSecurity,
      response: {
        200: { description: 'An event stream.', content: { 'text/event-stream': { schema: Type.String() } } },
      },
      errorStatuses: [401, 403, 429, 500],
    },
    handler: async (request, reply) => {
      const { owner, tokenId } = principalOf(request);
      const slot = streams.take(tokenId);
      return streamOwnerEvents(reply, {
        owner,
        events,
        reviews,
        slot,
        lifetimeMs: streams.limits.lifetimeMs,
      });
    },
  });
}

/** 600000 → "10 minutes", 90000 → "90 seconds". */
function formatDuration(ms: number): string {
  const seconds = Math.round(ms / 1000);
  return seconds % 60 === 0
    ? `${seconds / 60} minute${seconds === 60 ? '' : 's'}`
    : `${seconds} second${seconds === 1 ? '' : 's'}`;
}
