// The JSON body parser: Fastify's default one, minus two regular-expression scans of the whole
// text, plus two refusals it does not make. Fastify parses with secure-json-parse, which after
// JSON.parse scans the text twice for `"__proto__":` and `"constructor":` (~0.7 ms for a 1 MB diff,
// on the HTTP thread) and walks the parsed value only when one matches. The walk alone is the
// authority (the scans are its filter), and a create's body is one flat object: walking it always
// costs nothing. Same errors, same replies: an empty body is FST_ERR_CTP_EMPTY_JSON_BODY, anything
// that does not parse or holds a prototype-poisoning key is FST_ERR_CTP_INVALID_JSON_BODY.
// Refused here as well, with a message that says why:
// - bytes that are not UTF-8 (Fastify would decode them to U+FFFD without a word), naming the field;
// - nesting deeper than LIMITS.jsonDepth, found by a cheap scan before JSON.parse (1.9 million
//   levels cost 0.7 s of the HTTP thread to parse and walk before they were refused).
import { isUtf8 } from 'node:buffer';
import { errorCodes, type FastifyInstance } from 'fastify';
import { InvalidRequestError } from '../api/errors.ts';
import { LIMITS } from '../api/limits.ts';
import { firstInvalidUtf8, nestsDeeperThan, openFieldAt } from './json-text.ts';

const { FST_ERR_CTP_EMPTY_JSON_BODY, FST_ERR_CTP_INVALID_JSON_BODY } = errorCodes;
const has = (o: object, key: string) => Object.hasOwn(o, key);

export function installJsonBodyParser(app: FastifyInstance) {
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (_request, body, done) => {
    const bytes = body as Buffer;
    if (bytes.length === 0) {
      done(new FST_ERR_CTP_EMPTY_JSON_BODY(), undefined);
      return;
    }
    if (!isUtf8(bytes)) {
      done(notUtf8(bytes), undefined);
      return;
    }
    const text = bytes.toString('utf8');
    if (nestsDeeperThan(text, LIMITS.jsonDepth)) {
      done(
        new InvalidRequestError(
          `The request body nests deeper than ${LIMITS.jsonDepth} levels of arrays and objects; no valid request does.`,
        ),
        undefined,
      );
      return;
    }
    try {
      done(null, parseJsonBody(text));
    } catch {
      done(new FST_ERR_CTP_INVALID_JSON_BODY(), undefined);
    }
  });
}

/** The 400 for a body that is not UTF-8, naming the field whose text holds the first bad byte. */
function notUtf8(bytes: Buffer) {
  const offset = firstInvalidUtf8(bytes);
  const field = openFieldAt(bytes.subarray(0, offset).toString('utf8'));
  return new InvalidRequestError(
    field === undefined
      ? `The request body is not valid UTF-8 (byte ${offset}). Send JSON encoded as UTF-8.`
      : `${field} is not valid UTF-8 (byte ${offset} of the body). Send the text encoded as UTF-8; nothing is replaced silently.`,
  );
}

/** JSON.parse that refuses prototype poisoning, as secure-json-parse does with both actions at 'error'. */
export function parseJsonBody(text: string): unknown {
  const value: unknown = JSON.parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
  if (value === null || typeof value !== 'object') return value;
  let next: object[] = [value];
  while (next.length > 0) {
    const nodes = next;
    next = [];
    for (const node of nodes) {
      if (has(node, '__proto__')) throw new SyntaxError('Object contains forbidden prototype property');
      const ctor = (node as { constructor?: unknown }).constructor;
      if (has(node, 'constructor') && ctor !== null && typeof ctor === 'object' && has(ctor, 'prototype')) {
        throw new SyntaxError('Object contains forbidden prototype property');
      }
      for (const key in node) {
        const child = (node as Record<string, unknown>)[key];
        if (child && typeof child === 'object') next.push(child);
      }
    }
  }
  return value;
}
