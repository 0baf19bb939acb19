// Credentials known by the place they stand in, in the formats tools keep them in: a Docker
// config's `auth` (base64 of user:password), a kubeconfig's client key, .git-credentials URLs,
// and HTTP Authorization headers with a literal value (code, HTTP files, YAML, nginx). The lines
// of whole files (.pgpass) and kubeconfig users' tokens are credential-file-rules.ts. Placeholders
// (user:password, <token>, $TOKEN, xxxx) and documented samples stay quiet.
import { baseName } from '../files.ts';
import type { CredentialFormat } from './format.ts';
import { END } from './format.ts';
import { isLiveJwt } from './jwt.ts';
import { looksLikePassword, looksLikeRandomKey } from './named-values.ts';
import { isPlaceholderPair, isPlaceholderSecret, isReference } from './placeholders.ts';

/** A password someone chose or a key a tool made: not a placeholder, a default, a label or a reference. */
export function isChosenSecret(value: string): boolean {
  return !value.includes('$') && (looksLikePassword(value) || looksLikeRandomKey(value));
}

/** The user and password a base64 `user:password` holds (Basic authentication, Docker's `auth`), or null. */
export function decodeUserPassword(base64: string): { user: string; password: string } | null {
  const decoded = Buffer.from(base64, 'base64').toString('utf8');
  // Control characters or an invalid UTF-8 sequence (U+FFFD): random bytes, not text.
  if (/[\u0000-\u001f\u007f\ufffd]/.test(decoded)) return null;
  const m = /^([^:]{1,256}):(.{1,256})$/s.exec(decoded);
  return m ? { user: m[1]!, password: m[2]! } : null;
}

/** A base64 `user:password` with a password worth reporting. */
export function holdsUserPassword(base64: string): boolean {
  const pair = decodeUserPassword(base64);
  return pair !== null && !isPlaceholderPair(pair.user, pair.password) && isChosenSecret(pair.password);
}

/**
 * The scheme of an Authorization header follows the header's name: `Authorization: Bearer`,
 * `"Authorization": "Basic`, `.header("Authorization", "Bearer`, `headers['Authorization'] =
 * 'Token`, nginx's `Authorization "Basic`, a Postman collection's `"key": "Authorization", "value": "Bearer`.
 */
const BETWEEN_NAME_AND_SCHEME = /^(?:["'\x60\]\s:=,>]{0,12}|["']\s{0,3},\s{0,3}["']value["']\s{0,3}:\s{0,3}["'])$/;
function afterAuthorizationHeader(match: RegExpExecArray): boolean {
  const before = match.input.slice(Math.max(0, match.index - 60), match.index);
  const at = before.toLowerCase().lastIndexOf('authorization');
  return at >= 0 && BETWEEN_NAME_AND_SCHEME.test(before.slice(at + 'authorization'.length));
}

/** A bearer token worth reporting: random, and if it is a JWT, a well-formed one. */
export function isBearerToken(value: string): boolean {
  if (value.startsWith('eyJ') && value.split('.').length === 3) return isLiveJwt(value);
  return looksLikeRandomKey(value);
}

/** git's credential store (`git credential-store`): ~/.git-credentials. */
export const isGitCredentials = (path: string): boolean => /^\.?git-credentials$/.test(baseName(path));

export const CREDENTIAL_FILE_FORMATS: CredentialFormat[] = [
  {
    // ~/.docker/config.json, a .dockerconfigjson: "auths": { "registry": { "auth": "<base64 user:password>" } }
    id: 'docker-config-auth',
    kind: 'Docker registry password (config.json auth)',
    keywords: ['"auth"', '\\"auth\\"'],
    pattern: /\\?"auth\\?"[ \t]{0,5}:[ \t]{0,5}\\?"(?<secret>[A-Za-z0-9+/]{8,1400}={0,2})\\?"/dy,
    secretGroup: 0,
    entropy: 0,
    wordStart: false,
    distinctive: true,
    accepts: holdsUserPassword,
  },
  {
    // A kubeconfig user's client-key-data: a PEM private key, base64 ("LS0tLS1CRUdJT" is "-----BEGIN").
    id: 'kubeconfig-client-key',
    kind: 'private key in a kubeconfig (client-key-data)',
    keywords: ['client-key-data'],
    pattern:
      /client-key-data["']?[ \t]{0,5}:[ \t]{0,5}["']?(?<secret>LS0tLS1CRUdJT[A-Za-z0-9+/]{40,16000}={0,2})(?=["'\s,}\\]|$)/dy,
    secretGroup: 0,
    entropy: 0,
    wordStart: false,
    distinctive: true,
    accepts: (secret) =>
      /-----BEGIN [A-Z0-9 ]{0,30}PRIVATE KEY-----/.test(Buffer.from(secret.slice(0, 80), 'base64').toString('latin1')),
  },
  {
    // ~/.git-credentials (git's credential store): one URL a line, https://user:token@host.
    id: 'git-credentials',
    kind: 'Git credential (.git-credentials)',
    keywords: ['://'],
    follows: '@',
    pattern: /:\/\/(?<user>[^:@/\s]{1,256}):(?<secret>[^@\s/]{1,256})@[\w.-]{1,253}(?=[:/\s]|$)/dy,
    secretGroup: 0,
    entropy: 0,
    wordStart: false,
    // The file is git's credential store: what it holds is a credential, not a value by its name.
    files: (path) => isGitCredentials(path),
    accepts: (secret, match) =>
      !isPlaceholderPair(match.groups!['user']!, secret) &&
      !isReference(secret) &&
      !isPlaceholderSecret(secret) &&
      secret.length >= 6,
  },
  {
    // Authorization: Basic <base64 user:password>, anywhere a header is written with a literal value.
    id: 'authorization-basic',
    kind: 'password in an Authorization: Basic header',
    keywords: ['Basic ', 'basic ', 'BASIC '],
    pattern: /basic[ \t]{1,3}(?<secret>[A-Za-z0-9+/]{8,1400}={0,2})(?=[\s"'\x60\\,;)\]}]|$)/diy,
    secretGroup: 0,
    entropy: 0,
    wordStart: true,
    generic: true,
    accepts: (secret, match) => afterAuthorizationHeader(match) && holdsUserPassword(secret),
  },
  {
    // Authorization: Bearer <token> (and Token <token>, as Django REST framework writes it).
    id: 'authorization-bearer',
    kind: 'token in an Authorization header',
    keywords: ['Bearer ', 'bearer ', 'BEARER ', 'Token ', 'token '],
    pattern: new RegExp(`(?:bearer|token)[ \\t]{1,3}(?<secret>[\\w~+/.-]{16,4000}={0,2})${END}`, 'diy'),
    secretGroup: 0,
    entropy: 3,
    wordStart: true,
    generic: true,
    accepts: (secret, match) => afterAuthorizationHeader(match) && isBearerToken(secret),
  },
];
