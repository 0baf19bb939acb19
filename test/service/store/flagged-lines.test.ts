// The flagged lines' texts the store keeps (service/store/flagged-lines.ts): from the added lines
// of the review's own diff, never a line that holds a secret, none for an unreadable diff.
import { describe, expect, it } from 'vitest';
import { secretRules } from '../../../service/engine/rules/secrets.ts';
import type { Finding } from '../../../service/engine/types.ts';
import { MAX_LINE_TEXT, SECRET_RULE_IDS, withLineTexts } from '../../../service/store/flagged-lines.ts';

const finding = (file_path: string, line: number, rule_id = 'no-debugger'): Finding => ({
  rule_id,
  severity: 'warning',
  file_path,
  line,
  message: `${rule_id}: x`,
  fingerprint: `${file_path}:${line}`,
});

const DIFF = [
  'diff --git a/a.js b/a.js',
  '--- a/a.js',
  '+++ b/a.js',
  '@@ -1,2 +1,3 @@',
  ' one',
  '-two',
  '+  debugger;',
  '+const password = "x";',
  ' three',
  'diff --git a/b.js b/b.js',
  'deleted file mode 100644',
  '--- a/b.js',
  '+++ /dev/null',
  '@@ -1 +0,0 @@',
  '-gone',
  '',
].join('\n');

describe('withLineTexts', () => {
  it('names every secret rule of the engine', () => {
    expect([...SECRET_RULE_IDS].sort()).toEqual([...new Set(secretRules.map((rule) => rule.id))].sort());
  });

  it("adds an added line's text; a context or unknown line gets none", () => {
    const texts = withLineTexts(DIFF, [finding('a.js', 2), finding('a.js', 1), finding('a.js', 4), finding('c.js', 1)]);
    expect(texts.map((f) => f.line_text)).toEqual(['  debugger;', undefined, undefined, undefined]);
  });

  it('keeps no text of a line a secret rule flagged, for any finding on it', () => {
    const texts = withLineTexts(DIFF, [finding('a.js', 3), finding('a.js', 3, 'secret')]);
    expect(texts.map((f) => f.line_text)).toEqual([undefined, undefined]);
  });

  it(`keeps no line over ${MAX_LINE_TEXT} characters; an unparseable or missing diff leaves the findings as they are`, () => {
    const long = DIFF.replace('+  debugger;', `+${'y'.repeat(MAX_LINE_TEXT + 1)}`);
    expect(withLineTexts(long, [finding('a.js', 2)])[0]!.line_text).toBeUndefined();
    const exactly = DIFF.replace('+  debugger;', `+${'y'.repeat(MAX_LINE_TEXT)}`);
    expect(withLineTexts(exactly, [finding('a.js', 2)])[0]!.line_text).toHaveLength(MAX_LINE_TEXT);
    expect(withLineTexts('not a diff', [finding('a.js', 2)])).toEqual([finding('a.js', 2)]);
    expect(withLineTexts(undefined, [finding('a.js', 2)])).toEqual([finding('a.js', 2)]);
  });
});
