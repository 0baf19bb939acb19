// The limits API.md promises. The HTTP layer enforces them; the OpenAPI document states them.
export const LIMITS = {
  /** Bytes of UTF-8 in `diff`, not characters. */
  diffBytes: 1_000_000,
  /**
   * Whole request body of POST /v1/reviews. JSON escaping can make a 1 MB diff's body larger
   * (newlines and quotes take two bytes), so the body may be up to 4 MiB; anything larger is
   * refused from its Content-Length, before it is read.
   */
  reviewBodyBytes: 4 * 1024 * 1024,
  /** Every other body (tokens): small. */
  smallBodyBytes: 16 * 1024,
  repositoryChars: 256,
  tokenNameChars: 100,
  tokenMaxDays: 365,
  tokenDefaultDays: 90,
  listDefault: 20,
  listMax: 100,
  idempotencyHours: 24,
  idempotencyKeyChars: 255,
} as const;

export const API_VERSION = '1.0.0';
