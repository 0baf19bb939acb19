// The service's request logging: one line per request (debug for successes), and a per-request
// logger made only when a request logs something.
import type { Bindings, ChildLoggerOptions } from 'pino';
import { LogController, type FastifyBaseLogger, type FastifyReply, type FastifyRequest } from 'fastify';

/**
 * One log line per request instead of Fastify's two, at debug for successes and at info for
 * refusals (4xx: who was turned away, and why, is worth keeping at the default level); a 5xx is
 * logged at error, with its cause, by the error handler. Fastify's default (two info lines per
 * request) cost about a fifth of the throughput of a poll (test/bench/api-throughput.ts): a
 * service polled thousands of times a second should not write a line per poll unless asked to
 * (--log-level debug). Never headers or bodies, as before, and never a query's values.
 */
export class RequestLog extends LogController {
  override incomingRequest(): void {}
  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    if (!error && reply.statusCode < 400 && !isLevelEnabled(reply.log, 'debug')) return; // the usual poll: nothing to build
    const fields = {
      req: { method: request.method, url: loggedUrl(request.url) },
      res: { statusCode: reply.statusCode },
      responseTime: reply.elapsedTime,
    };
    if (error) reply.log.error({ ...fields, err: error }, 'request errored');
    else if (reply.statusCode >= 400) reply.log.info(fields, 'request completed');
    else reply.log.debug(fields, 'request completed');
  }
}

/**
 * The URL as logged: the path, and the query's parameter names with their values redacted. A
 * client may put a secret in a query string (`?access_token=…`, refused, but it was sent); the
 * names are enough to see what was asked.
 */
export function loggedUrl(url: string): string {
  const start = url.indexOf('?');
  if (start === -1) return url;
  const query = url
    .slice(start + 1)
    .split('&')
    .filter((part) => part !== '')
    .map((part) => {
      const equals = part.indexOf('=');
      return equals === -1 ? '[redacted]' : `${part.slice(0, equals)}=[redacted]`;
    });
  return `${url.slice(0, start)}?${query.join('&')}`;
}

export const isLevelEnabled = (log: FastifyBaseLogger, level: string) =>
  (log as FastifyBaseLogger & { isLevelEnabled(level: string): boolean }).isLevelEnabled(level);

/**
 * Each request's logger (the service's, with the request id bound), made when the request first
 * logs something rather than for every request: a poll that logs nothing (a success at the default
 * level) no longer pays for a pino child (about a tenth of a poll's CPU time). Lines come out as
 * they did: the real child, with the same bindings and options, writes them.
 */
export class LazyChildLogger implements FastifyBaseLogger {
  readonly #parent: FastifyBaseLogger;
  readonly #bindings: Bindings;
  readonly #options: ChildLoggerOptions;
  #child: FastifyBaseLogger | undefined;

  constructor(parent: FastifyBaseLogger, bindings: Bindings, options: ChildLoggerOptions) {
    this.#parent = parent;
    this.#bindings = bindings;
    this.#options = options;
    // A child of its own level or serializers is not the parent's twin: make it now.
    if (Object.keys(options).length > 0) this.#child = parent.child(bindings, options);
  }

  get #log(): FastifyBaseLogger {
    return (this.#child ??= this.#parent.child(this.#bindings, this.#options));
  }

  isLevelEnabled(level: string): boolean {
    return isLevelEnabled(this.#child ?? this.#parent, level);
  }
  get level(): string {
    return (this.#child ?? this.#parent).level;
  }
  set level(level: string) {
    this.#log.level = level;
  }
  fatal(...args: unknown[]) {
    if (this.isLevelEnabled('fatal')) (this.#log.fatal as (...a: unknown[]) => void)(...args);
  }
  error(...args: unknown[]) {
    if (this.isLevelEnabled('error')) (this.#log.error as (...a: unknown[]) => void)(...args);
  }
  warn(...args: unknown[]) {
    if (this.isLevelEnabled('warn')) (this.#log.warn as (...a: unknown[]) => void)(...args);
  }
  info(...args: unknown[]) {
    if (this.isLevelEnabled('info')) (this.#log.info as (...a: unknown[]) => void)(...args);
  }
  debug(...args: unknown[]) {
    if (this.isLevelEnabled('debug')) (this.#log.debug as (...a: unknown[]) => void)(...args);
  }
  trace(...args: unknown[]) {
    if (this.isLevelEnabled('trace')) (this.#log.trace as (...a: unknown[]) => void)(...args);
  }
  silent() {}
  child(bindings: Bindings, options?: ChildLoggerOptions): FastifyBaseLogger {
    return this.#log.child(bindings, options);
  }
}
