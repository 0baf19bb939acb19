// Checks switched off wholesale: a linter or type checker silenced without saying for what.
import { isJavaScript, isPython, isTestFile, isTypeScript, notFixture } from './files.ts';
import type { LineRule } from './rule.ts';
import { caseVariants, patternRule } from './rule.ts';

const eslintDisableWithoutRule = patternRule({
  id: 'no-blanket-eslint-disable',
  severity: 'warning',
  summary: 'eslint-disable without a rule name turns off every lint rule.',
  help: 'Name the rules you disable (// eslint-disable-next-line no-await-in-loop -- reason) so that the others keep working.',
  message: 'Name the rule(s) to disable (e.g. "eslint-disable-next-line no-console -- why"); a blanket eslint-disable hides every other problem.',
  files: notFixture(isJavaScript),
  keywords: ['eslint-disable'],
  in: 'comment',
  // Followed by nothing but the end of the comment or a "--" description.
  pattern: /eslint-disable(?:-next-line|-line)?(?=\s*(?:\*\/|-->|--|$))/,
});

const LINE_SCOPED = /eslint-disable-(?:next-)?line/;

/** In tests, code that breaks lint rules on purpose is common: there only a whole-file eslint-disable counts. */
export const noBlanketEslintDisable: LineRule = {
  ...eslintDisableWithoutRule,
  check(line) {
    const match = eslintDisableWithoutRule.check(line);
    if (match && isTestFile(line.path) && LINE_SCOPED.test(line.comment.slice(match.column - 1))) return null;
    return match;
  },
};

export const noTsIgnore = patternRule({
  id: 'no-ts-ignore',
  severity: 'warning',
  summary: '@ts-ignore silences every type error on the next line, even ones that appear later.',
  help: 'Fix the type error, or use @ts-expect-error with a reason: it fails once the error is gone.',
  message: 'Use "@ts-expect-error <reason>" instead of @ts-ignore, or fix the type error; @ts-ignore also hides errors that appear later.',
  files: notFixture(isTypeScript),
  keywords: ['@ts-ignore', '@ts-nocheck'],
  in: 'comment',
  pattern: /@ts-(?:ignore|nocheck)\b/,
});

export const noBlanketTypeIgnore = patternRule({
  id: 'no-blanket-type-ignore',
  severity: 'warning',
  summary: '"# type: ignore" without an error code silences every type error on the line.',
  help: 'Name the error code: "# type: ignore[attr-defined]" (mypy) or "# pyright: ignore[reportGeneralTypeIssues]".',
  message: 'Name the error code ("# type: ignore[code]"); a bare "# type: ignore" hides every type error on the line.',
  files: notFixture(isPython),
  keywords: ['ignore'],
  in: 'comment',
  pattern: /#\s*(?:type|pyright):\s*ignore(?!\[)/,
});

export const noBlanketNoqa = patternRule({
  id: 'no-blanket-noqa',
  severity: 'warning',
  summary: 'A bare "# noqa" silences every lint warning on the line.',
  help: 'Name the codes: "# noqa: E501" (flake8, ruff).',
  message: 'Name the codes ("# noqa: E501"); a bare "# noqa" hides every lint warning on the line.',
  files: notFixture(isPython),
  keywords: caseVariants('noqa'),
  in: 'comment',
  pattern: /#\s*noqa\b(?!\s*:\s*[A-Z])/i,
});

export const disabledCheckRules = [noBlanketEslintDisable, noTsIgnore, noBlanketTypeIgnore, noBlanketNoqa];
