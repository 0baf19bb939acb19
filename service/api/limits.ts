// The limits the API contract promises. The HTTP layer enforces them; the OpenAPI document states them.
const DIFF_BYTES = 1_000_000;
const REVIEW_ENVELOPE_BYTES = 64 * 1024;

export const LIMITS = {
  /** Bytes of UTF-8 in `diff`, not characters. */
  diffBytes: DIFF_BYTES,
  /**
   * Whole request body of POST /v1/reviews: room for any valid diff's JSON, and refused from its
   * Content-Length beyond, before it is read. JSON escaping makes a diff up to six times larger
   * (a control character, one byte of UTF-8, is written `\u0001`), so the body may be six bytes per
   * byte of diff plus the envelope (the other fields, and the whitespace JSON allows). The diff's
   * own UTF-8 bytes decide its 413.
   */
  reviewBodyBytes: 6 * DIFF_BYTES + REVIEW_ENVELOPE_BYTES,
  /** What reviewBodyBytes allows besides the diff's escaped text. */
  reviewEnvelopeBytes: REVIEW_ENVELOPE_BYTES,
  /** Arrays and objects in a request body nest at most this deep (a create's body is 1, a token's 2). */
  jsonDepth: 32,
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
