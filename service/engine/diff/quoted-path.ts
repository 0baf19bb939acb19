// Git writes a path in C-style quotes when it has control characters, a double quote, a backslash
// or (with the default core.quotePath) bytes above 0x7f, which it escapes as octal: "a/\303\251t\303\251.txt".

const SIMPLE_ESCAPES: Record<string, number> = {
  a: 0x07,
  b: 0x08,
  t: 0x09,
  n: 0x0a,
  v: 0x0b,
  f: 0x0c,
  r: 0x0d,
  '"': 0x22,
  '\\': 0x5c,
};

/**
 * Reads one path token at the start of `text`: a C-quoted string or, unquoted, everything up to
 * `stopAt` (or the end). Returns the decoded path and the rest of the text after it.
 */
export function readPathToken(text: string, stopAt?: string): { path: string; rest: string } {
  if (text.startsWith('"')) {
    const end = closingQuote(text);
    if (end > 0) return { path: unquoteCPath(text.slice(0, end + 1)), rest: text.slice(end + 1) };
  }
  const stop = stopAt === undefined ? -1 : text.indexOf(stopAt);
  return stop < 0 ? { path: text, rest: '' } : { path: text.slice(0, stop), rest: text.slice(stop) };
}

/** Index of the quote that closes the C-quoted string opening at text[0], or -1. */
function closingQuote(text: string): number {
  for (let i = 1; i < text.length; i++) {
    const c = text[i];
    if (c === '\\') i++;
    else if (c === '"') return i;
  }
  return -1;
}

/** Decodes a git C-quoted path ("..." with \ooo octal byte escapes, UTF-8). Unquoted text is returned as is. */
export function unquoteCPath(quoted: string): string {
  if (!(quoted.length >= 2 && quoted.startsWith('"') && quoted.endsWith('"'))) return quoted;
  const body = quoted.slice(1, -1);
  if (!body.includes('\\')) return body;
  const bytes: number[] = [];
  let i = 0;
  while (i < body.length) {
    const slash = body.indexOf('\\', i);
    const runEnd = slash < 0 ? body.length : slash;
    if (runEnd > i) for (const b of Buffer.from(body.slice(i, runEnd), 'utf8')) bytes.push(b);
    if (slash < 0) break;
    const next = body[slash + 1] ?? '';
    const octal = /^[0-7]{3}/.exec(body.slice(slash + 1, slash + 4));
    if (octal) {
      bytes.push(parseInt(octal[0], 8));
      i = slash + 4;
    } else if (next in SIMPLE_ESCAPES) {
      bytes.push(SIMPLE_ESCAPES[next]!);
      i = slash + 2;
    } else {
      bytes.push(0x5c);
      i = slash + 1;
    }
  }
  return Buffer.from(bytes).toString('utf8');
}
