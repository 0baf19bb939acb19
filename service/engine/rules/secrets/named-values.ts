// Credentials with no shape of their own, recognised by what they are assigned to: a password,
// secret, token or API key with a literal value (quoted in code; also bare in YAML, properties,
// TOML, INI and .env files), a connection string's `Password=` / `password=` parameter, a URL
// with an empty user name and a password (redis://:pw@host). Precision first: the name must end
// in the credential word, and the value must look chosen or random, not like a label, a path,
// an identifier or a placeholder.
import { isDockerfile, lastPathMemo } from '../files.ts';
import type { CredentialFormat } from './format.ts';
import { spellings, UUID } from './format.ts';
import { isLiveJwt } from './jwt.ts';
import { isPlaceholderSecret, isReference, shannonEntropy } from './placeholders.ts';

/**
 * Files whose values are written bare: `password: hunter22`, `db.password=...`, and shell
 * scripts and Dockerfiles (`export API_TOKEN=…`, `ENV API_KEY=…`), where a value runs to the end
 * of the line or a comment.
 */
export const isConfigFile = lastPathMemo(
  (path: string): boolean =>
    // .txt and .log: notes and logs (a prose .txt is documentation, where names are not read)
    /\.(ya?ml|properties|toml|ini|cfg|conf|env|sh|bash|zsh|txt|log)$/i.test(path) ||
    /(^|\/)\.env(\.[\w-]+)?$/.test(path) ||
    /(^|\/)\.?(npmrc|pypirc|netrc|envrc)$/.test(path) ||
    isDockerfile(path),
);

/** Between the name and the value: `=`, `:`, `=>`, `:=`, `?=`, with the name's closing quote. */
const ASSIGN = String.raw`["']?[ \t]{0,3}(?:=|:|=>|:=|\?=)[ \t]{0,3}`;

/** What a value may be: its characters in code and in config files, its length, a scheme a quoted one may start with. */
interface ValueShape {
  inCode: string;
  /** In config files, quoted or bare. */
  inConfig: string;
  min: number;
  max: number;
  scheme?: string;
  /**
   * The bare value is read as a run of these characters (format.ts, bareRun), for values this long:
   * one RegExp shared by the formats, whose runs one table per line holds.
   */
  run?: RegExp;
}

/**
 * A quoted value (any file), or in config files a bare one up to the end of the line or a comment.
 * The bare value is its own group (`bare`): a name used twice in one pattern needs Node 23+.
 */
function valueIn(shape: ValueShape, bare: boolean): string {
  const { min, max } = shape;
  const chars = bare ? shape.inConfig : shape.inCode;
  const quoted = String.raw`(?<q>["'\x60])${shape.scheme ?? ''}(?<secret>${chars}{${min},${max}})\k<q>`;
  if (!bare) return quoted;
  if (shape.run) return `(?:${quoted}|(?<bare>${chars}{${min}}))`;
  return String.raw`(?:${quoted}|(?<bare>${chars}{${min},${max}})(?=[ \t]*(?:[#;].*)?$))`;
}

/** What may follow the credential word in the name: `SECRET_KEY`, `apiKeyValue`, `TOKEN_SECRET`. */
const TAIL_WORDS = 'key|secret|token|value|str|string|b64|base64|hex|raw|plain|live|prod|production';
const NAME_TAIL = new RegExp(`^(?:[_.-]?(?:${TAIL_WORDS}))*$`, 'i');
/** The same in a pattern, so that a name that goes on (cache_key_3, tokenizer) fails there, before a value is read. */
const NAME_TAIL_IN_PATTERN = `(?<tail>(?:[_.-]?(?:${TAIL_WORDS})){0,4})`;

/** Values that are defaults, labels and words, not chosen passwords. */
const WEAK_WORDS =
  /pass(?:wd|word)?|secret|admin|root|guest|demo|default|letmein|welcome|qwerty|test|user|login|token|null|none|undefined|true|false|required|optional|string/i;

/**
 * Words or numbers joined by - _ . (a word may end in digits: oauth2, v1): an identifier, a file
 * name, a key of a message catalogue. A random key's segments mix digits into letters (usa87a).
 */
const SLUG = /^(?:[a-z]+\d*|[A-Z]+\d*|\d+)(?:[-_.](?:[a-z]+\d*|[A-Z]+\d*|\d+))+$/;

function nameTailOf(match: RegExpExecArray): string {
  return match.groups?.['tail'] ?? '';
}

/** A chosen password: long enough, not a word list default, a placeholder, a label or a format string. */
export function looksLikePassword(value: string): boolean {
  if (
    value.length < 8 ||
    isReference(value) ||
    isPlaceholderSecret(value) ||
    WEAK_WORDS.test(value) ||
    SLUG.test(value)
  )
    return false;
  if (/%[sd]|\{\d*\}|:\/\/|^\.{0,2}\//.test(value)) return false;
  // a list of names (flag-a,flag-b): settings, not a password
  if (value.includes(',') && value.split(',').every((part) => /^\s*[a-z]+\s*$/i.test(part) || SLUG.test(part.trim())))
    return false;
  const letters = /[A-Za-z]/.test(value);
  const others = /[^A-Za-z_.-]/.test(value);
  return letters && others && shannonEntropy(value) >= 2.8;
}

/**
 * Letters drawn at random, with no digit among them (a random 22-character key of letters and digits
 * has none about 1 time in 50):
 * both cases mixed throughout, and few vowels, which words (camelCase names, phrases) are full of.
 */
function looksLikeRandomLetters(value: string): boolean {
  if (value.length < 20 || !/^[A-Za-z]+(?:[_-][A-Za-z]+)*$/.test(value)) return false;
  const letters = value.replace(/[_-]/g, '');
  const upper = letters.replace(/[^A-Z]/g, '').length;
  if (upper < letters.length * 0.25 || upper > letters.length * 0.75) return false;
  const vowels = letters.replace(/[^aeiouAEIOU]/g, '').length;
  return vowels <= letters.length * 0.28 && shannonEntropy(letters) >= 3.9;
}

/**
 * A path of resources: three or more segments, most of them words or numbers
 * (projects/123/secrets/db-key/versions/1, a KMS key's name), where base64's segments are random.
 */
function looksLikeResourcePath(value: string): boolean {
  const segments = value.split('/');
  return (
    segments.length >= 3 &&
    segments.filter((s) => /^[a-z0-9]+(?:[-_.][a-z0-9]+)*$/.test(s)).length * 2 >= segments.length
  );
}

/** A random key or token: digits and letters, high entropy (lower for hex, which has 16 symbols). */
export function looksLikeRandomKey(value: string): boolean {
  if (isReference(value) || isPlaceholderSecret(value) || SLUG.test(value) || looksLikeResourcePath(value))
    return false;
  if (/%[sd]|\{\d*\}|\$\{|:\/\/|^\.{0,2}\/|^[\w-]+\(/.test(value)) return false;
  if (!/[A-Za-z]/.test(value)) return false;
  if (!/\d/.test(value)) return looksLikeRandomLetters(value);
  // a JWT by name (an access, id or session token): only a well-formed one that has not expired
  if (/^eyJ[\w-]+\.[\w-]*\.[\w-]*$/.test(value)) return isLiveJwt(value);
  if (/^[\w-]+(?:\.[\w-]+){2,}$/.test(value) && !/\d.*[A-Z]|[A-Z].*\d/.test(value)) return false; // a dotted name
  if (/^[a-z]+\.[a-z]+\.[\w.-]+$/.test(value)) return false; // a qualified name: jakarta.servlet.request.X509Certificate
  const entropy = shannonEntropy(value);
  return /^[a-f0-9-]+$/i.test(value) ? value.replace(/-/g, '').length >= 32 && entropy >= 3 : entropy >= 3.5;
}

const PASSWORD_WORDS = ['password', 'passwd'];
const KEY_WORDS = [
  'secret',
  'credential',
  'token',
  'api_key',
  'api-key',
  'apikey',
  'access_key',
  'access-key',
  'auth_key',
  'private_key',
];
/**
 * The names' spellings, as keywords. Config files get every spelling of every name. In code,
 * "token", "Secret", "accessKey" and "privateKey" are everywhere (parsers, SDKs, key handling):
 * there lower_case and UPPER_CASE names are keywords as they are (password =, API_KEY =), and
 * "token" and camelCase names (clientSecret, dbPassword, apiKey) only with the start of an
 * object's literal value or a literal assignment after them (`Token: "`, `"clientSecret": "`,
 * `token = "`).
 */
const KEY_KEYWORDS = [
  ...spellings(KEY_WORDS),
  ...spellings(['secret_key']),
  'apiKey',
  'ApiKey',
  'accessKey',
  'AccessKey',
  'authKey',
  'AuthKey',
  'privateKey',
  'PrivateKey',
  'secretKey',
  'SecretKey',
];
const PASSWORD_KEYWORDS = spellings(PASSWORD_WORDS);
const isCamel = (word: string): boolean => /[A-Z]/.test(word) && /[a-z]/.test(word);
/** An object's literal value, or a literal assigned to the name (const clientSecret = "…", Go's secret := "…"). */
const OBJECT_VALUES = [': "', ": '", '": "', "': '", ' = "', " = '", ' := "'];
/** Capitalised words joined by a separator (Access_key, Api-key): nobody's spelling. */
const isOddSpelling = (word: string): boolean => /[_-]/.test(word) && /[A-Z]/.test(word) && /[a-z]/.test(word);
const inCode = (keywords: readonly string[]): string[] =>
  keywords.flatMap((keyword) => {
    if (isOddSpelling(keyword)) return [];
    if (keyword === 'TOKEN' || !(isCamel(keyword) || keyword === 'token')) return [keyword];
    return OBJECT_VALUES.map((value) => keyword + value);
  });
const KEY_KEYWORDS_IN_CODE = inCode(KEY_KEYWORDS);
const PASSWORD_KEYWORDS_IN_CODE = inCode(PASSWORD_KEYWORDS);
const KEY_NAMES = '(?:secret|credentials?|token|api[_-]?key|access[_-]?key|auth[_-]?key|private[_-]?key)';

/** Query parameters that carry a credential (a name that ends in one of the key words). */
const QUERY_NAMES = [
  'client_secret',
  'api_key',
  'apikey',
  'api-key',
  'access_key',
  'secret',
  'secret_key',
  'auth_token',
];

/** A query value as sent (%2B for +): judged decoded. */
function decodeQueryValue(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

/** Tokens that are public by design, whatever name they are given (gitleaks' allowlists have them too). */
export const PUBLIC_VALUES: CredentialFormat['allowlist'] = {
  regexes: [
    /^pub[0-9a-f]{32}$/, // a Datadog browser client token
    /^pk\.eyJ[\w.-]+$/, // a Mapbox public token
    /^pk_(?:live|test)_\w+$/, // a Stripe publishable key
  ],
};

/**
 * The name says the value is public: publicToken, PUBLISHABLE_KEY, NEXT_PUBLIC_API_KEY (Next.js
 * puts NEXT_PUBLIC_ values in the page), VITE_… does not say it, so it is read.
 */
function isPublicName(match: RegExpExecArray): boolean {
  return /(?:public|publishable)[\w.-]{0,12}$/i.test(match.input.slice(Math.max(0, match.index - 24), match.index));
}

/** A value known by its name: the name ends in the credential word, says nothing public, and the value passes `accepts`. */
const byName =
  (accepts: (secret: string, match: RegExpExecArray) => boolean) =>
  (secret: string, match: RegExpExecArray): boolean =>
    NAME_TAIL.test(nameTailOf(match)) && !isPublicName(match) && accepts(secret, match);

function generic(
  id: string,
  kind: string,
  keywords: readonly string[],
  names: string,
  value: ValueShape,
  accepts: (secret: string, match: RegExpExecArray) => boolean,
  bare: boolean,
): CredentialFormat {
  return {
    id: bare ? `${id}-config` : id,
    kind,
    keywords,
    pattern: new RegExp(`${names}${NAME_TAIL_IN_PATTERN}${ASSIGN}${valueIn(value, bare)}`, 'dyi'),
    ...(bare && value.run ? { bareRun: { chars: value.run, max: value.max } } : {}),
    secretGroup: 0,
    entropy: 0,
    wordStart: false,
    generic: true,
    files: bare ? isConfigFile : (path) => !isConfigFile(path),
    accepts: byName(accepts),
    allowlist: PUBLIC_VALUES,
  };
}

const passwordValue: ValueShape = {
  inCode: String.raw`[^"'\x60\s]`,
  inConfig: String.raw`[^"'\x60\s]`,
  min: 6,
  max: 128,
};
const KEY_CHARS = /[\w+/=.~-]/;
const keyValue: ValueShape = {
  inCode: String.raw`[^"'\x60\s]`,
  inConfig: KEY_CHARS.source,
  min: 16,
  // up to 4,096 characters: JWTs and cloud session tokens are long
  max: 4096,
  // a quoted token may carry its Authorization scheme: authToken = "Bearer …"
  scheme: '(?:(?:bearer|token|basic) )?',
  run: KEY_CHARS,
};

/**
 * Words in a name that ends in key which say the key finds or names a thing, or is public by
 * design, or is made up: cache_key, primaryKey, SORT_KEY, GPG_KEY (a fingerprint), site_key
 * (reCAPTCHA's public half), search, query and client keys (handed to browsers), dummy_key.
 */
const NOT_A_SECRET_KEY = new Set(
  [
    'public publishable pub site cache cached primary foreign sort partition range hash row shard index',
    'idempotency dedup dedupe lookup map dict object bucket s3 i18n translation locale message msg label',
    'gpg pgp ssh fingerprint group cursor search query unique composite client',
    'example sample dummy fake mock placeholder',
  ]
    .join(' ')
    .split(' '),
);

const NAME_CHARS = /[\w.-]/;

/** Where the name that ends at `end` starts: the run of a name's characters (`chars`) before it. */
export function nameStart(input: string, end: number, chars = NAME_CHARS): number {
  let start = end;
  while (start > 0 && chars.test(input[start - 1]!)) start--;
  return start;
}

/**
 * A key named after what it opens (CENSYS_KEY, stripeKey, azure_storage_key): `key` ends a name of
 * more words (after _ . - or, as Key, after a lower-case letter or digit: monkey and MONKEY are
 * words), none of which says the key is a lookup's or public.
 */
function isServiceKeyName(match: RegExpExecArray): boolean {
  const before = match.input.slice(nameStart(match.input, match.index), match.index);
  const last = before.at(-1);
  if (last === undefined || !(/[_.-]/.test(last) || (match[0].startsWith('Key') && /[a-z0-9]/.test(last))))
    return false;
  const words = before
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[\s_.-]+/)
    .filter(Boolean);
  return words.length > 0 && !words.some((word) => NOT_A_SECRET_KEY.has(word));
}

/** A UUID more often names a thing (a tenant, a correlation) than opens it. */
const WHOLE_UUID = new RegExp(`^${UUID}$`, 'i');

/** A service's key: 20 characters or more, random, not a UUID. */
const looksLikeServiceKey = (value: string, match: RegExpExecArray): boolean =>
  value.length >= 20 && !WHOLE_UUID.test(value) && isServiceKeyName(match) && looksLikeRandomKey(value);

export const NAMED_VALUES: CredentialFormat[] = [
  ...[false, true].flatMap((bare) => [
    generic(
      'generic-password',
      'password',
      bare ? PASSWORD_KEYWORDS : PASSWORD_KEYWORDS_IN_CODE,
      'passw(?:or)?d',
      passwordValue,
      looksLikePassword,
      bare,
    ),
    generic(
      'generic-api-key',
      'secret, token or API key',
      bare ? KEY_KEYWORDS : KEY_KEYWORDS_IN_CODE,
      KEY_NAMES,
      keyValue,
      looksLikeRandomKey,
      bare,
    ),
    generic(
      'service-key',
      'key named after a service',
      bare ? spellings(['key']) : inCode(spellings(['key'])),
      'key',
      keyValue,
      looksLikeServiceKey,
      bare,
    ),
  ]),
  {
    // JDBC (…?user=app&password=…), ADO.NET (…;Password=…;), ODBC (…;PWD=…;).
    id: 'connection-string-password',
    kind: 'password in a connection string',
    keywords: [
      ...spellings(['password=']),
      ...[';', '&', '?', ' ', '"', "'"].flatMap((before) => ['pwd=', 'Pwd=', 'PWD='].map((pwd) => before + pwd)),
    ],
    // A parameter of a connection string (after ; & ? a quote or a space) or a --password= flag;
    // not a name that ends in password (DB_PASSWORD=, a variable: the generic rules' "password").
    pattern: /(?:[;&? "']|(?<=[;&?"' ]|--))(?:password|pwd)=(?<secret>[^;&\s'"\x60]{6,128})(?=[;&'"\x60\s]|$)/diy,
    secretGroup: 0,
    entropy: 0,
    wordStart: false,
    generic: true,
    accepts: looksLikePassword,
  },
  {
    // A URL's query parameter: …/oauth/access_token?client_id=…&client_secret=…, ?api_key=….
    id: 'url-query-credential',
    kind: 'secret, token or API key in a URL',
    keywords: QUERY_NAMES.flatMap((name) => [`?${name}=`, `&${name}=`]),
    pattern: new RegExp(`[?&](?:${QUERY_NAMES.join('|')})=(?<secret>[\\w.~%+/-]{16,512})(?=[&#"'\x60\\s<)]|$)`, 'dy'),
    secretGroup: 0,
    entropy: 0,
    wordStart: false,
    generic: true,
    accepts: (secret) => looksLikeRandomKey(decodeQueryValue(secret)),
  },
  {
    // An Android string resource (res/values/strings.xml): <string name="stripe_secret_key">…</string>.
    id: 'android-string-credential',
    kind: 'secret, token or API key in a string resource',
    keywords: ['<string name="'],
    pattern: new RegExp(
      `<string name="[\\w.]{0,60}?${KEY_NAMES}(?<tail>[\\w.]{0,24}?)"[^>]{0,100}>(?<secret>[^<\\s]{16,512})</string>`,
      'diy',
    ),
    secretGroup: 0,
    entropy: 0,
    wordStart: false,
    generic: true,
    accepts: byName(looksLikeRandomKey),
    allowlist: PUBLIC_VALUES,
  },
  {
    // .netrc: `machine host login user password value`, no = or :.
    id: 'netrc-password',
    kind: 'password',
    keywords: ['password'],
    pattern: /password[ \t]+(?<secret>[^\s"'\x60]{6,128})(?=\s|$)/dy,
    secretGroup: 0,
    entropy: 0,
    wordStart: true,
    generic: true,
    files: (path) => /(^|\/)[._]netrc$/.test(path),
    accepts: looksLikePassword,
  },
  {
    // A URL of any scheme with a user and a password: databases, caches, queues, SQLAlchemy's
    // dialect+driver (postgresql+psycopg2://), https to an internal host (secretlint's basic-auth
    // rule reads only hosts with a public suffix). Tried at each "://", the scheme read backwards.
    id: 'url-credentials',
    kind: 'password in a connection URL',
    keywords: ['://'],
    follows: '@',
    pattern:
      /(?<=[A-Za-z][A-Za-z0-9+.-]{1,30}):\/\/(?<user>[^:@/\s'"\x60]{0,64}):(?<secret>[^@\s/'"\x60]{3,128})@[\w.-]{1,253}(?=[:/?#'"\x60\s]|$)/dy,
    secretGroup: 0,
    entropy: 0,
    wordStart: false,
    distinctive: true,
    // Connection strings in tests point at test databases.
    generic: true,
    accepts: looksLikePassword,
  },
];
