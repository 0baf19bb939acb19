// ky, configured once for API v1: base address, bearer token, timeouts, retries.
// Everything ky throws leaves this file converted by toClientError.
import ky, { isHTTPError, type KyInstance, type RetryOptions } from 'ky';
import { API_VERSION } from '../api/limits.ts';
import type { ClientOptions } from './options.ts';
import { parseRetryAfter } from './retry-after.ts';
import { toClientError } from './to-client-error.ts';

/** One request as the client methods describe it. */
export interface TransportRequest {
  method: 'GET' | 'POST' | 'DELETE';
  /** Path below the base address, starting with `/`, already encoded. */
  path: string;
  json?: unknown;
  searchParams?: Record<string, string | number | undefined>;
  headers?: Record<string, string>;
  signal?: AbortSignal | undefined;
  /** Retry this POST like a GET (only when it carries an Idempotency-Key). */
  retryable?: boolean;
  /** Leave a 429 to the caller (no retry here). */
  noRateLimitRetry?: boolean;
  /** Send no Authorization header (health, OpenAPI document). */
  anonymous?: boolean;
}

export interface Transport {
  /** The base address without a trailing slash. */
  readonly baseUrl: string;
  /** Sends the request and parses the JSON answer. */
  json<T>(request: TransportRequest): Promise<T>;
  /** Sends the request and discards the answer's body (204). */
  send(request: TransportRequest): Promise<void>;
  /** Sends the request and hands over the response with its body unread (event stream). */
  open(request: TransportRequest): Promise<Response>;
  /** The full URL of a request, for messages. */
  urlOf(request: TransportRequest): string;
}

const RETRY_STATUS_CODES = [408, 429, 500, 502, 503, 504];
const RETRY_AFTER_STATUS_CODES = [429, 503];

export function createTransport(options: ClientOptions): Transport {
  const baseUrl = normalizeBaseUrl(options.baseUrl);
  const timeoutMs = options.timeoutMs ?? 30_000;
  const retryLimit = options.retry ?? 2;
  const maxRetryAfterMs = options.maxRetryAfterMs ?? 10_000;
  const { token } = options;

  const api: KyInstance = ky.create({
    prefix: baseUrl,
    timeout: timeoutMs,
    ...(options.fetch ? { fetch: options.fetch } : {}),
    headers: { 'user-agent': options.userAgent ?? `diff-review-client/${API_VERSION}` },
    hooks: {
      beforeRequest: [
        async ({ request, options: kyOptions }) => {
          if (kyOptions.context.anonymous === true || token === undefined) return;
          const secret = typeof token === 'function' ? await token() : token;
          if (secret) request.headers.set('authorization', `Bearer ${secret}`);
        },
      ],
    },
  });

  const retryFor = (request: TransportRequest): RetryOptions => ({
    limit: retryLimit,
    methods: request.retryable ? ['get', 'delete', 'post'] : ['get', 'delete'],
    statusCodes: request.noRateLimitRetry ? RETRY_STATUS_CODES.filter((status) => status !== 429) : RETRY_STATUS_CODES,
    afterStatusCodes: request.noRateLimitRetry
      ? RETRY_AFTER_STATUS_CODES.filter((status) => status !== 429)
      : RETRY_AFTER_STATUS_CODES,
    maxRetryAfter: maxRetryAfterMs,
    backoffLimit: 5_000,
    jitter: (delay) => delay * (0.5 + Math.random() * 0.5),
    shouldRetry: ({ error }) => {
      // A Retry-After beyond the cap: fail now with retryAfterSeconds rather than hang.
      if (isHTTPError(error) && RETRY_AFTER_STATUS_CODES.includes(error.response.status)) {
        const seconds = parseRetryAfter(error.response.headers.get('retry-after'));
        if (seconds !== undefined && seconds * 1000 > maxRetryAfterMs) return false;
      }
      return undefined;
    },
  });

  const urlOf = (request: TransportRequest): string => {
    const query = searchParamsOf(request).toString();
    return `${baseUrl}${request.path}${query ? `?${query}` : ''}`;
  };

  const call = (request: TransportRequest) =>
    api(request.path.replace(/^\//, ''), {
      method: request.method,
      ...(request.json !== undefined ? { json: request.json } : {}),
      searchParams: searchParamsOf(request),
      headers: { accept: 'application/json', ...request.headers },
      ...(request.signal ? { signal: request.signal } : {}),
      retry: retryFor(request),
      context: { anonymous: request.anonymous === true },
    });

  const failed = (request: TransportRequest, error: unknown): Error =>
    toClientError(error, { method: request.method, url: urlOf(request), timeoutMs, signal: request.signal });

  return {
    baseUrl,
    urlOf,
    async json<T>(request: TransportRequest): Promise<T> {
      try {
        return await call(request).json<T>();
      } catch (error) {
        throw failed(request, error);
      }
    },
    async send(request: TransportRequest): Promise<void> {
      try {
        const response = await call(request);
        await response.body?.cancel().catch(() => undefined);
      } catch (error) {
        throw failed(request, error);
      }
    },
    async open(request: TransportRequest): Promise<Response> {
      try {
        return await call(request);
      } catch (error) {
        throw failed(request, error);
      }
    },
  };
}

function searchParamsOf(request: TransportRequest): URLSearchParams {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(request.searchParams ?? {})) {
    if (value !== undefined) params.set(key, String(value));
  }
  return params;
}

function normalizeBaseUrl(baseUrl: string): string {
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    throw new TypeError(
      `baseUrl must be an absolute http(s) URL such as http://127.0.0.1:7411 (the service's default address), got ${JSON.stringify(baseUrl)}.`,
    );
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new TypeError(`baseUrl must use http or https, got ${url.protocol}`);
  }
  url.search = '';
  url.hash = '';
  return url.href.replace(/\/+$/, '');
}
