// Cryptography too weak for its job: fast hashes for passwords and signatures, a
// non-cryptographic random generator for secrets.
import { isSourceCode } from './files.ts';
import type { LineRule } from './rule.ts';
import { withoutComment } from './rule.ts';

const SECRET_WORDS = /passw(?:or)?d|passphrase|pwd|secret|signature|\bsign(?:ed|ing)?\b|hmac|token|credential|api_?key|session/i;

export const noWeakHash: LineRule = {
  kind: 'line',
  id: 'no-weak-hash',
  severity: 'warning',
  summary: 'MD5 or SHA-1 used for a password, token or signature.',
  help: 'Hash passwords with a password hash (argon2, scrypt, bcrypt, PBKDF2); sign and verify with HMAC-SHA-256 or a real signature scheme.',
  message: 'MD5/SHA-1 are broken for passwords and signatures; use argon2/scrypt/bcrypt for passwords and HMAC-SHA-256 or stronger for signatures.',
  files: isSourceCode,
  keywords: ['md5', 'MD5', 'sha1', 'SHA1', 'sha-1', 'SHA-1', 'Md5', 'Sha1'],
  check(line) {
    // Hash names are usually strings ("md5", 'sha1'), so read strings too, but not comments.
    const text = withoutComment(line);
    const m = /\b(?:md5|sha-?1)\b|(?<=[a-z_])(?:Md5|MD5|Sha1|SHA1)\b/i.exec(text);
    if (!m || !SECRET_WORDS.test(text)) return null;
    return { column: m.index + 1, endColumn: m.index + 1 + m[0].length };
  },
};

const RANDOM_FOR_SECRET = /token|secret|passw|nonce|salt|api_?key|\botp\b|session|csrf|uuid|guid/i;
/** Identifiers that hold ids and keys: id, userId, request_id, key, apiKey. Case matters: not "valid", "monkey". */
const ID_OR_KEY = /\b(?:id|ID|key)\b|[a-z0-9](?:Id|ID|Key)\b|_(?:id|key)\b/;

export const noInsecureRandom: LineRule = {
  kind: 'line',
  id: 'no-insecure-random',
  severity: 'warning',
  summary: 'Math.random() used for a token, secret, key, nonce or id: its output can be predicted.',
  help: 'Use crypto.randomBytes / crypto.randomUUID / crypto.getRandomValues (Python: secrets).',
  message: 'Math.random() is predictable; use crypto.randomUUID(), crypto.randomBytes() or crypto.getRandomValues() for tokens, secrets and ids.',
  files: isSourceCode,
  keywords: ['Math.random', 'random.random', 'random.randint', 'random.choice'],
  check(line) {
    const m = /\bMath\.random\s*\(\s*\)|\brandom\.(?:random|randint|choice|choices|getrandbits)\s*\(/.exec(line.code);
    if (!m || !(RANDOM_FOR_SECRET.test(line.text) || ID_OR_KEY.test(line.text))) return null;
    return { column: m.index + 1, endColumn: m.index + 1 + m[0].length };
  },
};

export const weakCryptoRules = [noWeakHash, noInsecureRandom];
