// Splits one line of source into its code and its comment, so that rules about code do not fire
// on words in strings or comments ("// the debugger stops here"), and rules about comments
// (TODO, eslint-disable) do not fire on code. One line at a time: a line inside a block comment
// is recognised by its usual leading `*`, a line inside a multi-line string is not. In
// JavaScript, regular-expression literals are blanked like strings (/\bdebugger\b/ is no statement).

import { type CommentSyntax, SYNTAX_BY_EXTENSION } from './languages.ts';

export interface LexedLine {
  /** The line with string contents and comments replaced by spaces (quotes kept): same length, same columns. */
  code: string;
  /** The line with everything but comments replaced by spaces: same length, same columns. */
  comment: string;
}

export function commentSyntaxOf(path: string): CommentSyntax {
  const name = path.slice(path.lastIndexOf('/') + 1);
  const dot = name.lastIndexOf('.');
  if (dot <= 0) {
    if (/^(Dockerfile|Makefile|Gemfile|Rakefile|Procfile|Vagrantfile)$/.test(name)) return 'hash';
    return name.startsWith('.env') ? 'hash' : 'none';
  }
  if (name.startsWith('.env')) return 'hash';
  return SYNTAX_BY_EXTENSION.get(name.slice(dot + 1).toLowerCase()) ?? 'none';
}

export function lexLine(text: string, syntax: CommentSyntax): LexedLine {
  if (syntax === 'none') return { code: text, comment: '' };
  const n = text.length;
  const trimmed = text.trimStart();
  const js = syntax === 'js';
  const slash = js || syntax === 'slash' || syntax === 'both';
  const hash = syntax === 'hash' || syntax === 'both' || syntax === 'ini';
  // A continuation line of a block comment (" * text", " */") or a doc-comment opener is all comment.
  if (slash && (trimmed.startsWith('*') || trimmed.startsWith('/*'))) return { code: blank(n), comment: text };
  // INI's comment line (; …), which every dialect reads (php.ini only this one).
  if (syntax === 'ini' && trimmed.startsWith(';')) return { code: blank(n), comment: text };

  // Copies runs of code whole and blanks string contents and comments: no per-character work
  // but the comparisons.
  let code = '';
  /** Start of the run of code not yet copied. */
  let run = 0;
  let commentStart = -1;
  let end = n;
  /** A regular expression opened earlier on the line found no closing "/": see regexEnd. */
  let regexFailed = false;
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c === 34 /* " */ || c === 39 /* ' */ || c === 96 /* ` */) {
      // Keep the quotes, blank what is between them (an escape blanks the character after it too).
      let close = i + 1;
      while (close < n && text.charCodeAt(close) !== c) close += text.charCodeAt(close) === 92 /* \ */ ? 2 : 1;
      close = Math.min(close, n);
      code += text.slice(run, i + 1) + blank(close - i - 1);
      run = close;
      i = close;
      continue;
    }
    if (slash && c === 47 /* / */) {
      const next = text.charCodeAt(i + 1);
      if (next === 47) {
        commentStart = end = i;
        break;
      }
      if (next === 42 /* * */) {
        const close = text.indexOf('*/', i + 2);
        if (close < 0) {
          commentStart = end = i;
          break;
        }
        // An inline block comment: blank it in code; keep scanning after it.
        if (commentStart < 0) commentStart = i;
        code += text.slice(run, i) + blank(close + 2 - i);
        run = close + 2;
        i = close + 1;
        continue;
      }
      const opens = js && startsExpression(text, i);
      const close = opens ? regexEnd(text, i, regexFailed) : -1;
      if (opens && close < 0) regexFailed = true;
      if (close > 0) {
        // A regular-expression literal: keep its slashes, blank its body.
        code += text.slice(run, i + 1) + blank(close - i - 1);
        run = close;
        i = close;
        continue;
      }
    }
    if ((hash && c === 35) /* # */ || (syntax === 'sql' && c === 45 /* - */ && text.charCodeAt(i + 1) === 45)) {
      commentStart = end = i;
      break;
    }
  }
  if (run < end) code += text.slice(run, end);
  if (code.length < n) code += blank(n - code.length);
  const comment = commentStart < 0 ? '' : blank(commentStart) + text.slice(commentStart);
  return { code, comment };
}

/** Before `text[at]`, an expression can start (so "/" opens a regular expression, not a division). */
function startsExpression(text: string, at: number): boolean {
  let i = at - 1;
  while (i >= 0 && (text.charCodeAt(i) === 32 || text.charCodeAt(i) === 9)) i--;
  if (i < 0) return true;
  const c = text[i]!;
  if ('(,=:[!&|?{};+-*%<>~^'.includes(c)) return true;
  if (!/[\w$]/.test(c)) return false;
  // A keyword before it (return /x/), not a name or a number (a / b, 4 / 2).
  let start = i;
  while (start > 0 && /[\w$]/.test(text[start - 1]!)) start--;
  return /^(?:return|typeof|case|in|of|delete|void|throw|new|else|yield|await|do)$/.test(text.slice(start, i + 1));
}

/**
 * The index of the "/" that closes the regular expression opened at `at`, or -1 if the line has none.
 * `afterFailure`: one opened earlier on the line found no close, so every "/" after it is escaped
 * or in a character class of that reading. A "/" at `at` was in a class then; this reading, outside
 * one, meets that reading's state at the next "[" or "]", and can stop there: without it, each "/"
 * of a long class read to the end of the line (quadratic).
 */
function regexEnd(text: string, at: number, afterFailure: boolean): number {
  let inClass = false;
  for (let i = at + 1; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 92 /* \ */) i++;
    else if (c === 91 /* [ */) {
      if (afterFailure) return -1;
      inClass = true;
    } else if (c === 93 /* ] */) {
      if (afterFailure) return -1;
      inClass = false;
    } else if (c === 47 /* / */ && !inClass) return i === at + 1 ? -1 : i;
  }
  return -1;
}

/** The syntax has block comments (slash-star ... star-slash). */
export function hasBlockComments(syntax: CommentSyntax): boolean {
  return syntax === 'js' || syntax === 'slash' || syntax === 'both';
}

/** How many lines up to look for the start of a block comment. */
export const BLOCK_COMMENT_REACH = 1000;

/**
 * A line is inside a block comment that opened on a line above it: reading `linesAbove` upwards
 * (nearest first), one starts with "/*" before any closes one. lexLine reads one line at a time
 * and takes the lines of a JSDoc example without leading "*" (console.log(x) in an @example) for
 * code; this is how the engine tells. Conservative: any "*\/" above (even in a string) means "no".
 */
export function insideBlockComment(linesAbove: Iterable<string>): boolean {
  for (const text of linesAbove) {
    if (text.includes('*/')) return false;
    if (text.trimStart().startsWith('/*')) return true;
  }
  return false;
}

function blank(length: number): string {
  return ' '.repeat(Math.max(0, length));
}
