// Credential formats found by where they stand rather than by a prefix: a token whose mark is
// inside it (Azure AD's `8Q~`, MaxMind's `_mmk` suffix), a header or a user:password on a curl
// command line, a NuGet config's ClearTextPassword, an npm token on an .npmrc line. gitleaks' rules
// of the same ids, where gitleaks has them.
import type { CredentialFormat, LineContext } from './format.ts';
import { END, UUID_ANY_CASE } from './format.ts';
import { isPlaceholderSecret, isReference, shannonEntropy } from './placeholders.ts';

/**
 * A curl command before the match, the value passed to -H/--header or -u/--user: on the same
 * line, or on the lines a backslash continues onto it.
 */
const ON_CURL_LINE = /\bcurl\b/;
const curlBefore = (match: RegExpExecArray, context: LineContext): boolean =>
  ON_CURL_LINE.test(match.input.slice(0, match.index)) || ON_CURL_LINE.test(context.continuedFrom());

/** A value worth reporting after a header or -u: not a reference ($TOKEN), not a placeholder. */
const chosenValue = (value: string, entropy: number): boolean =>
  !isReference(value) && !isPlaceholderSecret(value) && !value.includes('$') && shannonEntropy(value) >= entropy;

/**
 * Where a curl header starts: the keywords are `-H ` and `--header`, the option that makes it a
 * header, not the header names (Authorization and Auth… start thousands of names in code).
 */
const HEADER_KEYWORDS = ['-H ', '-H\t', '-H=', '-H"', "-H'", '--header'];
/** Headers that carry a credential: `Authorization: Bearer …`, a name that ends in key, token or secret (`X-Api-Key: …`, `X-Octopus-ApiKey: …`, `Api-Token: …`). */
const CREDENTIAL_HEADER = String.raw`(?:authorization:[ \t]{0,5}(?:(?:basic|bearer|token|api-token)[ \t]{1,3})?|[\w-]{0,30}(?:key|token|secret):[ \t]{0,5})`;

const TOKEN_CHARS = '[\\w=~@.+/-]';

export const CONTEXT_FORMATS: CredentialFormat[] = [
  {
    // {3 chars}{digit}Q~{31–34 chars}: the shape of every Azure AD (Entra ID) client secret.
    id: 'azure-ad-client-secret',
    kind: 'Azure AD client secret',
    keywords: [...'0123456789'].map((digit) => `${digit}Q~`),
    back: 3,
    pattern:
      /(?<![^\\'"\x60\s>=:\x28,\x29])(?<secret>[a-zA-Z0-9_~.]{3}\dQ~[a-zA-Z0-9_~.-]{31,34})(?=$|[\\'"\x60\s<),;])/dy,
    secretGroup: 0,
    entropy: 3,
    wordStart: false,
    distinctive: true,
  },
  {
    id: 'maxmind-license-key',
    kind: 'MaxMind license key',
    keywords: ['_mmk'],
    back: 36,
    pattern: new RegExp(`(?<![A-Za-z0-9])(?<secret>[A-Za-z0-9]{6}_[A-Za-z0-9]{29}_mmk)${END}`, 'dy'),
    secretGroup: 0,
    entropy: 4,
    wordStart: false,
    distinctive: true,
  },
  {
    id: 'curl-auth-header',
    kind: 'credential in a curl header',
    keywords: HEADER_KEYWORDS,
    pattern: new RegExp(
      `(?:-H|--header)[ \\t=]{0,5}["']${CREDENTIAL_HEADER}(?<secret>${TOKEN_CHARS}{8,400})(?=["'])`,
      'dyi',
    ),
    secretGroup: 0,
    entropy: 2.75,
    wordStart: false,
    accepts: (secret, match, context) => curlBefore(match, context) && chosenValue(secret, 2.75),
  },
  {
    id: 'curl-auth-user',
    kind: 'password on a curl command line',
    keywords: [' -u ', ' -u"', " -u'", ' --user ', ' --user=', ' --user "', " --user '"],
    // user:password (the user may be empty, the password quoted on its own), or an API key given
    // as the user with an empty password (curl -u sk_live_…:), which must look random
    pattern:
      /[ \t](?:-u|--user)(?:=|[ \t]{0,5})["']?(?:[\w@.-]{0,64}:["']?(?<secret>[^\s"'$]{6,128})|(?<bare>[\w.~+/-]{16,128}):)["']?(?=\s|$)/dy,
    secretGroup: 0,
    entropy: 2.5,
    wordStart: false,
    accepts: (secret, match, context) =>
      curlBefore(match, context) && chosenValue(secret, match.groups?.['bare'] === undefined ? 2.5 : 3.5),
  },
  {
    // A SAS token's signature (base64 of an HMAC-SHA256, URL-encoded), beside the fields every SAS
    // carries: the service version (sv=YYYY-MM-DD) and its expiry, permissions or resource.
    id: 'azure-sas-token',
    kind: 'Azure shared access signature',
    keywords: ['sig='],
    pattern: /sig=(?<secret>[A-Za-z0-9%+/]{40,150}?(?:%3[Dd]|=){0,2})(?=$|[&"'`\s\\<;,)])/dy,
    secretGroup: 0,
    entropy: 3.5,
    wordStart: true,
    distinctive: true,
    accepts: (_secret, match) =>
      /\bsv=\d{4}-\d\d-\d\d\b/.test(match.input) && /\b(?:se|sp|sr|ss|srt)=/.test(match.input),
  },
  {
    // An .npmrc line written from a Dockerfile, a CI step or a script (`echo "//registry…/:_authToken=…" > .npmrc`,
    // `npm config set //…:_authToken …`): npm's legacy tokens are UUIDs, which only this name tells
    // from an id. Tokens with a prefix of their own (npm_, ghp_, glpat-) are their formats'; .npmrc
    // files themselves are secretlint's npm rule's.
    id: 'npm-registry-auth-token',
    kind: 'npm registry auth token',
    keywords: ['_authToken'],
    pattern: new RegExp(
      String.raw`_authToken(?:[ \t]{0,5}=[ \t]{0,5}|[ \t]{1,5})["']?(?<secret>(?:NpmToken\.)?${UUID_ANY_CASE})(?=\\|[^\w-]|$)`,
      'dy',
    ),
    secretGroup: 0,
    entropy: 3,
    wordStart: false,
    distinctive: true,
  },
  {
    id: 'nuget-config-password',
    kind: 'NuGet feed password',
    keywords: ['key="ClearTextPassword"', 'key="Password"', 'key="password"', 'key="cleartextpassword"'],
    pattern: /key="(?:ClearText)?Password"\s{0,5}value="(?<secret>[^"]{8,256})"/diy,
    secretGroup: 0,
    entropy: 1,
    wordStart: false,
    accepts: (secret) => !isReference(secret) && !isPlaceholderSecret(secret),
  },
];
