// Tests that were focused (only these run) or skipped without a reason.
import { isJavaScript, isPython, notFixture } from './files.ts';
import type { AddedLine, LineRule } from './rule.ts';
import { patternRule, spanOf, unlessMoved } from './rule.ts';

const TEST_FUNCTIONS = ['describe', 'it', 'test', 'context', 'suite', 'specify'];
const JS_SKIP_KEYWORDS = [...TEST_FUNCTIONS.map((name) => `${name}.skip`), 'xit', 'xdescribe', 'xcontext', 'xtest'];
const PYTHON_SKIP_KEYWORDS = ['@pytest.mark.skip', '@unittest.skip'];

export const noFocusedTest = patternRule({
  id: 'no-focused-test',
  severity: 'error',
  summary:
    'A focused test (it.only, describe.only, test.only, fit, fdescribe) was added: every other test of the file is skipped.',
  help: 'Remove .only / the f prefix so that the whole suite runs in CI.',
  message: 'Remove the focus (.only / fit / fdescribe); with it, every other test in the file is silently skipped.',
  files: notFixture(isJavaScript),
  // fit / fdescribe: Jasmine's and Jest's focus functions (there is no ftest or fcontext).
  keywords: [...TEST_FUNCTIONS.map((name) => `${name}.only`), 'fit', 'fdescribe'],
  in: 'code',
  pattern: /(?<![\w$.])(?:(?:describe|it|test|context|suite|specify)\.only\s*[(.`]|(?:fit|fdescribe)\s*\()/,
});

/**
 * A skipped declaration: its first argument is the test's name (it.skip('name', fn), it.skip`...`,
 * it.skip.each). A call with anything else skips at run time and says why
 * (vitest's context.skip(note), Playwright's test.skip(condition, 'reason')).
 */
const JS_SKIP =
  /(?<![\w$.])(?:(?:describe|it|test|context|suite|specify)\.skip\s*(?:\(\s*['"`]|[.`])|(?:xit|xdescribe|xcontext|xtest)\s*\()/;
// The reason= lookahead is linear in the line: it reads up to the next parenthesis, not the next
// ")" (from every decorator of a line without one it read to the end of the line), and no two of
// its parts can match the same spaces ("\(\s*[^)]*" tried every split of a run of spaces).
const PYTEST_SKIP = /@pytest\.mark\.skip(?:if)?\b|@unittest\.skip\s*\(\s*\)|@unittest\.skip\b(?!\s*\()/;
/** reason= among a decorator's arguments, over parentheses one level deep (skipif(sys.version_info < (3, 8), reason=…)). */
const REASON_ARGUMENT = /^\s*\((?:[^()]|\([^()]*\))*?\breason\s*=/;
/** How many lines a decorator's arguments may run over. */
const DECORATOR_LINES = 10;

/** The arguments of the pytest decorator at `at` on the line give reason= (on this line or the next few). */
function pytestReasonGiven(line: AddedLine, at: number): boolean {
  let text = line.text.slice(at);
  for (let offset = 1; offset <= DECORATOR_LINES; offset++) {
    if (REASON_ARGUMENT.test(text)) return true;
    const next = line.lineAt(offset);
    if (next === undefined || next.kind === '-') break;
    text += `\n${next.text}`;
  }
  return REASON_ARGUMENT.test(text);
}

/** A comment line: the reason for what the next line does. */
const COMMENT_LINE = /^\s*(?:\/\/|#|\/\*|\*)\s*\S/;

/**
 * A skip whose reason is nowhere: not in the call (pytest reason=), not in a comment on the line
 * or on the line just above. A skip the diff only moved or kept is not reported.
 */
export const noUnexplainedSkip: LineRule = unlessMoved({
  kind: 'line',
  id: 'no-unexplained-skip',
  severity: 'warning',
  summary: 'A test was skipped without a reason (@pytest.mark.skip without reason=, it.skip / xit without a comment).',
  help: 'Say why the test is skipped and when it comes back: reason="..." in pytest, a comment with an issue reference in JavaScript. Better, fix the test.',
  message:
    'Test skipped without a reason; give one (pytest: reason="..."; JavaScript: a comment with an issue reference) or fix the test.',
  files: notFixture((path) => isJavaScript(path) || isPython(path)),
  keywords: [...JS_SKIP_KEYWORDS, ...PYTHON_SKIP_KEYWORDS],
  keywordsFor: (path) => (isPython(path) ? PYTHON_SKIP_KEYWORDS : JS_SKIP_KEYWORDS),
  check(line) {
    const python = isPython(line.path);
    const m = (python ? PYTEST_SKIP : JS_SKIP).exec(line.code);
    if (!m) return null;
    // pytest.mark.skip("text") gives the reason positionally, the same as reason=.
    if (python && /@pytest\.mark\.skip\s*\(\s*["']/.test(line.text)) return null;
    if (python && m[0].startsWith('@pytest') && pytestReasonGiven(line, m.index + m[0].length)) return null;
    if (!python && line.comment.trim() !== '') return null;
    const above = line.lineAt(-1);
    if (above && above.kind !== '-' && COMMENT_LINE.test(above.text)) return null;
    return spanOf(m);
  },
});

export const testHygieneRules = [noFocusedTest, noUnexplainedSkip];
