// What is not a secret although it looks like one: placeholders (xxxx, <token>, changeme, EXAMPLE),
// references to where the secret really lives (${VAR}, {{ secrets.X }}, process.env), values
// too uniform to be random, and the files where values are examples by design.
import { baseName, lastPathMemo } from '../files.ts';

/** Shannon entropy of the characters of `value`, in bits per character. */
export function shannonEntropy(value: string): number {
  if (value.length === 0) return 0;
  const counts = new Map<string, number>();
  for (const c of value) counts.set(c, (counts.get(c) ?? 0) + 1);
  let bits = 0;
  for (const count of counts.values()) {
    const p = count / value.length;
    bits -= p * Math.log2(p);
  }
  return bits;
}

/** Words people put where a credential goes in examples and templates. */
const PLACEHOLDER_WORDS =
  /example|sample|dummy|fake|changeme|change[_-]me|placeholder|redacted|replace[_-]?me|your[_-]|insert[_-]|xxxx|\*\*\*|\.\.\.|…|<[^>]*>|\[[^\]]*\]/i;
/**
 * The same, each occurrence. In a value longer than 128 characters (a key's base64, a long JWT) a
 * four-letter word turns up by chance (fake or xxxx: one in 300 of 1,200 random base64
 * characters), so there a placeholder says its word twice (EXAMPLEEXAMPLE…).
 */
const PLACEHOLDER_WORDS_EACH = new RegExp(PLACEHOLDER_WORDS.source, 'gi');
const hasPlaceholderWords = (value: string): boolean =>
  value.length > 128 ? (value.match(PLACEHOLDER_WORDS_EACH)?.length ?? 0) >= 2 : PLACEHOLDER_WORDS.test(value);
/** A run of one character, or a counting run, that random data has next to never. */
const UNIFORM_RUN = /(.)\1{5}|012345|123456|234567|345678|456789|abcdef|ABCDEF|qwerty/;

/** A unit of one to four characters repeated over the whole value: 1234…1234, abcdabcd…, abab…. */
const PERIODIC = /^(.{1,4})\1+$/s;

/**
 * The token's body repeats a short unit (ghp_1234…1234, sk_live_abcdabcd…): the part after its
 * last separator (`_`, `-`, `.`), or the whole value, eight characters or more.
 */
export function isPeriodic(value: string): boolean {
  let from = 0;
  for (let i = value.length - 1; i >= 0; i--) {
    const c = value[i];
    if (c === '_' || c === '-' || c === '.') {
      from = i + 1;
      break;
    }
  }
  const body = value.length - from >= 8 ? value.slice(from) : value;
  return body.length >= 8 && PERIODIC.test(body);
}

const ALPHABET = 'abcdefghijklmnopqrstuvwxyz';
const DIGITS = '0123456789';
/** How many characters in order make a count, and within how many of the value they must stand. */
const COUNT = 7;
const COUNT_SPAN = 14;

/**
 * The characters of `value` that are in `order`, seven of them counting up or down in a row of
 * the value no longer than 14 (a1B2c3D4e5F6g7: its letters; abc123def456ghi789: its digits too).
 */
function countsInTurns(value: string, order: string): boolean {
  const chars: string[] = [];
  const at: number[] = [];
  for (let i = 0; i < value.length; i++) {
    if (order.includes(value[i]!)) {
      chars.push(value[i]!);
      at.push(i);
    }
  }
  for (let i = 0; i + COUNT <= chars.length; i++) {
    if (at[i + COUNT - 1]! - at[i]! >= COUNT_SPAN) continue;
    const from = order.indexOf(chars[i]!);
    let up = true;
    let down = true;
    for (let k = 1; k < COUNT && (up || down); k++) {
      up &&= chars[i + k] === order[from + k];
      down &&= from - k >= 0 && chars[i + k] === order[from - k];
    }
    if (up || down) return true;
  }
  return false;
}

/**
 * Letters and digits counted in turns (a1B2c3D4e5F6g7, abc123def456ghi789, 1a2b3c4d5e6f7a8b, z9y8x7w6):
 * its letters or its digits count seven in a row, close together. A hex value's letters cannot (a-f
 * is six); a random value's next to never (the count must stand within 14 characters).
 */
function isInterleavedCount(value: string): boolean {
  // typed by hand, so short; a longer value (a key's base64, a long JWT) is made by a machine
  if (value.length > 128) return false;
  const lower = value.toLowerCase();
  return countsInTurns(lower, ALPHABET) || countsInTurns(lower, DIGITS);
}

/** The value is a placeholder or too uniform to be a real secret (its own entropy gate aside). */
export function isPlaceholderSecret(value: string): boolean {
  if (hasPlaceholderWords(value) || UNIFORM_RUN.test(value) || isPeriodic(value) || isInterleavedCount(value))
    return true;
  // Four or fewer distinct characters over 12 or more: a pattern, not a key.
  return value.length >= 12 && new Set(value).size <= 4;
}

/**
 * Credentials published in a standard's or a provider's documentation, the same for everyone who
 * copies them (AWS's carry EXAMPLE and are placeholders already): not secrets.
 */
const DOCUMENTED_SAMPLES: ReadonlySet<string> = new Set([
  // RFC 7617 (HTTP Basic authentication), section 2: Aladdin's "open sesame".
  'QWxhZGRpbjpvcGVuIHNlc2FtZQ==',
  // The token jwt.io's debugger opens with (HS256, "John Doe", secret "your-256-bit-secret").
  'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4gRG9lIiwiaWF0IjoxNTE2MjM5MDIyfQ.SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c',
  // The test-mode key of Stripe's API reference, shown to every visitor.
  'sk_test_4eC39HqLyjWDarjtT1zdp7dc',
  // The API keys of the Firebase SDKs' own test configurations (firebase-android-sdk, and the
  // FlutterFire and other ports that copy them): in every checkout of those projects.
  ...[
    'AIzaSyAnLA7NfeLquW1tJFpx_eQCxoX-oo6YyIs',
    'AIzaSyCkEhVjf3pduRDt6d1yKOMitrUEke8agEM',
    'AIzaSyDMAScliyLx7F0NPDEJi1QmyCgHIAODrlU',
    'AIzaSyD3asb-2pEZVqMkmL6M9N6nHZRR_znhrh0',
    'AIzayDNSXIbFmlXbIE6mCzDLQAqITYefhixbX4A',
    'AIzaSyAdOS2zB6NCsk1pCdZ4-P6GBdi_UUPwX7c',
    'AIzaSyASWm6HmTMdYWpgMnjRBjxcQ9CKctWmLd4',
    'AIzaSyANUvH9H9BsUccjsu2pCmEkOPjjaXeDQgY',
    'AIzaSyA5_iVawFQ8ABuTZNUdcwERLJv_a_p4wtM',
    'AIzaSyA4UrcGxgwQFTfaI3no3t7Lt1sjmdnP5sQ',
    'AIzaSyDSb51JiIcB6OJpwwMicseKRhhrOq1cS7g',
    'AIzaSyBF2RrAIm4a0mO64EShQfqfd2AFnzAvvuU',
    'AIzaSyBcE-OOIbhjyR83gm4r2MFCu4MJmprNXsw',
    'AIzaSyB8qGxt4ec15vitgn44duC5ucxaOi4FmqE',
    'AIzaSyA8vmApnrHNFE0bApF4hoZ11srVL_n0nvY',
  ],
]);

/** A credential published in documentation for everyone to copy (DOCUMENTED_SAMPLES). */
export function isDocumentedSample(value: string): boolean {
  return DOCUMENTED_SAMPLES.has(value);
}

/** The value names where the secret lives instead of holding it. */
const REFERENCE =
  /^(?:\$\{?[\w.]+\}?|\$\{\{.*\}\}|\{\{.*\}\}|%[\w.]+%|%\([\w.]+\)s|@[\w.]+@|ENV\[|os\.environ|os\.getenv|process\.env|System\.getenv|secretKeyRef|vault:|arn:aws:secretsmanager:|!Ref\b|!Sub\b)/;

export function isReference(value: string): boolean {
  return REFERENCE.test(value);
}

/** Templates (.example, .sample, .template, .tpl, .dist): their values are examples by design. */
export const isTemplate = lastPathMemo((path: string): boolean =>
  /\.(example|sample|template|tmpl|tpl|dist)(\.\w+)?$/.test(baseName(path).toLowerCase()),
);

/**
 * Documentation: Markdown, reStructuredText, AsciiDoc, notebooks (.ipynb), and prose .txt (README,
 * CHANGELOG, … or under docs/). Their values are mostly examples: only credentials with a shape of
 * their own (a vendor prefix, a key block, a URL with a password) are looked for there, never
 * values recognised by a name alone.
 */
export const isDocumentation = lastPathMemo((path: string): boolean => {
  const name = baseName(path).toLowerCase();
  return (
    /\.(md|mdx|markdown|rst|adoc|asciidoc|ipynb)$/.test(name) ||
    // A .txt file is prose where it is named or kept as such; elsewhere (deploy/token.txt) it is read.
    (name.endsWith('.txt') &&
      (/^(readme|changelog|changes|history|license|licence|notice|authors|contributing|copying|news)\b/.test(name) ||
        /(^|\/)docs?\//i.test(path)))
  );
});

/** Templates and documentation: what the rules that read values by their name (a Kubernetes Secret's data) leave alone. */
export const isTemplateOrDoc = (path: string): boolean => isTemplate(path) || isDocumentation(path);

/** A name assigned to, that says its value is not real: FAKE_TOKEN =, dummyKey:, exampleSecret =, "mockCredentials":. */
const ASSIGNED_NAME = /(?<!\w)(\w+)["']?\s*[:=]/g;
const FAKE_WORD = /fake|dummy|mock|example|sample|placeholder/i;

/**
 * Where the first fake-sounding assigned name on the line ends (Infinity if none): a secret after
 * it is test data. One pass: names start only at word starts.
 */
export function fakeNameEnd(text: string): number {
  for (const m of text.matchAll(ASSIGNED_NAME)) if (FAKE_WORD.test(m[1]!)) return m.index + m[0].length;
  return Number.POSITIVE_INFINITY;
}

/**
 * The secret is part of source code quoted in a string ('aws_secret_access_key = "..."' as the
 * input of a test): one of the quotes around or inside it is itself inside a string. In tests
 * and fixtures that is test data, not a credential in use.
 */
export function isQuotedSource(text: string, code: string, from: number, to: number): boolean {
  for (let i = Math.max(0, from - 1); i < to; i++) {
    const c = text[i];
    if ((c === '"' || c === "'" || c === '`') && code[i] === ' ') return true;
  }
  return false;
}

/** Words people put in example URLs (https://user:token@host): not credentials. */
const PLACEHOLDERS = new Set([
  'user',
  'username',
  'name',
  'login',
  'token',
  'pass',
  'password',
  'passwd',
  'pwd',
  'secret',
  'key',
  'apikey',
  'pat',
  'oauth2',
  'x-access-token',
  'foo',
  'bar',
  'baz',
  'alice',
  'bob',
  'example',
  'test',
  'changeme',
  'hunter2',
]);

/** user:password@ in a URL where the user is a placeholder and the password is one too, or too short to be a real one. */
export function isPlaceholderCredential(matched: string): boolean {
  const m = /:\/\/([^:/\s@]+):([^@/\s]+)@/.exec(matched);
  return m !== null && isPlaceholderPair(m[1]!, m[2]!);
}

/** A user and password that are placeholder words (user:password, admin:secret), or a placeholder user with a short password. */
export function isPlaceholderPair(user: string, password: string): boolean {
  const lowerPassword = password.toLowerCase();
  return PLACEHOLDERS.has(user.toLowerCase()) && (PLACEHOLDERS.has(lowerPassword) || lowerPassword.length < 8);
}
