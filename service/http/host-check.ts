// DNS rebinding: a web page whose name is made to resolve to 127.0.0.1 can send requests to a
// service on this machine, and read the answers as its own. Its requests carry its own name in
// Host, so a service bound to a loopback address answers only requests addressed to a loopback
// name (or to a name the operator allows). Bound to another address, it is meant to be reached by
// other names, and checks Host only when the operator lists the allowed ones.
import net from 'node:net';
import type { FastifyInstance } from 'fastify';
import { HttpError } from './error-replies.ts';
import { isLoopbackAddress } from './loopback-address.ts';

const LOOPBACK_NAMES = ['127.0.0.1', 'localhost', '[::1]'];
/** In --allowed-hosts: any name (no check), e.g. behind a proxy that checks names itself. */
export const ANY_HOST = '*';

export interface HostCheck {
  /** True when a request with this Host header may be answered (no header: not a browser, answered). */
  allows(host: string | undefined): boolean;
  /** The 421 for a request addressed to another name. */
  refusal(host: string | undefined): HttpError;
}

/** The check for a service bound to `bindHost`, or undefined when there is nothing to check. */
export function hostPolicy(bindHost: string, allowedHosts: readonly string[]): HostCheck | undefined {
  if (allowedHosts.includes(ANY_HOST)) return undefined;
  if (!isLoopbackAddress(bindHost) && allowedHosts.length === 0) return undefined;
  const names = new Set([...LOOPBACK_NAMES, ...allowedHosts.map((name) => nameOf(name))]);
  // The address it is bound to: what its own URL says (http://0.0.0.0:7411 for a wildcard bind, which only this machine can reach).
  names.add(nameOf(net.isIPv6(bindHost) ? `[${bindHost}]` : bindHost));
  names.delete('');
  const listed = [...names].join(', ');
  // Every request of a client carries the same Host: remember the last one allowed (one comparison per request).
  let lastAllowed: string | undefined;
  return {
    allows(host) {
      if (host === undefined || host === lastAllowed) return true;
      if (!names.has(nameOf(host))) return false;
      lastAllowed = host;
      return true;
    },
    refusal: (host) =>
      new HttpError(
        421,
        'misdirected_request',
        `This service answers only requests addressed to ${listed}; this one was addressed to ${JSON.stringify((host ?? '').slice(0, 100))}. ` +
          'To reach it by another name, add the name to --allowed-hosts (DIFF_REVIEW_ALLOWED_HOSTS).',
      ),
  };
}

/**
 * The check, first of every request's hooks (before its token is looked at): the 404 and 405
 * answers, the public routes and the event streams included. The poll fast path calls the same
 * `allows` and leaves a refused request to this hook.
 */
export function installHostCheck(app: FastifyInstance, check: HostCheck) {
  app.addHook('onRequest', (request, _reply, done) => {
    if (check.allows(request.headers.host)) done();
    else done(check.refusal(request.headers.host));
  });
}

/** The name of a Host header (lower case, without the port), or '' when it is not `name[:port]`. */
function nameOf(host: string): string {
  const lower = host.trim().toLowerCase();
  const end = lower.startsWith('[') ? lower.indexOf(']') + 1 : lower.indexOf(':');
  if (end === 0) return ''; // '[' without ']'
  if (end === -1) return lower;
  const port = lower.slice(end);
  return port === '' || /^:\d{1,5}$/.test(port) ? lower.slice(0, end) : '';
}
