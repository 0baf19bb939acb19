// Checks switched off wholesale: a linter or type checker silenced without saying for what.
// A suppression the diff only moved or kept (the same text removed elsewhere in the file) is
// not reported: it is not the change's doing.
import { isJavaScript, isPython, isTestFile, isTypeScript, notFixture } from './files.ts';
import type { LineRule } from './rule.ts';
import { caseVariants, patternRule, spanOf, unlessMoved } from './rule.ts';

const eslintDisableWithoutRule = patternRule({
  id: 'no-blanket-eslint-disable',
  severity: 'warning',
  summary: 'eslint-disable without a rule name turns off every lint rule.',
  help: 'Name the rules you disable (// eslint-disable-next-line no-await-in-loop -- reason) so that the others keep working.',
  message:
    'Name the rule(s) to disable (e.g. "eslint-disable-next-line no-console -- why"); a blanket eslint-disable hides every other problem.',
  files: notFixture(isJavaScript),
  keywords: ['eslint-disable'],
  in: 'comment',
  // Followed by nothing but the end of the comment or a "--" description.
  pattern: /eslint-disable(?:-next-line|-line)?(?=\s*(?:\*\/|-->|--|$))/,
});

const LINE_SCOPED = /eslint-disable-(?:next-)?line/;

/** In tests, code that breaks lint rules on purpose is common: there only a whole-file eslint-disable counts. */
export const noBlanketEslintDisable: LineRule = unlessMoved({
  ...eslintDisableWithoutRule,
  check(line) {
    const match = eslintDisableWithoutRule.check(line);
    if (match && isTestFile(line.path) && LINE_SCOPED.test(line.comment.slice(match.column - 1))) return null;
    return match;
  },
});

export const noTsIgnore = unlessMoved(
  patternRule({
    id: 'no-ts-ignore',
    severity: 'warning',
    summary: '@ts-ignore silences every type error on the next line, even ones that appear later.',
    help: 'Fix the type error, or use @ts-expect-error with a reason: it fails once the error is gone.',
    message:
      'Use "@ts-expect-error <reason>" instead of @ts-ignore, or fix the type error; @ts-ignore also hides errors that appear later.',
    files: notFixture(isTypeScript),
    keywords: ['@ts-ignore', '@ts-nocheck'],
    in: 'comment',
    pattern: /@ts-(?:ignore|nocheck)\b/,
  }),
);

/** pyright's own advice for its comment: name the rule, which pyright then checks is still needed (reportUnnecessaryTypeIgnoreComment). */
const PYRIGHT_MESSAGE =
  'Name the rule ("# pyright: ignore[reportAttributeAccessIssue]"); a bare "# pyright: ignore" hides every pyright error on the line, and with a rule named pyright can report the comment once it is no longer needed.';

export const noBlanketTypeIgnore: LineRule = unlessMoved({
  kind: 'line',
  id: 'no-blanket-type-ignore',
  severity: 'warning',
  summary:
    '"# type: ignore" or "# pyright: ignore" without an error code or rule silences every type error on the line.',
  help: 'Name the error code: "# type: ignore[attr-defined]" (mypy) or "# pyright: ignore[reportGeneralTypeIssues]".',
  message: 'Name the error code ("# type: ignore[code]"); a bare "# type: ignore" hides every type error on the line.',
  files: notFixture(isPython),
  keywords: ['ignore'],
  reads: 'comment',
  check(line) {
    const m = /#\s*(type|pyright):\s*ignore(?!\[)/.exec(line.comment);
    if (!m) return null;
    return m[1] === 'pyright' ? { ...spanOf(m), message: PYRIGHT_MESSAGE } : spanOf(m);
  },
});

export const noBlanketNoqa = unlessMoved(
  patternRule({
    id: 'no-blanket-noqa',
    severity: 'warning',
    summary: 'A bare "# noqa" silences every lint warning on the line.',
    help: 'Name the codes: "# noqa: E501" (flake8, ruff).',
    message: 'Name the codes ("# noqa: E501"); a bare "# noqa" hides every lint warning on the line.',
    files: notFixture(isPython),
    keywords: caseVariants('noqa'),
    in: 'comment',
    pattern: /#\s*noqa\b(?!\s*:\s*[A-Z])/i,
  }),
);

export const disabledCheckRules = [noBlanketEslintDisable, noTsIgnore, noBlanketTypeIgnore, noBlanketNoqa];
