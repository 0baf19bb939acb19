// What a request can end in, named in the words of the domain. The use cases (service/reviews) and
// the token checks (service/auth) throw these and know nothing of HTTP: service/http/error-replies.ts
// alone decides each one's status, error identifier and headers. The messages are for people and
// say what to do.
import { LIMITS } from './limits.ts';
import { formatCount } from '../format-count.ts';

/** The `error` identifiers of the API contract: every non-2xx body carries one. */
export type ErrorId =
  | 'invalid_request'
  | 'unauthorized'
  | 'token_expired'
  | 'insufficient_scope'
  | 'not_found'
  | 'method_not_allowed'
  | 'misdirected_request'
  | 'conflict'
  | 'diff_too_large'
  | 'payload_too_large'
  | 'rate_limited'
  | 'queue_full'
  | 'request_timeout'
  | 'header_fields_too_large'
  | 'service_unavailable'
  | 'internal_error';

/** The request itself is wrong (a field, a header, a cursor); the message names what. */
export class InvalidRequestError extends Error {
  override name = 'InvalidRequestError';
}

/** The thing does not exist, or belongs to another owner: the two look alike (no existence leak). */
export class NotFoundError extends Error {
  override name = 'NotFoundError';

  /** `what` names it, e.g. "Review rev_…". */
  constructor(what: string) {
    super(`${what} was not found.`);
  }
}

/** The thing is not in a state that allows this (cancel a finished review, SARIF of an unfinished one). */
export class ConflictError extends Error {
  override name = 'ConflictError';
}

/** Too many reviews wait for a worker: the create is refused, to be tried again a little later. */
export class QueueFullError extends Error {
  override name = 'QueueFullError';
  readonly retryAfterSeconds = 5;
  readonly waiting: number;

  constructor(waiting: number) {
    super(`${waiting} reviews are waiting; try again in a few seconds.`);
    this.waiting = waiting;
  }
}

/** The limit every diff_too_large answer states, in words. */
export const DIFF_LIMIT_TEXT = `${formatCount(LIMITS.diffBytes)} bytes of UTF-8`;

/**
 * The diff is over LIMITS.diffBytes: measured (`bytes`), or known from the size of the whole request
 * body alone. Every diff_too_large answer is built here.
 */
export class DiffTooLargeError extends Error {
  override name = 'DiffTooLargeError';

  readonly bytes: number | undefined;

  constructor(bytes?: number) {
    super(
      bytes === undefined
        ? `The request body is too large. A diff may be at most ${DIFF_LIMIT_TEXT}; review a smaller range of commits.`
        : `diff is ${formatCount(bytes)} bytes of UTF-8; the limit is ${formatCount(LIMITS.diffBytes)}. Review a smaller range of commits.`,
    );
    this.bytes = bytes;
  }
}

/**
 * No usable token: none was sent (`missing`), the Authorization header is not "Bearer <token>"
 * (`malformed`), or the token is unknown or revoked (`invalid`, the two look alike).
 */
export class UnauthorizedError extends Error {
  override name = 'UnauthorizedError';

  readonly reason: 'missing' | 'malformed' | 'invalid';

  constructor(reason: 'missing' | 'malformed' | 'invalid') {
    super(UNAUTHORIZED_MESSAGES[reason]);
    this.reason = reason;
  }
}

const UNAUTHORIZED_MESSAGES = {
  missing: 'This endpoint needs a token: send "Authorization: Bearer <token>".',
  malformed: 'The Authorization header must be "Bearer <token>".',
  invalid: 'The token is not valid: it is unknown or was revoked.',
} as const;

/** The token was valid until `expiresAt`. */
export class TokenExpiredError extends Error {
  override name = 'TokenExpiredError';

  readonly expiresAt: string;

  constructor(expiresAt: string) {
    super(`The token expired at ${expiresAt}. Create a new one with POST /v1/auth/tokens.`);
    this.expiresAt = expiresAt;
  }
}

/** The token is valid but of the wrong type or without `scope`; the message says which. */
export class InsufficientScopeError extends Error {
  override name = 'InsufficientScopeError';

  readonly scope: string;

  constructor(message: string, scope: string) {
    super(message);
    this.scope = scope;
  }
}

/**
 * Something the service needs (its database, in PostgreSQL mode) cannot be reached right now: the
 * request may be tried again in a moment. The message says no more than that.
 */
export class ServiceUnavailableError extends Error {
  override name = 'ServiceUnavailableError';
  readonly retryAfterSeconds = 5;

  constructor(options?: { cause?: unknown }) {
    super('The service cannot reach its database right now. Try again in a few seconds.', options);
  }
}

/** A new review could not be saved, so nothing was queued (the store failed, not the caller). */
export class ReviewNotSavedError extends Error {
  override name = 'ReviewNotSavedError';

  constructor(reason: string, options?: { cause?: unknown }) {
    super(`The review could not be saved: ${reason}. Nothing was queued; try again later.`, options);
  }
}
