// The OpenAPI 3.1 document's frame; its paths and schemas come from the routes' schemas.
import type { FastifyDynamicSwaggerOptions } from '@fastify/swagger';
import { DIFF_LIMIT_TEXT } from '../api/errors.ts';
import { LIMITS } from '../api/limits.ts';
import { CREATE_TEXT_BOUND } from './diff-size-bound.ts';
import { errorResponses } from './route-schemas.ts';
import { formatCount } from '../format-count.ts';

export function openapiOptions(version: string): FastifyDynamicSwaggerOptions {
  return {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Diff Review API',
        version,
        description: [
          'Asynchronous code review of pull-request diffs. Submit a diff with `POST /v1/reviews`, then poll',
          '`GET /v1/reviews/{review_id}` (or follow `/events`) until the job is `completed` (with comments) or `failed` (with an error).',
          '',
          `Limits: a diff is at most ${DIFF_LIMIT_TEXT} (413 \`diff_too_large\` beyond).`,
          `A create body far over that is refused without being read whole: as it arrives, once its text (a JSON escape counted as one byte, JSON's whitespace and punctuation not counted) passes ${formatCount(CREATE_TEXT_BOUND)} bytes, the diff's limit and ${formatCount(LIMITS.reviewEnvelopeBytes)} for the other fields; or at once from a Content-Length over ${formatCount(LIMITS.reviewBodyBytes)}, room for the largest valid diff written with JSON escapes.`,
          'Rate limits are per token and announced in `RateLimit-Limit`, `RateLimit-Remaining` and `RateLimit-Reset`; a 429 carries `Retry-After`.',
          'Finished reviews are kept for 30 days by default. Every non-2xx response body is `{ "error": string, "message"?: string }`.',
          'Request bodies are JSON in UTF-8: bytes that are not UTF-8 are refused (400 naming the field), never replaced; arrays and objects nest at most ' +
            `${LIMITS.jsonDepth} levels.`,
          'A service bound to a loopback address answers only requests whose Host is 127.0.0.1, localhost or [::1] (or a name its operator allows): any other is answered 421 `misdirected_request`, on every path (DNS rebinding).',
        ].join('\n'),
      },
      tags: [
        { name: 'reviews', description: 'Review jobs (review API token).' },
        { name: 'tokens', description: 'Review API tokens (dashboard token).' },
        { name: 'rules', description: "The review engine's rules and their documentation (no token)." },
        { name: 'meta', description: 'Health and this document (no token).' },
      ],
      components: {
        securitySchemes: {
          reviewBearerAuth: {
            type: 'http',
            scheme: 'bearer',
            description:
              'A review API token (`drv_…`) with the scope `reviews:read` or `reviews:write`. Create one with POST /v1/auth/tokens.',
          },
          dashboardBearerAuth: {
            type: 'http',
            scheme: 'bearer',
            description:
              'The dashboard token. A local service writes it to `<data dir>/dashboard-token` on first start.',
          },
        },
      },
    },
    // A route's error answers are documented beside its other responses (route-schemas.ts).
    transform: ({ schema, url }) => ({
      schema: schema?.errorStatuses
        ? { ...schema, response: { ...(schema.response as object), ...errorResponses(schema.errorStatuses) } }
        : schema,
      url,
    }),
    // Components are named after the schemas' $id (ReviewJob, ReviewComment, ...).
    refResolver: {
      buildLocalReference: (json, _baseUri, _fragment, i) => (typeof json.$id === 'string' ? json.$id : `def-${i}`),
    },
  };
}
