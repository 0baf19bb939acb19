// The credential formats as one line rule, part of the `secret` rule (the same id as the
// secretlint scan: one finding per line, one switch in the configuration). One pass of one
// regular expression finds the formats' keywords on a line; each occurrence is tried against
// the formats that have that keyword, by a sticky pattern of bounded length.
import { isFixture, isTestFile } from '../files.ts';
import type { AddedLine, LineMatch, LineRule } from '../rule.ts';
import { type CredentialFormat, escapeRegExp, LINE_ALONE, type LineContext } from './format.ts';
import { CREDENTIAL_FORMATS } from './formats.ts';
import {
  fakeNameEnd,
  isDocumentedSample,
  isPlaceholderSecret,
  isQuotedSource,
  isReference,
  isDocumentation,
  isTemplate,
  shannonEntropy,
} from './placeholders.ts';

export const SECRET_RULE_ID = 'secret';
export const SECRET_SUMMARY = 'A credential (API token, access key, password, private key material) was added.';
export const SECRET_HELP =
  'Remove the secret from the change and rotate it: it is exposed to everyone who can read the repository. Load secrets from the environment or a secret store.';

/** The formats by keyword, longest keyword first in the finder (the longer one of two at one place is the more specific). */
function formatsByKeyword(formats: readonly CredentialFormat[]): Map<string, CredentialFormat[]> {
  const map = new Map<string, CredentialFormat[]>();
  for (const format of formats) {
    for (const keyword of format.keywords) {
      if (keyword.length < 3)
        throw new Error(`credential format ${format.id}: keyword "${keyword}" is shorter than three characters`);
      const list = map.get(keyword);
      if (list) list.push(format);
      else map.set(keyword, [format]);
    }
  }
  return map;
}

export interface DetectedCredential {
  format: CredentialFormat;
  start: number;
  end: number;
  /** The value fails the format's checksum: made up or altered (reported outside documentation only). */
  checksumFails?: true;
}

/** Finds credentials of `formats` on one line of `path`: the first one, or null. */
export function credentialDetector(formats: readonly CredentialFormat[]): {
  keywords: string[];
  /** The keywords of the formats that apply to `path` (the same array for the same answer). */
  keywordsFor(path: string): readonly string[];
  /**
   * `found`: the keywords known to be on the line (the pre-filter's); empty: look for all of them.
   * `code`: the line's code view (strings blanked), asked for only in tests and fixtures.
   * `context`: the lines around it, for the formats that ask (a curl option on a continued line).
   */
  detect(
    text: string,
    path: string,
    found?: readonly string[],
    code?: () => string,
    context?: LineContext,
  ): DetectedCredential | null;
} {
  const byKeyword = formatsByKeyword(formats);
  const keywords = [...byKeyword.keys()].sort((a, b) => b.length - a.length);
  const allKeywords = new RegExp(keywords.map(escapeRegExp).join('|'), 'g');
  /** Finders for the sets of keywords lines have (most lines: one keyword), kept while there are few. */
  const finders = new Map<string, RegExp>();
  const occurrencesOf = (own: readonly string[]): RegExp => {
    const key = own.join('\0');
    let finder = finders.get(key);
    if (!finder) {
      if (finders.size >= 256) finders.clear();
      finders.set(key, (finder = new RegExp(own.map(escapeRegExp).join('|'), 'g')));
    }
    return finder;
  };
  /** Keywords by their first three characters: the candidates at one occurrence. */
  const byHead = new Map<string, string[]>();
  for (const keyword of keywords)
    byHead.set(keyword.slice(0, 3), [...(byHead.get(keyword.slice(0, 3)) ?? []), keyword]);
  const scoped = formats.filter((format) => format.files !== undefined);
  const keywordLists = new Map<string, string[]>();
  return {
    keywords,
    keywordsFor(path) {
      const key = scoped.map((format) => (format.files!(path) ? '1' : '0')).join('');
      let list = keywordLists.get(key);
      if (!list) {
        const applies = new Set(formats.filter((format) => format.files?.(path) ?? true));
        list = keywords.filter((keyword) => byKeyword.get(keyword)!.some((format) => applies.has(format)));
        keywordLists.set(key, list);
      }
      return list;
    },
    detect(text, path, found = [], code = () => text, context = LINE_ALONE) {
      const testData = isTestFile(path) || isFixture(path);
      const own = found.filter((keyword) => byKeyword.has(keyword));
      // With the pre-filter's keywords: indexOf for one (most lines), one alternation of those
      // found for more, and of all of them only without the pre-filter.
      const only = own.length === 1 ? own[0]! : undefined;
      const finder = only !== undefined ? undefined : own.length > 0 ? occurrencesOf(own) : allKeywords;
      /** The next occurrence at or after `from`, or -1. Occurrences overlap ("xoxe.xoxb-" holds "xoxb-"). */
      const next = (from: number): number => {
        if (finder === undefined) return text.indexOf(only!, from);
        finder.lastIndex = from;
        return finder.exec(text)?.index ?? -1;
      };
      let fakeEnd: number | undefined;
      let valueRuns: ValueRuns | undefined;
      const runs = (): ValueRuns => (valueRuns ??= new ValueRuns(text));
      /** A credential known by a generic name only: kept while a named kind may follow on the line. */
      let generic: DetectedCredential | null = null;
      for (let at = next(0); at >= 0; at = next(at + 1)) {
        // Every keyword that starts here, not only the longest (the pre-filter found all of them:
        // with one found, only it).
        for (const keyword of only !== undefined ? own : byHead.get(text.slice(at, at + 3))!) {
          if (!text.startsWith(keyword, at)) continue;
          for (const format of byKeyword.get(keyword)!) {
            const found = tryFormat(format, text, at, path, context, runs);
            if (!found) continue;
            if (testData) {
              if (format.generic) continue;
              fakeEnd ??= fakeNameEnd(text);
              // A fake-sounding name, or source code quoted in a test's string: test data.
              if (fakeEnd <= found.start || isQuotedSource(text, code(), found.start, found.end)) continue;
            }
            if (!format.generic) return found;
            generic ??= found;
          }
        }
      }
      return generic;
    },
  };
}

/**
 * A line's runs of a bare value's characters, for one detect(): where each position's run ends
 * (0: not yet known), and the runs each format has judged (`id:end`).
 */
class ValueRuns {
  readonly #text: string;
  /** Per class of characters (formats share one RegExp). */
  readonly #ends = new Map<RegExp, Int32Array>();
  readonly #judged = new Set<string>();

  constructor(text: string) {
    this.#text = text;
  }

  /** The end of the run of `chars` that starts at `from`: each position is read once per class of characters. */
  endOf(from: number, chars: RegExp): number {
    const text = this.#text;
    let ends = this.#ends.get(chars);
    if (!ends) this.#ends.set(chars, (ends = new Int32Array(text.length)));
    let at = from;
    while (at < text.length && ends[at] === 0 && chars.test(text[at]!)) at++;
    const end = at < text.length && ends[at] !== 0 ? ends[at]! : at;
    for (let i = from; i < at; i++) ends[i] = end;
    return end;
  }

  /** True the first time a format asks about the run that ends at `end`. */
  firstJudged(formatId: string, end: number): boolean {
    const run = `${formatId}:${end}`;
    if (this.#judged.has(run)) return false;
    this.#judged.add(run);
    return true;
  }
}

/** Only spaces before the line's end or a comment (# or ;) follow. */
function endsLineOrComment(text: string, from: number): boolean {
  let at = from;
  while (text[at] === ' ' || text[at] === '\t') at++;
  return at === text.length || text[at] === '#' || text[at] === ';';
}

function tryFormat(
  format: CredentialFormat,
  text: string,
  at: number,
  path: string,
  context: LineContext,
  runs: () => ValueRuns,
): DetectedCredential | null {
  if (format.follows !== undefined && text.indexOf(format.follows, at) < 0) return null;
  if (format.wordStart && at > 0 && /[A-Za-z0-9]/.test(text[at - 1]!)) return null;
  if (format.before && at > 0 && !format.before.test(text[at - 1]!)) return null;
  if (format.files && !format.files(path)) return null;
  // From the line's start where the line is shorter (a pattern that needs its full reach fails there).
  const from = Math.max(0, at - (format.back ?? 0));
  format.pattern.lastIndex = from;
  const m = format.pattern.exec(text);
  if (!m) return null;
  const groups = m.indices?.groups;
  const span = groups?.['secret'] ?? groups?.['bare'] ?? m.indices?.[format.secretGroup];
  if (!span) return null;
  const start = span[0];
  let end = span[1];
  if (format.bareRun && groups?.['bare']) {
    end = runs().endOf(start, format.bareRun.chars);
    // A run is the value of the first name before it (A=B=C: A's value is B=C); later names in it are part of it.
    if (!runs().firstJudged(format.id, end)) return null;
    if (end - start > format.bareRun.max || !endsLineOrComment(text, end)) return null;
  }
  const secret = text.slice(start, end);
  if (shannonEntropy(secret) < format.entropy || isReference(secret) || isDocumentedSample(secret)) return null;
  if (!format.uniformRunsAllowed && isPlaceholderSecret(secret)) return null;
  if (format.accepts && !format.accepts(secret, m, context)) return null;
  const allow = format.allowlist;
  if (allow?.regexes.some((regex) => regex.test(allow.target === 'match' ? m[0] : secret))) return null;
  if (format.checksum && !format.checksum(secret))
    return isDocumentation(path) ? null : { format, start, end, checksumFails: true };
  return { format, start, end };
}

/**
 * In documentation, no value known by a generic name only (a password, a token, a curl -u): there
 * it is an example. A shape of its own, or a provider's name with a value of the provider's form,
 * is looked for as anywhere.
 */
const detector = credentialDetector(
  CREDENTIAL_FORMATS.map((format) => {
    if (format.distinctive || !(format.generic || format.id.startsWith('curl-'))) return format;
    const files = format.files;
    return { ...format, files: (path: string) => !isDocumentation(path) && (files?.(path) ?? true) };
  }),
);

/** "an Adobe client secret", "a password". */
export function withArticle(kind: string): string {
  // as it is said: an xAI API key, an npm token, an ngrok authtoken, an NVIDIA API key; a OneSignal API key
  return `${/^(?:(?!One)[aeiouAEIOU]|x[A-Z]|npm\b|ngrok\b|NVIDIA\b)/.test(kind) ? 'an' : 'a'} ${kind}`;
}

export function secretMessage(kind: string): string {
  return `${withArticle(kind)[0]!.toUpperCase()}${withArticle(kind).slice(1)} was added; remove it, rotate it, and load it from the environment or a secret store.`;
}

/** The message for a value whose checksum does not hold: every issued one holds, so it is most likely made up. */
export function failedChecksumMessage(kind: string): string {
  return `${withArticle(kind)[0]!.toUpperCase()}${withArticle(kind).slice(1)} whose checksum does not hold was added; it is most likely made up, but if it is real, remove it, rotate it, and load it from the environment or a secret store.`;
}

export const credentialFormats: LineRule = {
  kind: 'line',
  id: SECRET_RULE_ID,
  severity: 'error',
  summary: SECRET_SUMMARY,
  help: SECRET_HELP,
  message: 'A secret was added; remove it, rotate it, and load it from the environment or a secret store.',
  files: (path) => !isTemplate(path),
  keywords: detector.keywords,
  keywordsFor: (path) => detector.keywordsFor(path),
  reads: 'text',
  check(line): LineMatch | null {
    const found = detector.detect(line.text, line.path, line.keywords, () => line.code, {
      continuedFrom: () => continuedFrom(line),
    });
    if (!found) return null;
    return {
      column: found.start + 1,
      endColumn: found.end + 1,
      message: found.checksumFails ? failedChecksumMessage(found.format.kind) : secretMessage(found.format.kind),
      secret: { start: found.start, end: found.end },
      ...(found.format.generic ? { generic: true } : {}),
    };
  },
};

/** How many lines up a continued command is followed. */
const CONTINUED_REACH = 30;

/** The lines above that continue onto this one (`curl … \`, then `  -u user:password`), joined. */
function continuedFrom(line: AddedLine): string {
  let before = '';
  for (let offset = -1; offset >= -CONTINUED_REACH; offset--) {
    const above = line.lineAt(offset)?.text;
    if (above === undefined || !/\\\s*$/.test(above)) break;
    before = `${above} ${before}`;
  }
  return before;
}
