// The options of createClient, documented where they are declared.
import type { ReviewJob } from '../api/schemas.ts';

/** Where the client finds the bearer token: a fixed string, or a function asked before every request. */
export type TokenSource = string | (() => string | undefined | Promise<string | undefined>);

export interface ClientOptions {
  /**
   * Address of the service, e.g. `http://127.0.0.1:7411` (the service's default). A path is kept as a prefix
   * (`https://host/diff-review` → `https://host/diff-review/v1/reviews`).
   */
  baseUrl: string;
  /**
   * Review API token or dashboard token, sent as `Authorization: Bearer …`. A function is called
   * at the start of every call (its retries reuse the answer), so a rotated token is picked up
   * without making a new client. Not sent to `health()` and `openapi()`, which need none.
   */
  token?: TokenSource;
  /** Time allowed for each attempt to get a response (and to read a JSON body). Default 30 000 ms. */
  timeoutMs?: number;
  /**
   * How many times a failed request is tried again: GET and DELETE always, and `createReview`
   * because its Idempotency-Key makes a repeat harmless. Retried on 408, 429, 500, 502, 503, 504
   * and network errors, with exponential backoff (300 ms doubling, at most 5 s, with jitter).
   * 0 turns retries off. Default 2.
   */
  retry?: number;
  /**
   * Longest `Retry-After` (on 429 and 503) the client waits before trying again. A longer one is
   * not waited for: the call fails at once with `ApiError.retryAfterSeconds` set, so a CLI or an
   * editor never hangs and can tell the user when to try again. Default 10 000 ms.
   */
  maxRetryAfterMs?: number;
  /** A fetch implementation, e.g. for instrumentation or tests. Default: the global fetch. */
  fetch?: typeof fetch;
  /**
   * `User-Agent` header, e.g. `diff-review-vscode/0.3.0`. Default `diff-review-client/<API version>`.
   * Browsers and Electron renderers may silently keep their own.
   */
  userAgent?: string;
}

/** Options every call accepts. */
export interface CallOptions {
  /** Cancels the call; it then rejects with an AbortError. */
  signal?: AbortSignal;
}

export interface CreateReviewOptions extends CallOptions {
  /**
   * Makes the create safe to repeat: the same key from the same owner within 24 h returns the
   * first job instead of making a second. Default: a fresh random UUID per call (so the client's
   * own retries of this call never create duplicates).
   */
  idempotencyKey?: string;
  /**
   * Whether a 429 is tried again by the client (after its Retry-After, within `retry` and
   * `maxRetryAfterMs`). Default true; false fails at once with `ApiError.retryAfterSeconds`, for a
   * caller with its own rate-limit policy (one place decides, and can say that it waits).
   */
  retryRateLimited?: boolean;
}

export type EventsOptions = CallOptions;

/** followReviews: the owner's reviews on one event stream, kept open. */
export interface FollowOptions extends CallOptions {
  /** Each state told, of any of the owner's reviews (a state may be told again after a reconnect). */
  onUpdate: (job: ReviewJob) => void;
  /**
   * The stream is (again) open and has told every review unfinished on connect (their ids). A job
   * the caller follows that is not among them finished (or was deleted) while it was not open.
   */
  onReady?: (unfinished: ReadonlySet<string>) => void | Promise<void>;
  /**
   * The stream was refused or broke: runs at once, then after each pause until the stream is opened
   * again (poll here). What it throws ends the following.
   */
  onDown?: (error: unknown) => void | Promise<void>;
  /** First pause before opening a refused or broken stream again. Default 1000 ms. */
  retryIntervalMs?: number;
  /** The pause grows by half each time up to this. Default 30 000 ms. */
  maxRetryIntervalMs?: number;
}

export interface WaitOptions extends CallOptions {
  /** Called with each new state of the job (also the first one seen), at most once per state. */
  onUpdate?: (job: ReviewJob) => void;
  /** First interval between polls when polling. Default 1000 ms. */
  pollIntervalMs?: number;
  /** The interval grows by half after each poll up to this. Default 5000 ms. */
  maxPollIntervalMs?: number;
  /** Give up after this long with a TimeoutError. Default: wait until the job ends or the signal fires. */
  timeoutMs?: number;
  /** Try the event stream first. Default true; false polls from the start. */
  useEvents?: boolean;
}
