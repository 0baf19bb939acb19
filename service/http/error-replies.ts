// Every non-2xx the server sends is `{ error, message }`: errors we throw, errors the framework
// throws (validation, body limits, media type), unknown routes, and the errors Node's HTTP parser
// answers on its own (oversize headers, timeouts, malformed requests).
import http from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ApiError, type ErrorId } from '../api/errors.ts';
import { LIMITS } from '../api/limits.ts';
import { JSON_TYPE } from './route-schemas.ts';
import { drainRefusedBody } from './refused-body.ts';
import { describeValidationError } from './validation.ts';

export function sendError(reply: FastifyReply, error: ApiError) {
  return reply.code(error.status).headers(error.headers).type(JSON_TYPE).send({ error: error.error, message: error.message });
}

/** Turns anything thrown in a request into the contract's error shape. */
export function toApiError(error: FastifyError | ApiError | Error, request: FastifyRequest): ApiError {
  if (error instanceof ApiError) return error;
  const fastifyError = error as FastifyError;
  if (fastifyError.validation) {
    return new ApiError(400, 'invalid_request', describeValidationError(fastifyError.validation as never, fastifyError.validationContext ?? 'body'));
  }
  switch (fastifyError.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return request.url.startsWith('/v1/reviews')
        ? new ApiError(413, 'diff_too_large', `The request body is too large. A diff may be at most ${LIMITS.diffBytes.toLocaleString('en')} bytes of UTF-8; review a smaller range of commits.`)
        : new ApiError(413, 'payload_too_large', 'The request body is too large.');
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return new ApiError(400, 'invalid_request', 'Content-Type must be application/json.');
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return new ApiError(400, 'invalid_request', 'The request body is empty; send a JSON object.');
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
      return new ApiError(400, 'invalid_request', 'The request body is not valid JSON.');
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return new ApiError(400, 'invalid_request', 'The request body does not match its Content-Length.');
  }
  const status = fastifyError.statusCode ?? 500;
  if (status === 429) {
    return new ApiError(429, 'rate_limited', error.message || 'Too many requests; wait for Retry-After seconds.');
  }
  if (status >= 400 && status < 500) return new ApiError(status, idFor(status), error.message);
  return new ApiError(500, 'internal_error', 'The service failed to answer this request. The error was logged; try again.');
}

const idFor = (status: number): ErrorId =>
  status === 404 ? 'not_found' : status === 413 ? 'payload_too_large' : status === 408 ? 'request_timeout' : 'invalid_request';

export function installErrorReplies(app: FastifyInstance) {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    const apiError = toApiError(error, request);
    if (apiError.status >= 500) request.log.error({ err: error }, 'request failed');
    if (apiError.status === 413 && !request.raw.complete) {
      // refused before the whole body came: Fastify's `close` would have Node cut the connection with the rest unread
      reply.removeHeader('connection');
      drainRefusedBody(request.raw, reply.raw);
    }
    return sendError(reply, apiError);
  });
  app.setNotFoundHandler((request, reply) =>
    sendError(reply, new ApiError(404, 'not_found', `There is no ${request.method} ${request.url.split('?')[0]}. The API is described at /v1/openapi.json.`)),
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
      return sendError(reply, new ApiError(404, 'not_found', `There is no ${request.method} ${path.slice(0, 200)}…; the id is far too long to exist.`));
    case 'FST_ERR_BAD_URL':
      // A path parameter that does not decode names nothing; 404 keeps GET within its documented statuses.
      return sendError(reply, new ApiError(404, 'not_found', `There is no ${request.method} ${path.slice(0, 200)}: its percent-encoding is not valid UTF-8.`));
    default:
      return sendError(reply, toApiError(error, request));
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
