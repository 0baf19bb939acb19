// The bench's own judge of a peer value's shape: is it made up the way test material is made up,
// or could a provider have issued it? The peers' tests label many made-up values as credentials
// (shippo_live_aaaa…, 12345678-ABCD-…, sk-a1B2c3D4…, ZUfake+eKo3…), and an engine that reports
// them reports the same shapes in real code's examples and fixtures. So the figures are given
// twice: on every value as the peers label it, and on the values whose shape is real.
//
// This judge is written from its definition below, not from the engine (it imports nothing of it),
// so that it cannot agree with the engine by construction. It is deliberately narrow: a value is
// made up only for a reason a reader can check by eye, and the reason is printed beside it.

/** Words that say a value was written to stand for one (any case, anywhere in the value). */
const MARKER_WORD = /fake|example|sample|dummy|placeholder|changeme|redacted|xxxx|your_?(?:api|token|key|secret)/i;
/**
 * The same character six times in a row: QQQQQQ, 000000, aaaaaa (a random hex value of 64 has one
 * in ~18,000). A run of A is base64 for zero bytes, which real tokens carry (Twitter's bearer tokens
 * begin with 22 of them): it counts only when it is most of the value.
 */
const RUN = /(.)\1{5,}/g;
/** A chunk of 2 to 8 characters, not one character repeated, three times in a row: abc123abc123abc123, -ABCD-ABCD-ABCD. */
const REPEATED_CHUNK = /(.{2,8})\1\1/g;
/** An e-mail address, a whole value. */
const EMAIL = /^[\w.+-]+@[\w-]+(?:\.[\w-]+)+$/;
/** user:password in a URL whose user or password is the word itself. */
const WORD_CREDENTIALS = /\/\/(?:user(?:name)?|admin|test)[^:@/]*:(?:pass(?:word)?|secret|test)[^@/]*@/i;

const IN_ORDER = ['0123456789', 'abcdefghijklmnopqrstuvwxyz'];

/** `length` characters of 0-9 or a-z in order, up or down, in `view`. */
function inOrder(view: string, length: number): boolean {
  for (let i = 0; i + length <= view.length; i++) {
    const chunk = view.slice(i, i + length);
    const backwards = [...chunk].reverse().join('');
    if (IN_ORDER.some((order) => order.includes(chunk) || order.includes(backwards))) return true;
  }
  return false;
}

/**
 * Counting: five digits or letters in order, up or down (12345, abcde, 98765), or seven in the
 * letters or the digits alone of 16 characters in a row (a1B2c3D4e5F6g7 → abcdefg; abc123def456 →
 * 123456…). Seven, because a hex value's letters (a-f) cannot hold seven in order and its digits
 * seldom do; within 16, because a long random value's letters would now and then.
 */
function hasSequence(value: string): boolean {
  const lower = value.toLowerCase();
  if (inOrder(lower, 5)) return true;
  for (let from = 0; from === 0 || from + 16 <= lower.length; from++) {
    const window = lower.slice(from, from + 16);
    if (inOrder(window.replace(/[^a-z]/g, ''), 7) || inOrder(window.replace(/[^0-9]/g, ''), 7)) return true;
  }
  return false;
}

const hasRun = (value: string): boolean =>
  [...value.matchAll(RUN)].some(([run]) => run[0] !== 'A' || run.length * 2 > value.length);
const hasRepeatedChunk = (value: string): boolean =>
  [...value.matchAll(REPEATED_CHUNK)].some(([, chunk]) => new Set(chunk).size > 1);

/** Why a value is made up, or null when its shape could be a real one. */
export function madeUpBecause(value: string): string | null {
  if (MARKER_WORD.test(value)) return 'a marker word';
  if (hasRun(value)) return 'a run of one character';
  if (hasRepeatedChunk(value)) return 'a repeated chunk';
  if (hasSequence(value)) return 'a counting sequence';
  if (EMAIL.test(value)) return 'an e-mail address';
  if (WORD_CREDENTIALS.test(value)) return 'user:password words';
  return null;
}

/**
 * A text as its project wrote it (a line, a snippet) is made up when every candidate for its
 * credential is: each run of 12 or more characters between blanks, quotes and separators that mixes
 * letters and digits. A text without one is not judged (null).
 */
export function madeUpTextBecause(text: string): string | null {
  const candidates = text
    .split(/[\s"'`=,;()<>{}[\]|\\]+/)
    .filter((token) => token.length >= 12 && /\d/.test(token) && /[A-Za-z]/.test(token));
  if (candidates.length === 0) return null;
  const reasons = candidates.map(madeUpBecause);
  return reasons.every((reason) => reason !== null) ? reasons[0]! : null;
}
