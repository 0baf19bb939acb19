// Which of a file's syntax rules read a hunk (or a piece of one): those with one of their keywords
// in its text. Keeps most hunks, and most reviews, from being parsed at all.
import type { LineRule } from '../rules/rule.ts';
import { escapeRegExp } from '../rules/secrets/format.ts';
import type { SyntaxLanguage } from './languages.ts';

const hunkTests = new WeakMap<LineRule, Map<SyntaxLanguage, (text: string) => boolean>>();

/**
 * Whether a hunk's text has one of the rule's keywords or its language's (a keyword that begins
 * with a letter begins a word: `Function(` is not in `isFunction(`), or matches its hunkPattern.
 */
export function readsHunk(rule: LineRule, language: SyntaxLanguage, text: string): boolean {
  let byLanguage = hunkTests.get(rule);
  if (!byLanguage) hunkTests.set(rule, (byLanguage = new Map()));
  let test = byLanguage.get(language);
  if (!test) {
    const words = [...(rule.syntax?.keywords ?? []), ...(rule.syntax?.languages[language]?.keywords ?? [])];
    const keywords = new RegExp(
      words.map((word) => (/^[\w$]/.test(word) ? '(?<![\\w$])' : '') + escapeRegExp(word)).join('|'),
    );
    const pattern = rule.syntax?.hunkPattern;
    test = (hunk) => keywords.test(hunk) || pattern?.test(hunk) === true;
    byLanguage.set(language, test);
  }
  return test(text);
}
