// The errors the client throws. Callers catch these, never ky's: `instanceof ApiError` and
// `error.error === 'rate_limited'` is the whole vocabulary a VS Code command or a CLI needs.

/** Base class of every error thrown by the Diff Review client. */
export class DiffReviewError extends Error {
  override name = 'DiffReviewError';
}

/** Fields of an {@link ApiError}. */
export interface ApiErrorInit {
  status: number;
  /** The body's `error` identifier, or one derived from the status when the body has none. */
  error: string;
  message: string;
  retryAfterSeconds?: number;
  /** The parsed JSON body, the body's text when it is not JSON, or undefined when empty. */
  body: unknown;
  method: string;
  url: string;
}

/** The service answered with a non-2xx status. */
export class ApiError extends DiffReviewError {
  override name = 'ApiError';
  /** HTTP status, e.g. 401, 413, 429. */
  readonly status: number;
  /** Error identifier from the body, e.g. `unauthorized`, `diff_too_large`, `rate_limited`. */
  readonly error: string;
  /** Seconds to wait before trying again, from the `Retry-After` header (seconds or HTTP date). */
  readonly retryAfterSeconds: number | undefined;
  readonly body: unknown;
  readonly method: string;
  readonly url: string;

  constructor(init: ApiErrorInit) {
    super(init.message);
    this.status = init.status;
    this.error = init.error;
    this.retryAfterSeconds = init.retryAfterSeconds;
    this.body = init.body;
    this.method = init.method;
    this.url = init.url;
  }
}

/** The service could not be reached at all (connection refused, DNS failure, connection reset). */
export class NetworkError extends DiffReviewError {
  override name = 'NetworkError';
  /** The URL that could not be reached. */
  readonly url: string;
  /** The system error code where the runtime tells it, e.g. `ECONNREFUSED`. */
  readonly code: string | undefined;

  constructor(message: string, url: string, code: string | undefined, options?: { cause?: unknown }) {
    super(message, options);
    this.url = url;
    this.code = code;
  }
}

/** A request, or a wait for a review, took longer than allowed. */
export class TimeoutError extends DiffReviewError {
  override name = 'TimeoutError';
  readonly timeoutMs: number;

  constructor(message: string, timeoutMs: number, options?: { cause?: unknown }) {
    super(message, options);
    this.timeoutMs = timeoutMs;
  }
}

/**
 * The caller's AbortSignal fired. Named `AbortError` like the DOM's, so code that checks
 * `error.name === 'AbortError'` keeps working; the signal's reason is the `cause`.
 */
export class AbortError extends DiffReviewError {
  override name = 'AbortError';

  constructor(message = 'The operation was aborted.', options?: { cause?: unknown }) {
    super(message, options);
  }
}

/** The event stream of a review broke, ended before a terminal state, or carried invalid data. */
export class EventStreamError extends DiffReviewError {
  override name = 'EventStreamError';
}
