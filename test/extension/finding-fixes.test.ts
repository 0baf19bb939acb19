// The quick fixes' text: the ignore comment in each language's syntax and where it goes, and the
// config file with a rule turned off (comments kept). The in-host tests apply them for real.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { CONFIGURABLE_RULES } from '../../service/project-config/config-schema.ts';
import { isSuppressed } from '../../service/engine/rules/suppression-directives.ts';
import { parseDirective } from '../../service/engine/suppression.ts';
import { ignoreComment, ignoreInsertion, reasonProblem } from '../../extension/src/ignore-comment.ts';
import { isConfigurableRule, withRuleOff } from '../../extension/src/rule-off-config.ts';
import { ruleHelpFromSarif } from '../../extension/src/sarif-rule-help.ts';

describe('the ignore comment', () => {
  // each language with a file of it: the engine reads a directive in that file's comments
  it.each([
    ['typescript', 'src/a.ts', '// diff-review-ignore no-debugger'],
    ['go', 'cmd/a.go', '// diff-review-ignore no-debugger'],
    ['python', 'app/a.py', '# diff-review-ignore no-debugger'],
    ['dockerfile', 'Dockerfile', '# diff-review-ignore no-debugger'],
    ['html', 'web/a.html', '<!-- diff-review-ignore no-debugger -->'],
    ['markdown', 'docs/a.md', '<!-- diff-review-ignore no-debugger -->'],
    ['sql', 'db/a.sql', '-- diff-review-ignore no-debugger'],
    ['css', 'web/a.css', '/* diff-review-ignore no-debugger */'],
    ['ini', 'config/a.ini', '; diff-review-ignore no-debugger'],
  ])('%s: %s, which the engine honours', (language, path, comment) => {
    expect(ignoreComment(language, 'no-debugger')).toBe(comment);
    expect(isSuppressed(path, 'no-debugger', 'debugger;', comment)).toBe(true);
  });

  it.each([
    ['typescript', 'src/a.ts', '// diff-review-ignore no-debugger (stepping through on staging)'],
    ['python', 'app/a.py', '# diff-review-ignore no-debugger (stepping through on staging)'],
    ['html', 'web/a.html', '<!-- diff-review-ignore no-debugger (stepping through on staging) -->'],
    ['css', 'web/a.css', '/* diff-review-ignore no-debugger (stepping through on staging) */'],
  ])('%s, with a reason: %s, which the engine reads', (language, path, comment) => {
    expect(ignoreComment(language, 'no-debugger', ' stepping through on staging ')).toBe(comment);
    expect(parseDirective(comment)).toEqual({ rules: ['no-debugger'], reason: 'stepping through on staging' });
    expect(isSuppressed(path, 'no-debugger', 'debugger;', comment)).toBe(true);
  });

  it('a reason that would leave the parentheses or the comment is refused, with what to change', () => {
    for (const reason of ['a) b', 'a (b', 'one\ntwo', 'x */ y', 'x --> y', '  ', 'r'.repeat(201)]) {
      expect(reasonProblem(reason), JSON.stringify(reason)).toBeDefined();
      expect(ignoreComment('css', 'no-debugger', reason), JSON.stringify(reason)).toBeUndefined();
    }
    expect(reasonProblem('r'.repeat(200))).toBeUndefined();
    expect(reasonProblem('')).toBe('Say why this finding is fine.');
  });

  it('none for JSON, which has no comments', () => {
    expect(ignoreComment('json', 'no-debugger')).toBeUndefined();
    expect(ignoreInsertion(['{"a": 1}'], 0, 'json', 'secret')).toBeUndefined();
  });

  it('none for a rule id the engine would not read, which a service could fill with code', () => {
    for (const ruleId of ['x\nrequire("child_process").exec("id")', 'x */ body{} /*', '', 'No-Debugger', 'a b'])
      expect(ignoreComment('typescript', ruleId), JSON.stringify(ruleId)).toBeUndefined();
    expect(ignoreInsertion(['debugger;'], 0, 'css', 'x */ a{} /*')).toBeUndefined();
    expect(ignoreComment('typescript', 'no_debugger-2')).toBe('// diff-review-ignore no_debugger-2');
  });

  it('goes above the line with its indentation, or at its end after a continued line or on a shebang', () => {
    expect(ignoreInsertion(['if (x) {', '    debugger;'], 1, 'javascript', 'no-debugger')).toEqual({
      line: 1,
      character: 0,
      text: '    // diff-review-ignore no-debugger\n',
    });
    expect(ignoreInsertion(['curl -H x \\', '  -u admin:hunter2'], 1, 'shellscript', 'secret')).toEqual({
      line: 1,
      character: 18,
      text: ' # diff-review-ignore secret',
    });
    expect(ignoreInsertion(['#!/bin/sh -x'], 0, 'shellscript', 'x')?.character).toBe(12);
  });
});

describe('turning a rule off in .diff-review.yml', () => {
  it('makes the file when there is none', () => {
    expect(parse(withRuleOff(undefined, 'no-debugger'))).toEqual({ rules: { 'no-debugger': 'off' } });
  });

  it('keeps comments, other keys and other rules', () => {
    const text = '# ours\nrules:\n  secret: warning # noisy here\nignore:\n  - vendor/**\n';
    const edited = withRuleOff(text, 'no-debugger');
    expect(edited).toContain('# ours\n');
    expect(edited).toContain('# noisy here');
    expect(parse(edited)).toEqual({ rules: { secret: 'warning', 'no-debugger': 'off' }, ignore: ['vendor/**'] });
    expect(parse(withRuleOff('rules:\n', 'secret'))).toEqual({ rules: { secret: 'off' } });
  });

  it('writes .diff-review.json as JSON', () => {
    expect(JSON.parse(withRuleOff('{"ignore": ["a"]}', 'secret', true))).toEqual({
      ignore: ['a'],
      rules: { secret: 'off' },
    });
  });

  it('refuses a file that is not a mapping, and rule ids a config cannot name', () => {
    expect(() => withRuleOff('- a\n', 'secret')).toThrow(/must be a mapping/);
    expect(isConfigurableRule('no-debugger')).toBe(true);
    expect(isConfigurableRule('review-truncated')).toBe(false);
  });
});

describe('the diffReview.rules setting', () => {
  it('lists every rule a config may name, with the settings a config takes', () => {
    const manifest = JSON.parse(
      readFileSync(path.join(import.meta.dirname, '..', '..', 'extension', 'package.json'), 'utf8'),
    );
    const rules = manifest.contributes.configuration
      .map((category: { properties: Record<string, unknown> }) => category.properties['diffReview.rules'])
      .find(Boolean);
    expect(Object.keys(rules.properties).sort()).toEqual(CONFIGURABLE_RULES.map((rule) => rule.id).sort());
    for (const [id, setting] of Object.entries(rules.properties)) {
      expect((setting as { enum: string[] }).enum).toEqual(['off', 'error', 'warning', 'info']);
      // the settings' words are the rules' own: a rule's summary changed is its setting changed
      const rule = CONFIGURABLE_RULES.find((candidate) => candidate.id === id)!;
      expect((setting as { description: string }).description, id).toBe(`${rule.summary} (default: ${rule.severity})`);
    }
  });
});

describe("the rules' pages in a review's SARIF", () => {
  it('are read by rule id; anything else is skipped', () => {
    const sarif = {
      runs: [
        { tool: { driver: { rules: [{ id: 'a', help: { markdown: '# a' } }, { id: 'b', help: { text: 'b' } }, 7] } } },
        { nothing: true },
      ],
    };
    expect([...ruleHelpFromSarif(sarif)]).toEqual([['a', '# a']]);
    expect(ruleHelpFromSarif(undefined).size).toBe(0);
  });
});
