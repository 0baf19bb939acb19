// The contract of API v1, written once. These schemas validate requests, serialize responses,
// give the clients their TypeScript types and become the OpenAPI document (see openapi.ts).
import Type, { type Static } from 'typebox';
import { LIMITS } from './limits.ts';
import { formatCount } from '../format-count.ts';

/** ISO 8601 UTC with milliseconds, e.g. 2026-11-21T18:42:00.123Z. */
const Timestamp = Type.String({
  format: 'date-time',
  pattern: '^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}\\.\\d{3}Z$',
  examples: ['2026-11-21T18:42:00.123Z'],
});

/**
 * Characters no name or identifier should hold: Unicode controls (C0, DEL, C1 such as U+0085),
 * format characters (U+200B, U+202E, U+FEFF, tags), lone surrogates, and the line and paragraph
 * separators (U+2028, U+2029): they break log lines, or make text read other than it is.
 */
const INVISIBLE = '\\p{Cc}\\p{Cf}\\p{Cs}\\p{Zl}\\p{Zp}';

const Nullable = <T extends Type.TSchema>(schema: T) => Type.Union([schema, Type.Null()]);

export const ReviewStatus = Type.Union(
  [Type.Literal('queued'), Type.Literal('running'), Type.Literal('completed'), Type.Literal('failed')],
  {
    description:
      'queued → running → completed | failed; a queued or running job may also end failed (cancelled, timeout).',
  },
);

export const Severity = Type.Union([Type.Literal('error'), Type.Literal('warning'), Type.Literal('info')], {
  description: 'error: must not merge; warning: likely bug or risk; info: hygiene.',
});

export const ReviewComment = Type.Object(
  {
    file_path: Type.String({ description: 'Path in the new version of the repository, without a/ or b/ prefix.' }),
    line: Type.Integer({
      minimum: 1,
      description: '1-based line in the new version of the file; always a line the diff adds.',
    }),
    message: Type.String({
      description: 'Begins with the rule id, e.g. "no-debugger: Remove the debugger statement before merging."',
    }),
    severity: Severity,
  },
  { additionalProperties: false, $id: 'ReviewComment' },
);

export const JobErrorCode = Type.Union([
  Type.Literal('invalid_diff'),
  Type.Literal('timeout'),
  Type.Literal('cancelled'),
  Type.Literal('internal_error'),
]);

export const ReviewJobError = Type.Object(
  {
    code: JobErrorCode,
    message: Type.String({ description: 'For people.' }),
  },
  { additionalProperties: false, $id: 'ReviewJobError' },
);

/** A review's id: `rev_` and a ULID. The one pattern for the contract, the store's file names, cursors and the poll fast path. */
export const REVIEW_ID_PATTERN = '^rev_[0-9A-Z]{26}$';
export const REVIEW_ID = new RegExp(REVIEW_ID_PATTERN);

export const ReviewJob = Type.Object(
  {
    review_id: Type.String({ pattern: REVIEW_ID_PATTERN, examples: ['rev_01JD8X3Q4M5N6P7R8S9T0V1W2X'] }),
    status: ReviewStatus,
    repository: Type.Optional(Type.String()),
    base_commit: Type.Optional(Type.String()),
    created_at: Timestamp,
    updated_at: Timestamp,
    started_at: Type.Optional(Timestamp),
    completed_at: Type.Optional(Timestamp),
    comments: Type.Optional(Type.Array(Type.Ref('ReviewComment'))),
    error: Type.Optional(Type.Ref('ReviewJobError')),
  },
  { additionalProperties: false, $id: 'ReviewJob' },
);

export const CreateReviewBody = Type.Object(
  {
    diff: Type.String({
      minLength: 1,
      description: `A unified diff (git diff, git format-patch, diff -u). At most ${formatCount(LIMITS.diffBytes)} bytes of UTF-8; larger diffs are answered 413.`,
    }),
    repository: Type.String({
      minLength: 1,
      maxLength: LIMITS.repositoryChars,
      pattern: `^[^${INVISIBLE}]+$`,
      description:
        'Repository identifier, e.g. github.com/acme/widgets. No Unicode control, format or line-separator characters.',
    }),
    base_commit: Type.Optional(Type.String({ pattern: '^[0-9a-fA-F]{7,64}$', description: '7–64 hex digits.' })),
  },
  { additionalProperties: false },
);

export const ReviewIdParams = Type.Object({ review_id: Type.String() });

export const ListReviewsQuery = Type.Object(
  {
    status: Type.Optional(ReviewStatus),
    repository: Type.Optional(Type.String({ maxLength: LIMITS.repositoryChars })),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: LIMITS.listMax, default: LIMITS.listDefault })),
    cursor: Type.Optional(Type.String({ maxLength: 200, description: 'next_cursor of the previous page.' })),
  },
  { additionalProperties: false },
);

export const ReviewList = Type.Object(
  {
    reviews: Type.Array(Type.Ref('ReviewJob')),
    next_cursor: Nullable(Type.String()),
    total: Type.Integer({
      minimum: 0,
      description:
        'How many reviews match the filters (status, repository), every page together, when this page was read; the same on every page of a listing unless reviews come or go meanwhile.',
    }),
  },
  { additionalProperties: false },
);

export const ErrorResponse = Type.Object(
  {
    error: Type.String({ description: 'Error identifier, e.g. invalid_request, unauthorized, not_found.' }),
    message: Type.Optional(Type.String({ description: 'For people: what went wrong and what to do.' })),
  },
  { additionalProperties: true, $id: 'ErrorResponse' },
);

export const ReviewScope = Type.Union([Type.Literal('reviews:read'), Type.Literal('reviews:write')]);

export const TokenRecord = Type.Object(
  {
    id: Type.String({ pattern: '^tok_[0-9A-Z]{26}$' }),
    name: Type.String(),
    type: Type.Literal('review'),
    scopes: Type.Array(ReviewScope),
    prefix: Type.String({ description: 'The first 8 characters of the secret, for recognition.' }),
    created_at: Timestamp,
    expires_at: Nullable(Timestamp),
    last_used_at: Nullable(Timestamp),
  },
  { additionalProperties: false, $id: 'TokenRecord' },
);

export const CreatedToken = Type.Object(
  {
    ...TokenRecord.properties,
    token: Type.String({ description: 'The secret. Shown once, never again.' }),
  },
  { additionalProperties: false },
);

export const CreateTokenBody = Type.Object(
  {
    name: Type.String({
      minLength: 1,
      maxLength: LIMITS.tokenNameChars,
      // not only whitespace, and nothing invisible
      pattern: `^(?!\\s*$)[^${INVISIBLE}]+$`,
      description:
        'What the token is for. At least one visible character; no Unicode control, format or line-separator characters.',
    }),
    scopes: Type.Optional(Type.Array(ReviewScope, { minItems: 1, uniqueItems: true, description: 'Default: both.' })),
    expires_in_days: Type.Optional(
      Nullable(Type.Integer({ minimum: 1, maximum: LIMITS.tokenMaxDays, description: 'Default 90; null for never.' })),
    ),
  },
  { additionalProperties: false },
);

export const TokenIdParams = Type.Object({ id: Type.String() });

export const TokenList = Type.Object({ tokens: Type.Array(Type.Ref('TokenRecord')) }, { additionalProperties: false });

export const Health = Type.Object(
  { status: Type.Literal('ok'), version: Type.String() },
  { additionalProperties: false },
);

/** Schemas referenced by $ref from others; registered once with the server (and the OpenAPI components). */
export const sharedSchemas = [ReviewComment, ReviewJobError, ReviewJob, ErrorResponse, TokenRecord];

export type ReviewStatus = Static<typeof ReviewStatus>;
export type Severity = Static<typeof Severity>;
export type ReviewComment = Static<typeof ReviewComment>;
export type JobErrorCode = Static<typeof JobErrorCode>;
export type ReviewJobError = Static<typeof ReviewJobError>;
/** $refs do not resolve statically, so the job type is spelled out from its parts. */
export type ReviewJob = Omit<Static<typeof ReviewJob>, 'comments' | 'error'> & {
  comments?: ReviewComment[];
  error?: ReviewJobError;
};
export type CreateReviewBody = Static<typeof CreateReviewBody>;
export type ListReviewsQuery = Static<typeof ListReviewsQuery>;
export type ReviewList = { reviews: ReviewJob[]; next_cursor: string | null; total: number };
export type ErrorResponse = Static<typeof ErrorResponse>;
export type ReviewScope = Static<typeof ReviewScope>;
export type TokenRecord = Static<typeof TokenRecord>;
export type CreatedToken = Static<typeof CreatedToken>;
export type CreateTokenBody = Static<typeof CreateTokenBody>;
export type TokenList = { tokens: TokenRecord[] };
export type Health = Static<typeof Health>;
