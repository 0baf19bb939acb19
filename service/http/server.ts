// The HTTP face of the service: Fastify with the contract's schemas for validation, serialization
// and the OpenAPI document; auth, rate limits, body limits, timeouts and error replies.
import type { RequestListener } from 'node:http';
import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import swagger from '@fastify/swagger';
import rateLimit from '@fastify/rate-limit';
import { DiffTooLargeError } from '../api/errors.ts';
import { API_VERSION, LIMITS } from '../api/limits.ts';
import { sharedSchemas } from '../api/schemas.ts';
import type { TokenService } from '../auth/tokens.ts';
import type { ReviewEvents } from '../jobs/review-events.ts';
import type { ReviewService } from '../reviews/review-service.ts';
import { installAuth } from './auth.ts';
import {
  clientErrorReply,
  domainReply,
  errorBody,
  HttpError,
  installErrorReplies,
  routerErrorReply,
} from './error-replies.ts';
import { countedRateLimitStore, type WindowCounter } from './counted-rate-limit-store.ts';
import { SharedRateLimitStore } from './shared-rate-limit-store.ts';
import { installJsonBodyParser } from './json-body.ts';
import { EventStreamSlots, type EventStreamLimits } from './event-stream-slots.ts';
import { installHostCheck, type HostCheck } from './host-check.ts';
import { openapiOptions } from './openapi.ts';
import { JSON_TYPE } from './route-schemas.ts';
import { metaRoutes } from './routes/meta.ts';
import { ruleRoutes } from './routes/rules.ts';
import { reviewRoutes } from './routes/reviews.ts';
import { FinishedBodies } from './finished-bodies.ts';
import { LazyChildLogger, RequestLog } from './request-log.ts';
import { tokenRoutes } from './routes/tokens.ts';
import { validatorCompiler } from './validation.ts';

// Not `import http from 'node:http'`: an ES module's import of node:http reads all its exports, and
// its WebSocket getters load undici, at every start, for classes the service never uses.
const http = process.getBuiltinModule('node:http');

export interface RateLimits {
  /** Requests per minute per token, shared by list, events and SARIF (not get: see its route); 0 turns it off. */
  read: number;
  /** Creates and cancels per minute per token. */
  create: number;
  /** Token-endpoint requests per minute per dashboard token. */
  tokens: number;
}

export interface ServerTimeouts {
  /** The whole request must have arrived by then (408). */
  requestMs: number;
  /** The headers must have arrived by then (408): slow-header clients cannot hold sockets. */
  headersMs: number;
}

export interface ServerDeps {
  tokens: TokenService;
  reviews: ReviewService;
  events: ReviewEvents;
  version: string;
  rateLimits: RateLimits;
  timeouts: ServerTimeouts;
  loggerInstance: FastifyBaseLogger;
  eventStreams: EventStreamLimits;
  /** The Host names answered (DNS rebinding); undefined: any. */
  hostCheck?: HostCheck;
  /** Where rate-limit counts are kept when instances share them (PostgreSQL mode); undefined: in memory. */
  windowCounter?: WindowCounter;
}

export async function buildServer(deps: ServerDeps): Promise<FastifyInstance> {
  const bodies = new FinishedBodies();
  const app = Fastify({
    loggerInstance: deps.loggerInstance,
    bodyLimit: LIMITS.smallBodyBytes,
    serverFactory: (handler) => createHttpServer(handler, deps.timeouts),
    clientErrorHandler: clientErrorReply,
    frameworkErrors: routerErrorReply,
    return503OnClosing: true,
    forceCloseConnections: 'idle',
    logController: new RequestLog(),
    childLoggerFactory: (logger, bindings, options) => new LazyChildLogger(logger, bindings, options),
  });
  app.setValidatorCompiler(validatorCompiler);
  // Bodies are JSON only: without this, Fastify's built-in text/plain parser hands a JSON text sent
  // as text/plain to validation as a string, and the 400 names the body instead of Content-Type.
  app.removeContentTypeParser('text/plain');
  installJsonBodyParser(app);
  for (const schema of sharedSchemas) app.addSchema(schema);
  await app.register(swagger, openapiOptions(API_VERSION));

  installErrorReplies(app);
  if (deps.hostCheck) installHostCheck(app, deps.hostCheck);
  installAuth(app, deps.tokens);
  await app.register(rateLimit, {
    global: false,
    hook: 'preParsing', // after authentication, so the key is the token, and before the body is read
    keyGenerator: (request) => request.principal?.tokenId ?? request.ip,
    enableDraftSpec: true,
    store: deps.windowCounter ? countedRateLimitStore(deps.windowCounter) : SharedRateLimitStore,
    errorResponseBuilder: (_request, context) =>
      new HttpError(
        429,
        'rate_limited',
        `Too many requests: this token may make ${context.max} of them per minute here. Retry in ${context.after}.`,
      ),
  });

  const routes = new Map<string, Set<string>>();
  app.addHook('onRoute', (route) => {
    if (route.schema?.hide) return;
    const methods = routes.get(route.url) ?? new Set<string>();
    for (const method of [route.method].flat()) methods.add(method);
    routes.set(route.url, methods);
  });
  metaRoutes(app, { version: deps.version });
  const streams = new EventStreamSlots(deps.eventStreams, deps.loggerInstance);
  reviewRoutes(app, { reviews: deps.reviews, events: deps.events, rateLimit: deps.rateLimits, bodies, streams });
  tokenRoutes(app, { tokens: deps.tokens, rateLimit: deps.rateLimits.tokens });
  ruleRoutes(app);
  methodNotAllowedRoutes(app, routes, app.supportedMethods);
  return app;
}

/** A known path with an unknown method: 405 with the Allow header, in the error shape. */
function methodNotAllowedRoutes(app: FastifyInstance, routes: Map<string, Set<string>>, all: string[]) {
  for (const [url, methods] of routes) {
    const allow = all.filter((m) => methods.has(m));
    const others = all.filter((m) => !methods.has(m));
    app.route({
      method: others,
      url,
      schema: { hide: true },
      // onRequest: answered before any body is read
      onRequest: async (request, reply) => {
        reply.header('allow', allow.join(', '));
        throw new HttpError(
          405,
          'method_not_allowed',
          `${request.method} is not allowed on ${url}; use ${allow.join(' or ')}.`,
        );
      },
      handler: async () => undefined,
    });
  }
}

function createHttpServer(handler: RequestListener, timeouts: ServerTimeouts) {
  const server = http.createServer(
    {
      requestTimeout: timeouts.requestMs,
      headersTimeout: timeouts.headersMs,
      connectionsCheckingInterval: Math.min(1000, timeouts.headersMs),
      keepAliveTimeout: 5000,
    },
    handler,
  );
  // `Expect: 100-continue` (curl sends it for large bodies): refuse an oversize body before it is sent.
  server.on('checkContinue', (request, response) => {
    if (Number(request.headers['content-length']) > LIMITS.reviewBodyBytes) {
      const body = errorBody(domainReply(new DiffTooLargeError())!);
      response.writeHead(413, {
        'content-type': JSON_TYPE,
        'content-length': Buffer.byteLength(body),
        connection: 'close',
      });
      response.end(body);
      return;
    }
    response.writeContinue();
    handler(request, response);
  });
  return server;
}
