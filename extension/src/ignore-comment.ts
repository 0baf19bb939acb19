// The `diff-review-ignore <rule>` comment that suppresses one finding, in its file's comment
// syntax, and where it goes: its own line above the finding (with the line's indentation), or the
// end of the finding's line where a line above would break the code. The engine reads both
// (service/engine/suppression.ts). Plain data (no vscode import), tested under vitest.

/** How a comment is opened and closed in a language; none for a language without comments (JSON). */
interface CommentSyntax {
  open: string;
  close?: string;
}

const SLASHES: CommentSyntax = { open: '//' };
const HASH: CommentSyntax = { open: '#' };
const MARKUP: CommentSyntax = { open: '<!--', close: '-->' };
const DASHES: CommentSyntax = { open: '--' };
const BLOCK: CommentSyntax = { open: '/*', close: '*/' };
const SEMICOLON: CommentSyntax = { open: ';' };

/** VS Code language id → its comment syntax. */
const SYNTAX: Record<string, CommentSyntax> = {
  ...Object.fromEntries(
    [
      'javascript',
      'javascriptreact',
      'typescript',
      'typescriptreact',
      'java',
      'go',
      'rust',
      'csharp',
      'c',
      'cpp',
      'kotlin',
      'swift',
      'scala',
      'dart',
      'php',
      'groovy',
      'jsonc',
      'scss',
      'less',
    ].map((id) => [id, SLASHES]),
  ),
  ...Object.fromEntries(
    [
      'python',
      'shellscript',
      'yaml',
      'toml',
      'dockerfile',
      'ruby',
      'perl',
      'r',
      'makefile',
      'powershell',
      'properties',
      'dotenv',
      'terraform',
    ].map((id) => [id, HASH]),
  ),
  ...Object.fromEntries(['html', 'xml', 'markdown', 'svg', 'vue'].map((id) => [id, MARKUP])),
  ...Object.fromEntries(['sql', 'lua', 'haskell'].map((id) => [id, DASHES])),
  css: BLOCK,
  ini: SEMICOLON,
};

/**
 * A rule id the engine's suppression reads (service/engine/suppression.ts). The id comes from the
 * service's answer: any other text would be written into the user's code as it is.
 */
const RULE_ID = /^[a-z][\w-]*$/;

/** Longest reason a comment takes. */
export const MAX_REASON_CHARS = 200;

/**
 * What is wrong with a reason the user typed (undefined: nothing): it goes into the comment between
 * parentheses, so it may not close them, end the comment or break the line.
 */
export function reasonProblem(reason: string): string | undefined {
  if (reason.trim() === '') return 'Say why this finding is fine.';
  if (reason.length > MAX_REASON_CHARS) return `At most ${MAX_REASON_CHARS} characters.`;
  if (/[()\r\n]|\*\/|-->/.test(reason)) return 'No parentheses, line breaks, */ or --> in a reason.';
  return undefined;
}

/**
 * The suppression comment for `ruleId` in a language, with the reason in parentheses when given;
 * undefined when the language has no comments, or the id or the reason could not be written safely.
 */
export function ignoreComment(languageId: string, ruleId: string, reason?: string): string | undefined {
  const syntax = SYNTAX[languageId];
  if (!syntax || !RULE_ID.test(ruleId)) return undefined;
  if (reason !== undefined && reasonProblem(reason) !== undefined) return undefined;
  const why = reason === undefined ? '' : ` (${reason.trim()})`;
  return `${syntax.open} diff-review-ignore ${ruleId}${why}${syntax.close ? ` ${syntax.close}` : ''}`;
}

/** Where to write it: a text insertion at (line, character), 0-based. */
export interface IgnoreInsertion {
  line: number;
  character: number;
  text: string;
}

/**
 * The insertion that suppresses the finding of `ruleId` on `line` of `lines`; undefined when the
 * language has no comments. Above the line, unless the line continues the one before it (a
 * trailing backslash) or is a shebang's first line: then at its end.
 */
export function ignoreInsertion(
  lines: readonly string[],
  line: number,
  languageId: string,
  ruleId: string,
  reason?: string,
): IgnoreInsertion | undefined {
  const comment = ignoreComment(languageId, ruleId, reason);
  const text = lines[line];
  if (comment === undefined || text === undefined) return undefined;
  const continues = line > 0 && /\\\s*$/.test(lines[line - 1] ?? '');
  const shebang = line === 0 && text.startsWith('#!');
  if (continues || shebang) return { line, character: text.length, text: ` ${comment}` };
  const indentation = /^\s*/.exec(text)?.[0] ?? '';
  return { line, character: 0, text: `${indentation}${comment}\n` };
}
