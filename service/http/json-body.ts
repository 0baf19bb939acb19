// The JSON body parser: Fastify's own (secure-json-parse, prototype poisoning refused, a BOM
// allowed), read from the bytes so that two refusals it does not make come first, each with a
// message that says why:
// - bytes that are not UTF-8 (Fastify would decode them to U+FFFD without a word), naming the field;
// - nesting deeper than LIMITS.jsonDepth, found by a cheap scan before JSON.parse (deep nesting
//   held the HTTP thread while it was parsed and walked before it was refused).
import { isUtf8 } from 'node:buffer';
import { errorCodes, type FastifyInstance } from 'fastify';
import { InvalidRequestError } from '../api/errors.ts';
import { LIMITS } from '../api/limits.ts';
import { firstInvalidUtf8, nestsDeeperThan, openFieldAt } from './json-text.ts';

const { FST_ERR_CTP_EMPTY_JSON_BODY } = errorCodes;

export function installJsonBodyParser(app: FastifyInstance) {
  const fastifyJson = app.getDefaultJsonParser('error', 'error');
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (request, body, done) => {
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
    fastifyJson(request, text, done);
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
