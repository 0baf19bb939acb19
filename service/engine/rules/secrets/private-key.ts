// Private-key blocks in any armour: PEM (PKCS#1/#8, EC, DSA, OpenSSH) and PGP, as files, as
// lines of a YAML block or heredoc, and inline in a string literal or JSON ("-----BEGIN …-----\n…").
import { anyFile } from '../files.ts';
import type { AddedLine, LineRule } from '../rule.ts';
import { spanOf } from '../rule.ts';

const PEM_BEGIN = /-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----/;
/**
 * A line of key material: base64 only, also quoted and concatenated ("MIIE...\n" +). The blanks
 * after it are one run with an optional `+` or `,` inside (two `\s*` side by side would try every
 * split of a long run of blanks: quadratic in the line's length).
 */
const BASE64_LINE = /^\s*["'`]?[A-Za-z0-9+/]{40,}={0,2}(?:\\n)?["'`]?\s*(?:[+,]\s*)?$/;
/**
 * Key material on the BEGIN line itself, after its escaped newline (JSON's "\\n"-joined PEM), past
 * blank lines and armour headers ("\\nVersion: …\\n\\n" in PGP). Sticky: tried once, at the BEGIN line's end.
 */
const INLINE_BODY =
  /(?:(?:\\r)?\\n){1,3}(?:[\w-]{1,40}: [^\\]{0,200}(?:\\r)?\\n){0,6}(?:(?:\\r)?\\n){0,3}[A-Za-z0-9+/]{40}/y;
/** Lines between the BEGIN line and the key material: blank lines and armour headers (Version:, Proc-Type:, DEK-Info:), also quoted. */
function isArmour(text: string): boolean {
  const bare = text.replace(/\\n|[\s"'`+]/g, '');
  return bare === '' || /^[\w-]+:/.test(bare);
}
/** How many lines below the BEGIN line the key material may start. */
const BODY_REACH = 6;

/** Key material follows the BEGIN line within BODY_REACH added lines, past blank lines and armour headers. */
function hasBodyBelow(line: AddedLine): boolean {
  for (let offset = 1; offset <= BODY_REACH; offset++) {
    const next = line.lineAt(offset);
    if (next === undefined || next.kind !== '+') return false;
    if (BASE64_LINE.test(next.text)) return true;
    if (!isArmour(next.text)) return false;
  }
  return false;
}

/** A private-key block in any armour (PKCS#1/#8, EC, OpenSSH, PGP): the BEGIN line followed by key material. */
export const noPrivateKey: LineRule = {
  kind: 'line',
  id: 'no-private-key',
  severity: 'error',
  summary: 'A private key block (-----BEGIN ... PRIVATE KEY-----) was added.',
  help: 'Remove the key from the change and replace it (it is exposed to everyone who can read the repository); load keys from a file outside the repository or a secret store.',
  message: 'A private key was added; remove it, replace the key pair, and load the key from outside the repository.',
  files: anyFile,
  keywords: ['PRIVATE KEY'],
  check(line) {
    const m = PEM_BEGIN.exec(line.text);
    if (!m) return null;
    // Key material may follow the BEGIN line on the same line (JSON's "\n"-joined PEM).
    INLINE_BODY.lastIndex = m.index + m[0].length;
    const hasBody = INLINE_BODY.test(line.text) || hasBodyBelow(line);
    return hasBody ? { ...spanOf(m), secret: { start: m.index, end: line.text.length } } : null;
  },
};
