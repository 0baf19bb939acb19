// The one place that turns ky's and fetch's errors into the client's own (errors.ts).
import { isHTTPError, isNetworkError, isTimeoutError } from 'ky';
import { AbortError, ApiError, DiffReviewError, NetworkError, TimeoutError } from './errors.ts';
import { parseRetryAfter } from './retry-after.ts';

/** What the conversion needs to know about the call that failed. */
export interface FailedCall {
  method: string;
  url: string;
  /** Per-attempt timeout, for the TimeoutError's message. */
  timeoutMs: number;
  signal?: AbortSignal | undefined;
}

const defaultErrorIds: Record<number, string> = {
  400: 'invalid_request',
  401: 'unauthorized',
  403: 'forbidden',
  404: 'not_found',
  405: 'method_not_allowed',
  408: 'request_timeout',
  413: 'payload_too_large',
  429: 'rate_limited',
  431: 'request_header_fields_too_large',
  500: 'internal_error',
  502: 'bad_gateway',
  503: 'service_unavailable',
  504: 'gateway_timeout',
};

/** Converts anything a request threw into a DiffReviewError; errors that already are pass through. */
export function toClientError(error: unknown, call: FailedCall): Error {
  if (error instanceof DiffReviewError) return error;
  if (call.signal?.aborted) return abortErrorFrom(call.signal);
  if (isHTTPError(error)) {
    const { response } = error;
    return apiErrorFromBody(response.status, response.statusText, response.headers, error.data, call);
  }
  if (isTimeoutError(error)) {
    return new TimeoutError(
      `The Diff Review service did not answer ${call.method} ${call.url} within ${formatMs(call.timeoutMs)}.`,
      call.timeoutMs,
      { cause: error },
    );
  }
  if (isNetworkError(error) || isRawFetchFailure(error)) return networkError(error, call);
  if (isAbortLike(error)) return new AbortError(undefined, { cause: error });
  if (error instanceof SyntaxError) {
    return new DiffReviewError(`The Diff Review service answered ${call.method} ${call.url} with invalid JSON.`, {
      cause: error,
    });
  }
  return error instanceof Error ? error : new DiffReviewError(String(error));
}

/** Builds an ApiError from a non-2xx answer whose body has already been read (JSON, text or nothing). */
export function apiErrorFromBody(
  status: number,
  statusText: string,
  headers: Headers,
  body: unknown,
  call: Pick<FailedCall, 'method' | 'url'>,
): ApiError {
  const fields = typeof body === 'object' && body !== null ? (body as Record<string, unknown>) : {};
  const id =
    typeof fields.error === 'string' && fields.error !== ''
      ? fields.error
      : (defaultErrorIds[status] ?? `http_${status}`);
  const text = typeof body === 'string' ? body.trim().slice(0, 200) : '';
  const message =
    typeof fields.message === 'string' && fields.message !== ''
      ? fields.message
      : `The Diff Review service answered ${status}${statusText ? ` ${statusText}` : ''} to ${call.method} ${call.url}${text ? `: ${text}` : '.'}`;
  return new ApiError({
    status,
    error: id,
    message,
    retryAfterSeconds: parseRetryAfter(headers.get('retry-after')),
    body,
    method: call.method,
    url: call.url,
  });
}

export function abortErrorFrom(signal: AbortSignal): Error {
  const reason: unknown = signal.reason;
  // A reason that is already ours (e.g. a TimeoutError set by waitForReview) is the error to throw.
  if (reason instanceof DiffReviewError) return reason;
  return new AbortError(undefined, { cause: reason });
}

function networkError(error: unknown, call: FailedCall): NetworkError {
  const code = systemErrorCode(error);
  const origin = safeOrigin(call.url);
  return new NetworkError(
    `Could not reach the Diff Review service at ${origin} (${call.method} ${call.url}${code ? `: ${code}` : ''}). Is it running, and is the address right?`,
    call.url,
    code,
    { cause: error },
  );
}

/** Walks the cause chain for a Node system error code (undici puts it on `cause`). */
function systemErrorCode(error: unknown): string | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && typeof current === 'object' && current !== null; depth++) {
    const { code } = current as { code?: unknown };
    if (typeof code === 'string' && code !== '') return code;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

/** fetch failures ky did not wrap, e.g. a body read that broke ('terminated') or a custom fetch. */
function isRawFetchFailure(error: unknown): boolean {
  const code = error instanceof TypeError ? systemErrorCode(error) : undefined;
  // System (ECONNRESET) and undici (UND_ERR_SOCKET) codes; Node's ERR_* codes are programming errors.
  return code !== undefined && !code.startsWith('ERR_');
}

function isAbortLike(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { name?: unknown }).name === 'AbortError';
}

function safeOrigin(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return url;
  }
}

export function formatMs(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000} s` : `${ms} ms`;
}
