// An early 413 for a create body that cannot hold a diff within the limit, found as the body
// streams in. The body limit of a create is six bytes per byte of diff (JSON may write a control
// character as `\u0001`), so a 5 MB body of plain text is under it: without this it was read
// whole before its 413. Here a running lower bound on what the body decodes to is kept, and once
// it passes diffBytes + reviewEnvelopeBytes no valid create can follow: the body is refused
// (413 diff_too_large) with most of it still unsent.
//
// The bound counts, of the raw bytes: every byte inside a JSON string except escapes, which count
// one each (`\n` is 2 bytes for 1, `\u0001` 6 for at least 1, a surrogate pair 12 for 4), and
// every byte outside strings but JSON's whitespace and punctuation (a body may be padded with
// whitespace up to the body limit; brackets nested too deep get their own 400, json-body.ts). For
// a valid body it is at most the diff's UTF-8 bytes plus its other fields, which fit in the
// envelope; text that is no JSON counts whole.
import { type Readable, Transform, type TransformCallback } from 'node:stream';
import { DiffTooLargeError } from '../api/errors.ts';
import { LIMITS } from '../api/limits.ts';

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
/** Whitespace and punctuation outside strings: ` \n\r\t{}[],:`. */
const UNCOUNTED = new Uint8Array(256);
for (const c of ' \n\r\t{}[],:') UNCOUNTED[c.charCodeAt(0)] = 1;

/** Past this bound, a create body holds no diff within the limit. */
export const CREATE_TEXT_BOUND = LIMITS.diffBytes + LIMITS.reviewEnvelopeBytes;

/** The running lower bound on the decoded size of a JSON text fed to it in pieces. */
export class DecodedSizeBound {
  /** The bound so far. */
  bytes = 0;
  #inString = false;
  /** Raw bytes of an escape still to skip (it counted one already), across pieces. */
  #skip = 0;
  /** True when the escape's letter is next: `u` makes it 4 more bytes to skip. */
  #escapeLetter = false;

  feed(chunk: Buffer): number {
    const n = chunk.length;
    // the next quote and backslash at or after i, each searched for natively and again only once passed
    let quote = -2;
    let slash = -2;
    let i = 0;
    while (i < n) {
      if (this.#escapeLetter) {
        this.#escapeLetter = false;
        this.#skip = chunk[i] === 0x75 ? 4 : 0; // \uXXXX
        i++;
      } else if (this.#skip > 0) {
        const step = Math.min(this.#skip, n - i);
        this.#skip -= step;
        i += step;
      } else if (this.#inString) {
        // the string's bytes up to its next quote or backslash count one each
        if (quote !== -1 && quote < i) quote = chunk.indexOf(QUOTE, i);
        if (slash !== -1 && slash < i) slash = chunk.indexOf(BACKSLASH, i);
        const stop = quote === -1 ? slash : slash === -1 ? quote : Math.min(quote, slash);
        if (stop === -1) {
          this.bytes += n - i;
          break;
        }
        this.bytes += stop - i;
        if (stop === quote) this.#inString = false;
        else {
          this.bytes += 1; // the escape decodes to at least one byte
          this.#escapeLetter = true;
        }
        i = stop + 1;
      } else {
        const b = chunk[i]!;
        if (b === QUOTE) this.#inString = true;
        else this.bytes += 1 - UNCOUNTED[b]!;
        i++;
      }
    }
    return this.bytes;
  }
}

/**
 * The create body as Fastify reads it (a preParsing stream): passes it on unchanged, and fails
 * with DiffTooLargeError once the bound passes `limit`. It reports the bytes it took in
 * (`receivedEncodedLength`), as Fastify asks of such a stream. A body no longer than `limit` is
 * never looked at (its bound cannot pass it; every ordinary create is one): its pieces are only
 * kept, Fastify holds them anyway, and looked at once the body grows past `limit`.
 */
export class CreateBodyBound extends Transform {
  receivedEncodedLength = 0;
  readonly #bound = new DecodedSizeBound();
  readonly #limit: number;
  /** The pieces not yet looked at, while the body is no longer than the limit. */
  #unread: Buffer[] | undefined = [];

  constructor(limit = CREATE_TEXT_BOUND) {
    super();
    this.#limit = limit;
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    this.receivedEncodedLength += chunk.length;
    if (this.#unread === undefined) this.#bound.feed(chunk);
    else {
      this.#unread.push(chunk);
      if (this.receivedEncodedLength > this.#limit) {
        for (const piece of this.#unread) this.#bound.feed(piece);
        this.#unread = undefined;
      }
    }
    if (this.#bound.bytes > this.#limit) callback(new DiffTooLargeError());
    else callback(null, chunk);
  }
}

/**
 * The bound over a create's body, which starts taking the body in only once Fastify reads it:
 * piped at once, it would hold a body nobody reads (a create refused by the rate limit before its
 * body is parsed) where Node would otherwise read and drop it, and the connection would stall.
 */
export function boundCreateBody(body: Readable, limit = CREATE_TEXT_BOUND): CreateBodyBound {
  const bound = new CreateBodyBound(limit);
  bound.once('resume', () => {
    // pipe() does not pass a failure on: a client that gives up midway (an error, or a close
    // before the end) must end the parse too, not leave it waiting. Only while piped: after a 413
    // the rest of the body is drained, and its end is no business of the bound's.
    const fail = (error?: Error) => {
      if (!body.readableEnded) bound.destroy(error ?? new Error('The request body ended before it was complete.'));
    };
    body.once('error', fail);
    body.once('close', fail);
    bound.once('unpipe', () => {
      body.off('error', fail);
      body.off('close', fail);
    });
    body.pipe(bound);
  });
  return bound;
}
