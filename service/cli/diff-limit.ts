// The largest diff `diff-review review` reads: the whole diff is held in memory as one string and
// reviewed in one pass, which takes several times its size in memory (test/bench/README.md, figures
// behind choices in the code), and V8's longest string is about 512 MiB. The service's own limit
// (LIMITS.diffBytes) is far lower.
import { ReviewFailedError } from './exit-codes.ts';

const MAX_DIFF_BYTES = 256 * 1024 * 1024;

/** In words, for --help, the README and errors. */
export const MAX_DIFF_TEXT = '256 MiB';

/** The limit; DIFF_REVIEW_MAX_DIFF_BYTES lowers it for tests (a test need not make a 256 MiB diff). */
export function maxDiffBytes(env: NodeJS.ProcessEnv = process.env): number {
  const value = Number(env['DIFF_REVIEW_MAX_DIFF_BYTES']);
  return Number.isSafeInteger(value) && value > 0 && value < MAX_DIFF_BYTES ? value : MAX_DIFF_BYTES;
}

/** A diff over what the CLI reads in one piece: no review was done (exit 3), and the message says the limit and what to do. Not the API's DiffTooLargeError (what a client may send the service). */
export class DiffTooLargeToReadError extends ReviewFailedError {
  override name = 'DiffTooLargeToReadError';

  constructor(what: string, limit: number) {
    super(
      `${what} is larger than ${limit === MAX_DIFF_BYTES ? MAX_DIFF_TEXT : `${limit} bytes`}, the most a review reads. Review a smaller range of commits (--base), or split the diff.`,
    );
  }
}
