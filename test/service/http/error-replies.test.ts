// The one error model: every error the domain throws (service/api/errors.ts) has its answer in
// service/http/error-replies.ts, and a new one cannot be added without deciding it (it would be a 500).
import { describe, expect, it } from 'vitest';
import * as errors from '../../../service/api/errors.ts';
import { domainReply } from '../../../service/http/error-replies.ts';

/** One instance of every error class errors.ts exports, built with arguments of the right kinds. */
const examples: Record<string, Error> = {
  InvalidRequestError: new errors.InvalidRequestError('repository must be a string.'),
  NotFoundError: new errors.NotFoundError('Review rev_X'),
  ConflictError: new errors.ConflictError('The review is already completed.'),
  QueueFullError: new errors.QueueFullError(7),
  DiffTooLargeError: new errors.DiffTooLargeError(1_000_001),
  UnauthorizedError: new errors.UnauthorizedError('invalid'),
  TokenExpiredError: new errors.TokenExpiredError('2030-01-01T00:00:00.000Z'),
  InsufficientScopeError: new errors.InsufficientScopeError('The token lacks the scope reviews:read.', 'reviews:read'),
  ReviewNotSavedError: new errors.ReviewNotSavedError('the data store could not be written: ENOSPC'),
  ServiceUnavailableError: new errors.ServiceUnavailableError(),
};

describe('domain errors', () => {
  it('every error class of errors.ts has an example here, and each is answered in the error shape', () => {
    const classes = Object.entries(errors).filter(
      ([, value]) => typeof value === 'function' && value.prototype instanceof Error,
    );
    expect(classes.map(([name]) => name).sort()).toEqual(Object.keys(examples).sort());
    for (const [name, error] of Object.entries(examples)) {
      const reply = domainReply(error);
      expect(reply, name).toBeDefined();
      expect(reply!.message, name).toBe(error.message);
    }
    expect(domainReply(new Error('anything else'))).toBeUndefined();
  });

  it('each is answered with the status, identifier and headers the API contract gives it', () => {
    const answer = (error: Error) => {
      const { status, error: id, headers } = domainReply(error)!;
      return { status, id, headers };
    };
    const challenge = (rest = '') => ({ 'www-authenticate': `Bearer realm="diff-review"${rest}` });
    expect(answer(examples.InvalidRequestError!)).toEqual({ status: 400, id: 'invalid_request', headers: {} });
    expect(answer(new errors.UnauthorizedError('missing'))).toEqual({
      status: 401,
      id: 'unauthorized',
      headers: challenge(),
    });
    expect(answer(new errors.UnauthorizedError('malformed'))).toEqual({
      status: 401,
      id: 'unauthorized',
      headers: challenge(', error="invalid_request"'),
    });
    expect(answer(examples.UnauthorizedError!)).toEqual({
      status: 401,
      id: 'unauthorized',
      headers: challenge(', error="invalid_token"'),
    });
    expect(answer(examples.TokenExpiredError!)).toEqual({
      status: 403,
      id: 'token_expired',
      headers: challenge(', error="invalid_token"'),
    });
    expect(answer(examples.InsufficientScopeError!)).toEqual({
      status: 403,
      id: 'insufficient_scope',
      headers: challenge(', error="insufficient_scope", scope="reviews:read"'),
    });
    expect(answer(examples.NotFoundError!)).toEqual({ status: 404, id: 'not_found', headers: {} });
    expect(answer(examples.ConflictError!)).toEqual({ status: 409, id: 'conflict', headers: {} });
    expect(answer(examples.DiffTooLargeError!)).toEqual({ status: 413, id: 'diff_too_large', headers: {} });
    expect(answer(examples.QueueFullError!)).toEqual({
      status: 429,
      id: 'queue_full',
      headers: { 'retry-after': '5' },
    });
    expect(answer(examples.ReviewNotSavedError!)).toEqual({ status: 500, id: 'internal_error', headers: {} });
    expect(answer(examples.ServiceUnavailableError!)).toEqual({
      status: 503,
      id: 'service_unavailable',
      headers: { 'retry-after': '5' },
    });
  });

  it('diff_too_large states the limit of LIMITS, measured or not', () => {
    expect(new errors.DiffTooLargeError(1_000_001).message).toBe(
      'diff is 1,000,001 bytes of UTF-8; the limit is 1,000,000. Review a smaller range of commits.',
    );
    expect(new errors.DiffTooLargeError().message).toBe(
      'The request body is too large. A diff may be at most 1,000,000 bytes of UTF-8; review a smaller range of commits.',
    );
  });
});
