// Pieces shared by the routes: error responses, security requirements, the JSON media type.
import Type from 'typebox';
import { DIFF_LIMIT_TEXT } from '../api/errors.ts';

/** What Fastify sets for a JSON body it serializes itself; every JSON answer of ours says the same. */
export const JSON_TYPE = 'application/json; charset=utf-8';

const ERROR_DESCRIPTIONS: Record<number, string> = {
  400: 'The request is not valid: `invalid_request`, with a message that names the field.',
  401: 'The token is missing, unknown or revoked: `unauthorized`.',
  403: 'The token expired (`token_expired`) or lacks the scope (`insufficient_scope`).',
  404: 'Not found: `not_found`.',
  409: 'The review is not in a state that allows this: `conflict`.',
  413: `The diff is larger than ${DIFF_LIMIT_TEXT}: \`diff_too_large\`.`,
  429: 'Too many requests (`rate_limited`) or too many queued reviews (`queue_full`); see Retry-After.',
  500: 'The service failed: `internal_error`.',
};

declare module 'fastify' {
  interface FastifySchema {
    /**
     * The error statuses the route answers, documented as ErrorResponse (openapi.ts adds them to the
     * route's responses). Not in `response`: every error body is `{ error, message }`, written the same
     * way for every route (error-replies.ts), so Fastify need not compile a serializer for each route
     * and status when the service starts.
     */
    errorStatuses?: number[];
  }
}

/** `{ 401: ErrorResponse, ... }` for the given statuses. */
export function errorResponses(statuses: number[]) {
  return Object.fromEntries(
    statuses.map((status) => [status, Type.Ref('ErrorResponse', { description: ERROR_DESCRIPTIONS[status] })]),
  );
}

export const reviewSecurity = [{ reviewBearerAuth: [] }];
export const dashboardSecurity = [{ dashboardBearerAuth: [] }];
