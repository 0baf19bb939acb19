// Cryptography too weak for its job: fast hashes for passwords and signatures, a
// non-cryptographic random generator for secrets.
import type { SyntaxLanguage } from '../structure/languages.ts';
import { PROFILES } from '../structure/languages.ts';
import { isSourceCode, notFixture } from './files.ts';
import type { AddedLine, LanguageSyntax, LineRule } from './rule.ts';
import { isCodeAt, withoutComment, spanOf } from './rule.ts';

const SECRET_WORDS =
  /passw(?:or)?d|passphrase|pwd|secret|signature|\bsign(?:ed|ing)?\b|token|credential|api_?key|session/i;
/** HMAC with MD5 or SHA-1 is not broken (HMAC does not rest on collision resistance): not a weak use. */
const HMAC = /hmac/i;

/** Where a password is kept: a digest of MD5 or SHA-1 handed to one, however many lines after it was made. */
const PASSWORD_SINKS: LanguageSyntax = {
  sinks: [
    {
      calls: [
        '.setPassword',
        '.set_password',
        '.setPasswordHash',
        '.set_password_hash',
        '.setHashedPassword',
        '.SetPassword',
      ],
      argument: 'any',
      danger: 'weak-hash',
    },
  ],
};

export const noWeakHash: LineRule = {
  kind: 'line',
  id: 'no-weak-hash',
  severity: 'warning',
  summary: 'MD5 or SHA-1 used for a password, token or signature.',
  help: 'Hash passwords with a password hash (argon2, scrypt, bcrypt, PBKDF2); sign and verify with HMAC-SHA-256 or a real signature scheme.',
  message:
    'MD5/SHA-1 are broken for passwords and signatures; use argon2/scrypt/bcrypt for passwords and HMAC-SHA-256 or stronger for signatures.',
  files: notFixture(isSourceCode),
  keywords: ['md5', 'MD5', 'Md5', 'sha1', 'SHA1', 'Sha1', 'sha-1', 'SHA-1', 'Sha-1'],
  syntax: {
    // the line rule reads each line (a hash beside a secret's name); the syntax follows a digest to a password
    linesToo: true,
    keywords: ['setPassword', 'set_password', 'PasswordHash', 'password_hash', 'HashedPassword', 'SetPassword'],
    languages: Object.fromEntries(
      (Object.keys(PROFILES) as SyntaxLanguage[]).map((language) => [language, PASSWORD_SINKS]),
    ),
  },
  check(line) {
    // Hash names are code (hashlib.sha1, MD5.new) or strings that are just the name ('md5',
    // "RSA-SHA1"); a sentence that mentions MD5 is prose, not a use.
    const text = withoutComment(line);
    for (const m of text.matchAll(WEAK_HASH)) {
      if (!isCodeAt(line, m.index) && !isAlgorithmName(line, m.index)) continue;
      if (!SECRET_WORDS.test(text) || HMAC.test(text)) return null;
      return spanOf(m);
    }
    return null;
  },
};

const WEAK_HASH = /\b(?:md5|MD5|Md5|sha-?1|SHA-?1|Sha-?1)\b|(?<=[a-z_])(?:Md5|MD5|Sha1|SHA1)\b/g;

/** An algorithm name is at most this long: no more of the string around a match is read (linear in the line). */
const MAX_NAME = 40;

/** The string literal around `index` holds one token (an algorithm name), not words. */
function isAlgorithmName(line: AddedLine, index: number): boolean {
  // In the code view a string's content is blank and its quotes are kept.
  let open = index;
  while (open > 0 && index - open < MAX_NAME && line.code[open - 1] === ' ' && line.text[open - 1] !== ' ') open--;
  const quote = line.code[open - 1];
  if (quote !== '"' && quote !== "'" && quote !== '`') return false;
  const close = line.code.slice(index, open + MAX_NAME + 1).indexOf(quote);
  if (close < 0) return false;
  return /^[\w.-]{1,40}$/.test(line.text.slice(open, index + close));
}

const RANDOM_FOR_SECRET = /token|secret|passw|nonce|salt|api_?key|\botp\b|session|csrf|uuid|guid/i;
/** Identifiers that hold ids and keys: id, userId, request_id, key, apiKey. Case matters: not "valid", "monkey". */
const ID_OR_KEY = /\b(?:id|ID|key)\b|[a-z0-9](?:Id|ID|Key)\b|_(?:id|key)\b/;

export const noInsecureRandom: LineRule = {
  kind: 'line',
  id: 'no-insecure-random',
  severity: 'warning',
  summary: 'Math.random() used for a token, secret, key, nonce or id: its output can be predicted.',
  help: 'Use crypto.randomBytes / crypto.randomUUID / crypto.getRandomValues (Python: secrets).',
  message:
    'Math.random() is predictable; use crypto.randomUUID(), crypto.randomBytes() or crypto.getRandomValues() for tokens, secrets and ids.',
  files: notFixture(isSourceCode),
  keywords: ['Math.random', 'random.random', 'random.randint', 'random.choice', 'random.getrandbits'],
  check(line) {
    const m = /\bMath\.random\s*\(\s*\)|\brandom\.(?:random|randint|choice|choices|getrandbits)\s*\(/.exec(line.code);
    if (!m || !(RANDOM_FOR_SECRET.test(line.text) || ID_OR_KEY.test(line.text))) return null;
    return spanOf(m);
  },
};

export const weakCryptoRules = [noWeakHash, noInsecureRandom];
