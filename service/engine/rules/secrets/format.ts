// A credential format as data, in the manner of gitleaks' rules: an id, the kind of credential
// (what the message names), keywords as a cheap pre-filter, a pattern matched where a keyword
// occurs, the group that is the secret, an entropy gate and a check of its own.

export interface CredentialFormat {
  /** gitleaks' id where gitleaks has the format. */
  id: string;
  /** What the credential is, for the message: "a Twilio API key". Never the value. */
  kind: string;
  /** Case-sensitive literals of three characters or more; every match begins with one of them. */
  keywords: readonly string[];
  /**
   * Sticky ('y') with indices ('d'): matched at each occurrence of a keyword. Every quantifier is
   * bounded, so that one occurrence costs at most a few hundred steps (linear in the line).
   */
  pattern: RegExp;
  /** The capture group that is the secret (0: the whole match); a group named `secret` wins. */
  secretGroup: number;
  /** Minimum Shannon entropy of the secret, bits per character. */
  entropy: number;
  /** The keyword may not follow a letter or digit (a token's prefix starts a word). */
  wordStart: boolean;
  /**
   * A further test of the secret (a JWT's claims, the name it is assigned to, the command it is
   * an option of); false: not this credential.
   */
  accepts?: (secret: string, match: RegExpExecArray, context: LineContext) => boolean;
  /**
   * The check digits or structure the provider builds into every credential it issues
   * (checksums.ts). A value that fails it was made up or altered: not reported in documentation,
   * where it is an example; elsewhere reported, saying that its checksum does not hold.
   */
  checksum?: (secret: string) => boolean;
  /** The character before the keyword must pass this (a connection string's `;` or `?`). */
  before?: RegExp;
  /** Which files the format is looked for in (default: all the rule reads). */
  files?: (path: string) => boolean;
  /**
   * Recognised by a generic name only (password, token): not looked for in tests and fixtures,
   * whose literal credentials are test data.
   */
  generic?: boolean;
  /**
   * Recognisable by its own shape (a vendor prefix, a structure, a URL with a password), not by a
   * name it is assigned to: looked for in documentation files too (placeholders.ts).
   */
  distinctive?: boolean;
  /** Placeholders are allowed (the format has fixed runs such as AAAAAAAAAA). */
  uniformRunsAllowed?: boolean;
  /**
   * The pattern is tried this many characters before the keyword (the keyword is inside the
   * token, as Azure's `8Q~` or MaxMind's `_mmk` suffix). Default 0: at the keyword.
   */
  back?: number;
  /**
   * A literal every match has after the keyword (a URL's credentials end at "@"): a line without
   * it after the keyword is not tried, which spares the pattern most lines of a common keyword.
   */
  follows?: string;
  /**
   * The `bare` group is a value's first characters only: the value is the whole run of `chars` from
   * there (at most `max` long), which must end the line or come before a comment. Found from one
   * pass over the line (credential-rule.ts, ValueRuns), so that a line of many names to a long value
   * (TOKEN=TOKEN=…) costs what one does, not a scan of `max` characters each.
   */
  bareRun?: { chars: RegExp; max: number };
  /**
   * Values of this format known not to be secrets (gitleaks' per-rule allowlist): a secret, or
   * with `target: 'match'` the whole match, that one of these finds is not reported.
   */
  allowlist?: { regexes: readonly RegExp[]; target?: 'secret' | 'match' };
}

/** What a format's own test may ask of the lines around the one it matched on. */
export interface LineContext {
  /** The lines a shell command is continued from (each ends in a backslash), joined; '' when none. */
  continuedFrom(): string;
}

/** A line read on its own: it continues nothing. */
export const LINE_ALONE: LineContext = { continuedFrom: () => '' };

/** What may follow a secret: a quote, a separator, an escaped newline, the end of the line. */
export const END = String.raw`(?=[\x60'"\s;,)\]}>&|<]|\\[nrt]|$)`;

const uuidOf = (hex: string): string => `${hex}{8}-${hex}{4}-${hex}{4}-${hex}{4}-${hex}{12}`;
/** A UUID (8-4-4-4-12 hex digits) as a pattern's source, in lower case as providers print them. */
export const UUID = uuidOf('[0-9a-f]');
/** The same in either case. */
export const UUID_ANY_CASE = uuidOf('[0-9a-fA-F]');

/** A literal as a pattern that matches exactly it. */
export function escapeRegExp(literal: string): string {
  return literal.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

interface Options {
  entropy?: number;
  accepts?: (secret: string, match: RegExpExecArray) => boolean;
  checksum?: (secret: string) => boolean;
  /** Extra regex flags ('i'). */
  flags?: string;
  uniformRunsAllowed?: boolean;
  /** false: the prefix may follow a letter or digit. */
  wordStart?: boolean;
  allowlist?: CredentialFormat['allowlist'];
}

/**
 * A token that carries its own prefix: `ghp_…`, `xkeysib-…`. `body` is the regex source of what
 * follows the prefix (bounded quantifiers). The whole token is the secret.
 */
export function prefixed(
  id: string,
  kind: string,
  prefixes: readonly string[],
  body: string,
  options: Options = {},
): CredentialFormat {
  return {
    id,
    kind,
    keywords: prefixes,
    pattern: new RegExp(
      `(?<secret>(?:${prefixes.map(escapeRegExp).join('|')})${body})${END}`,
      `dy${options.flags ?? ''}`,
    ),
    secretGroup: 0,
    entropy: options.entropy ?? 0,
    wordStart: options.wordStart ?? true,
    distinctive: true,
    ...(options.accepts ? { accepts: options.accepts } : {}),
    ...(options.checksum ? { checksum: options.checksum } : {}),
    ...(options.uniformRunsAllowed ? { uniformRunsAllowed: true } : {}),
    ...(options.allowlist ? { allowlist: options.allowlist } : {}),
  };
}

/** lower, Capitalised and UPPER spellings: how names are written in code and config. */
export function spellings(words: readonly string[]): string[] {
  return [
    ...new Set(
      words.flatMap((w) => [w.toLowerCase(), w[0]!.toUpperCase() + w.slice(1).toLowerCase(), w.toUpperCase()]),
    ),
  ];
}

/**
 * A name this short is inside many words (lob in global and blob, etsy in Betsy): it is the
 * provider's name where a separator or the next word of a camelCase name (Api, Key, Token,
 * Secret, Password) follows it.
 */
const SHORT_NAME = 4;
const NAME_FOLLOWERS = ['_', '-', '.', '=', ':', '"', "'", ' ', 'A', 'K', 'T', 'S', 'P'];

/**
 * The keywords of a provider's name: its lower, Capitalised and UPPER spellings (discord_token,
 * discordToken, DiscordToken, DISCORD_TOKEN); a short name with what may follow it (SHORT_NAME).
 */
function nameKeywords(words: readonly string[]): string[] {
  return spellings(words).flatMap((form) =>
    form.length <= SHORT_NAME ? NAME_FOLLOWERS.map((next) => form + next) : [form],
  );
}

/** An assignment between a name and its value, as gitleaks reads it: `=`, `:`, `=>`, `:=`, `?=`, a comma (a function's argument). */
export const ASSIGNMENT = String.raw`[\w.-]{0,20}?[\s'"]{0,3}(?:=|>|:{1,3}=|\|\||:|=>|\?=|,)[\x60'"\s=]{0,5}`;

/**
 * A value with no prefix of its own, recognised by the name it is assigned to: `TWITTER_SECRET =
 * "…"`. `names` is the regex source of the provider's name (case-insensitive), `words` its
 * literal spellings (the keywords), `value` the regex source of the secret.
 */
export function named(
  id: string,
  kind: string,
  names: string,
  words: readonly string[],
  value: string,
  options: Options = {},
): CredentialFormat {
  return {
    id,
    kind,
    keywords: nameKeywords(words),
    pattern: new RegExp(`(?:${names})${ASSIGNMENT}(${value})${END}`, 'dyi'),
    secretGroup: 1,
    entropy: options.entropy ?? 3,
    wordStart: false,
    ...(options.accepts ? { accepts: options.accepts } : {}),
    ...(options.uniformRunsAllowed ? { uniformRunsAllowed: true } : {}),
    ...(options.allowlist ? { allowlist: options.allowlist } : {}),
  };
}
