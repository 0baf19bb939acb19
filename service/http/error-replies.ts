// Every non-2xx the server sends is `{ error, message }`: errors the domain throws (service/api/errors.ts,
// which know nothing of HTTP: their status, identifier and headers are decided here and nowhere else),
// errors the framework throws (validation, body limits, media type), unknown routes, and the errors
// Node's HTTP parser answers on its own (oversize headers, timeouts, malformed requests).
import type { Socket } from 'node:net';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import {
  ConflictError,
  DiffTooLargeError,
  type ErrorId,
  InsufficientScopeError,
  InvalidRequestError,
  NotFoundError,
  QueueFullError,
  ReviewNotSavedError,
  ServiceUnavailableError,
  TokenExpiredError,
  UnauthorizedError,
} from '../api/errors.ts';
import { JSON_TYPE } from './route-schemas.ts';
import { drainRefusedBody } from './refused-body.ts';
import { describeValidationError } from './validation.ts';

// Read so, not imported: see server.ts.
const http = process.getBuiltinModule('node:http');

/** An answer decided: status, the contract's identifier, a message for people, headers. */
export class HttpError extends Error {
  override name = 'HttpError';
  readonly status: number;
  readonly error: ErrorId;
  readonly headers: Record<string, string>;

  constructor(status: number, error: ErrorId, message: string, headers: Record<string, string> = {}) {
    super(message);
    this.status = status;
    this.error = error;
    this.headers = headers;
  }
}

export function sendError(reply: FastifyReply, error: HttpError) {
  return reply
    .code(error.status)
    .headers(error.headers)
    .type(JSON_TYPE)
    .send({ error: error.error, message: error.message });
}

/** The body of an error answer written without Fastify (its serializer writes the same bytes). */
export const errorBody = (error: HttpError) => JSON.stringify({ error: error.error, message: error.message });

/** RFC 6750's challenge; `error` says why a sent token was refused, `scope` what was missing. */
const bearer = (error?: string, scope?: string): Record<string, string> => ({
  'www-authenticate': `Bearer realm="diff-review"${error ? `, error="${error}"` : ''}${scope ? `, scope="${scope}"` : ''}`,
});

/** The answer to an error the domain threw, or undefined for anything else. */
export function domainReply(error: unknown): HttpError | undefined {
  if (!(error instanceof Error)) return undefined;
  if (error instanceof InvalidRequestError) return new HttpError(400, 'invalid_request', error.message);
  if (error instanceof UnauthorizedError) {
    const challenge =
      error.reason === 'missing' ? undefined : error.reason === 'malformed' ? 'invalid_request' : 'invalid_token';
    return new HttpError(401, 'unauthorized', error.message, bearer(challenge));
  }
  if (error instanceof TokenExpiredError)
    return new HttpError(403, 'token_expired', error.message, bearer('invalid_token'));
  if (error instanceof InsufficientScopeError)
    return new HttpError(403, 'insufficient_scope', error.message, bearer('insufficient_scope', error.scope));
  if (error instanceof NotFoundError) return new HttpError(404, 'not_found', error.message);
  if (error instanceof ConflictError) return new HttpError(409, 'conflict', error.message);
  if (error instanceof DiffTooLargeError) return new HttpError(413, 'diff_too_large', error.message);
  if (error instanceof QueueFullError)
    return new HttpError(429, 'queue_full', error.message, { 'retry-after': String(error.retryAfterSeconds) });
  if (error instanceof ServiceUnavailableError)
    return new HttpError(503, 'service_unavailable', error.message, { 'retry-after': String(error.retryAfterSeconds) });
  // Our failure, but its message says only what the caller needs to know (nothing was queued).
  if (error instanceof ReviewNotSavedError) return new HttpError(500, 'internal_error', error.message);
  return undefined;
}

/** Turns anything thrown in a request into the contract's error shape. */
export function toHttpError(error: FastifyError | Error, request: FastifyRequest): HttpError {
  if (error instanceof HttpError) return error;
  const fromDomain = domainReply(error);
  if (fromDomain !== undefined) return fromDomain;
  const fastifyError = error as FastifyError;
  if (fastifyError.validation) {
    return new HttpError(
      400,
      'invalid_request',
      describeValidationError(fastifyError.validation, fastifyError.validationContext ?? 'body'),
    );
  }
  switch (fastifyError.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return request.url.startsWith('/v1/reviews')
        ? domainReply(new DiffTooLargeError())!
        : new HttpError(413, 'payload_too_large', 'The request body is too large.');
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return new HttpError(400, 'invalid_request', 'Content-Type must be application/json.');
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return new HttpError(400, 'invalid_request', 'The request body is empty; send a JSON object.');
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
      return new HttpError(400, 'invalid_request', 'The request body is not valid JSON.');
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return new HttpError(400, 'invalid_request', 'The request body does not match its Content-Length.');
  }
  const status = fastifyError.statusCode ?? 500;
  if (status === 429) {
    return new HttpError(429, 'rate_limited', error.message || 'Too many requests; wait for Retry-After seconds.');
  }
  if (status >= 400 && status < 500) return new HttpError(status, idFor(status), error.message);
  return new HttpError(
    500,
    'internal_error',
    'The service failed to answer this request. The error was logged; try again.',
  );
}

const idFor = (status: number): ErrorId =>
  status === 404
    ? 'not_found'
    : status === 413
      ? 'payload_too_large'
      : status === 408
        ? 'request_timeout'
        : 'invalid_request';

export function installErrorReplies(app: FastifyInstance) {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    const answer = toHttpError(error, request);
    if (answer.status >= 500) request.log.error({ err: error }, 'request failed');
    if (answer.status === 413 && !request.raw.complete) {
      // refused before the whole body came: Fastify's `close` would have Node cut the connection with the rest unread
      reply.removeHeader('connection');
      drainRefusedBody(request.raw, reply.raw);
    }
    return sendError(reply, answer);
  });
  app.setNotFoundHandler((request, reply) =>
    sendError(
      reply,
      new HttpError(
        404,
        'not_found',
        `There is no ${request.method} ${request.url.split('?')[0]}. The API is described at /v1/openapi.json.`,
      ),
    ),
  );
}

/**
 * Answers the requests Fastify's router rejects before any route or hook runs; without this they
 * get Fastify's own body (`"error": "Bad Request"`, and 414 for a long path parameter).
 */
export function routerErrorReply(error: FastifyError, request: FastifyRequest, reply: FastifyReply) {
  const path = request.url.split('?')[0] ?? '';
  switch (error.code) {
    case 'FST_ERR_MAX_PARAM_LENGTH':
      // No id is that long: there is nothing there (and saying so leaks nothing).
      return sendError(
        reply,
        new HttpError(
          404,
          'not_found',
          `There is no ${request.method} ${path.slice(0, 200)}…; the id is far too long to exist.`,
        ),
      );
    case 'FST_ERR_BAD_URL':
      // A path parameter that does not decode names nothing; 404 keeps GET within its documented statuses.
      return sendError(
        reply,
        new HttpError(
          404,
          'not_found',
          `There is no ${request.method} ${path.slice(0, 200)}: its percent-encoding is not valid UTF-8.`,
        ),
      );
    default:
      return sendError(reply, toHttpError(error, request));
  }
}

/** Answers the requests Node's HTTP parser rejects before Fastify sees them. */
export function clientErrorReply(error: NodeJS.ErrnoException & { bytesParsed?: number }, socket: Socket) {
  if (error.code === 'ECONNRESET' || !socket.writable) return;
  const [status, id, message]: [number, ErrorId, string] =
    error.code === 'HPE_HEADER_OVERFLOW'
      ? [431, 'header_fields_too_large', 'The request headers are too large.']
      : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? [408, 'request_timeout', 'The request took too long to arrive.']
        : [400, 'invalid_request', 'The request is not valid HTTP.'];
  const body = JSON.stringify({ error: id, message });
  socket.end(
    `HTTP/1.1 ${status} ${http.STATUS_CODES[status]}\r\nContent-Type: ${JSON_TYPE}\r\n` +
      `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
}
