import { describe, expect, it } from 'vitest';
import {
  createEngine,
  InvalidDiffError,
  ReviewStoppedError,
  reviewDiff,
  RULES,
} from '../../../service/engine/index.ts';
import { patternRule } from '../../../service/engine/rules/rule.ts';
import { FAKE_GITHUB_TOKEN, findings, modifiedFileDiff, newFileDiff } from './review-helpers.ts';

describe('reviewDiff', () => {
  it('rejects text that is not a diff with InvalidDiffError', async () => {
    await expect(reviewDiff('just some words')).rejects.toBeInstanceOf(InvalidDiffError);
  });

  it('rejects line numbers past 2,147,483,647 (they came back as -2147483648) with InvalidDiffError', async () => {
    const diff = [
      'diff --git a/x.js b/x.js',
      '--- a/x.js',
      '+++ b/x.js',
      '@@ -2147483647,1 +2147483647,2 @@',
      ' a',
      '+debugger;',
      '',
    ].join('\n');
    await expect(reviewDiff(diff)).rejects.toBeInstanceOf(InvalidDiffError);
  });

  it('stops between files when asked (ReviewStoppedError), and the same engine then reviews normally', async () => {
    const engine = createEngine();
    const diff = Array.from({ length: 50 }, (_, i) => newFileDiff(`src/f${i}.js`, ['debugger;'])).join('');
    let asked = 0;
    const stopAfter = (n: number) => () => ++asked > n;
    await expect(engine.review(diff, { stopped: stopAfter(10) })).rejects.toBeInstanceOf(ReviewStoppedError);
    expect(asked).toBe(11); // it stopped at the first check that said so
    asked = 0;
    expect((await engine.review(diff, { stopped: () => false })).findings).toHaveLength(50);
    expect(asked).toBe(0);
  });

  it('returns no findings for a valid diff that adds no lines', async () => {
    const diff = [
      'diff --git a/x.js b/x.js',
      '--- a/x.js',
      '+++ b/x.js',
      '@@ -1,2 +1 @@',
      ' keep',
      '-debugger;',
      '',
    ].join('\n');
    expect(await reviewDiff(diff)).toEqual({ findings: [], suppressed: [], stats: { files: 1, addedLines: 0 } });
  });

  it('comments on added lines only, with new-file line numbers', async () => {
    const diff = modifiedFileDiff('src/a.js', ['debugger;', 'ok();'], ['ok();', 'debugger;']);
    const result = await reviewDiff(diff);
    expect(result.findings.map((f) => [f.rule_id, f.file_path, f.line])).toEqual([['no-debugger', 'src/a.js', 4]]);
    expect(result.stats).toEqual({ files: 1, addedLines: 2 });
  });

  it('fires on ======= only inside a conflict block', async () => {
    const found = await findings('src/a.ts', ['<<<<<<< HEAD', 'a', '=======', 'b', '>>>>>>> main']);
    expect(found.map((f) => f.line)).toEqual([1, 3, 5]);
    expect(await findings('README.md', ['Title', '=======', 'text'])).toEqual([]);
  });

  it('never echoes a secret in its message', async () => {
    const [finding] = await findings('src/c.js', [`const t = "${FAKE_GITHUB_TOKEN}";`]);
    expect(finding).toMatchObject({
      rule_id: 'secret',
      severity: 'error',
      line: 1,
      start_column: 12,
      end_column: 12 + FAKE_GITHUB_TOKEN.length,
    });
    expect(finding!.message).toMatch(/^secret: /);
    expect(finding!.message).not.toContain(FAKE_GITHUB_TOKEN.slice(4, 12));
  });

  it('starts every message with its rule id and uses only known severities', async () => {
    const found = await findings('src/app.js', ['debugger;', 'eval(x); // TODO: remove', 'el.innerHTML = x;']);
    expect(found.length).toBeGreaterThanOrEqual(4);
    for (const f of found) {
      expect(f.message.startsWith(`${f.rule_id}: `)).toBe(true);
      expect(['error', 'warning', 'info']).toContain(f.severity);
    }
  });

  it('sorts by file then line and gives one finding per rule per line', async () => {
    const diff = newFileDiff('b.js', ['debugger; debugger;', 'x']) + newFileDiff('a.js', ['x', 'debugger;']);
    const found = (await reviewDiff(diff)).findings;
    expect(found.map((f) => [f.file_path, f.line, f.rule_id])).toEqual([
      ['a.js', 2, 'no-debugger'],
      ['b.js', 1, 'no-debugger'],
    ]);
  });

  describe('suppression', () => {
    it('honours diff-review-ignore on the line and on the line above', async () => {
      expect(await findings('a.js', ['debugger; // diff-review-ignore'])).toEqual([]);
      expect(await findings('a.js', ['// diff-review-ignore no-debugger', 'debugger;'])).toEqual([]);
      expect(await findings('a.js', ['// diff-review-ignore no-eval, no-debugger', 'debugger;'])).toEqual([]);
    });

    it('only for the rules it names, and only in a comment', async () => {
      expect((await findings('a.js', ['// diff-review-ignore no-eval', 'debugger;'])).map((f) => f.rule_id)).toEqual([
        'no-debugger',
      ]);
      expect((await findings('a.js', ['const s = "diff-review-ignore"; debugger;'])).map((f) => f.rule_id)).toEqual([
        'no-debugger',
      ]);
    });

    it('reads the directive on a context line above', async () => {
      const diff = modifiedFileDiff('a.py', ['# diff-review-ignore'], ['breakpoint()']);
      expect((await reviewDiff(diff)).findings).toEqual([]);
    });
  });

  describe('configuration', () => {
    it('turns a rule off or changes its severity', async () => {
      const lines = ['debugger;', 'eval(x);'];
      expect((await findings('a.js', lines, { rules: { 'no-debugger': 'off' } })).map((f) => f.rule_id)).toEqual([
        'no-eval',
      ]);
      const changed = await findings('a.js', lines, { rules: { 'no-debugger': 'error' } });
      expect(changed.find((f) => f.rule_id === 'no-debugger')!.severity).toBe('error');
    });

    it('caps findings and says how many were cut', async () => {
      const lines = Array.from({ length: 10 }, () => 'debugger;');
      const found = await findings('a.js', lines, { maxFindings: 3 });
      expect(found).toHaveLength(4);
      expect(found[3]).toMatchObject({ rule_id: 'review-truncated', severity: 'info', file_path: 'a.js', line: 4 });
      expect(found[3]!.message).toMatch(/^review-truncated: 7 more findings/);
      expect(await findings('a.js', lines)).toHaveLength(10);
    });
  });

  describe('fingerprints', () => {
    it('are hex, stable across line shifts, and distinct for repeated lines', async () => {
      const before = await findings('a.js', ['x', 'debugger;', 'debugger;']);
      const after = await findings('a.js', ['x', 'y', 'z', 'debugger;', 'debugger;']);
      expect(before.map((f) => f.fingerprint)).toEqual(after.map((f) => f.fingerprint));
      expect(new Set(before.map((f) => f.fingerprint)).size).toBe(2);
      for (const f of before) expect(f.fingerprint).toMatch(/^[0-9a-f]{16,32}$/);
    });
  });

  it('comments once per file for file rules, and not at all on deleted files', async () => {
    const big = Array.from({ length: 2500 }, (_, i) => `export const v${i} = ${i};`);
    const found = await findings('src/data.ts', big);
    expect(found.filter((f) => f.rule_id === 'large-file').map((f) => f.line)).toEqual([1]);
    const deleted = [
      'diff --git a/.env b/.env',
      'deleted file mode 100644',
      '--- a/.env',
      '+++ /dev/null',
      '@@ -1 +0,0 @@',
      '-SECRET=1',
      '',
    ].join('\n');
    expect((await reviewDiff(deleted)).findings).toEqual([]);
  });

  it('does not flag a lockfile whose manifest changed too', async () => {
    const diff = newFileDiff('package-lock.json', ['{']) + newFileDiff('package.json', ['{']);
    expect((await reviewDiff(diff)).findings.map((f) => f.rule_id)).not.toContain('lockfile-without-manifest');
  });

  it('plans any number of rules (a numeric plan key overflowed past 52 bits)', async () => {
    // 120 rules, half with a keyword list per language: far more than 52 bits of "applies / which list".
    const rules = Array.from({ length: 120 }, (_, i) =>
      patternRule({
        id: `rule-${i}`,
        severity: 'info',
        summary: `Rule number ${i}.`,
        help: 'None needed.',
        message: `rule ${i}`,
        files: (path) => i % 3 !== 0 || path.endsWith('.js'),
        keywords: [`kw${i}x`, `alt${i}y`],
        ...(i % 2 === 0 ? { keywordsFor: (path: string) => (path.endsWith('.py') ? [`alt${i}y`] : [`kw${i}x`]) } : {}),
        in: 'text',
        pattern: new RegExp(`kw${i}x|alt${i}y`),
      }),
    );
    const engine = createEngine(undefined, { rules });
    const diff =
      newFileDiff('a.js', ['kw0x kw3x', 'kw119x']) +
      newFileDiff('b.py', ['kw3x alt4y kw4x', 'alt119y']) +
      newFileDiff('c.ts', ['kw3x kw5x']);
    const found = (await engine.review(diff)).findings.map((f) => `${f.file_path}:${f.line} ${f.rule_id}`);
    expect(found).toEqual([
      'a.js:1 rule-0',
      'a.js:1 rule-3',
      'a.js:2 rule-119',
      'b.py:1 rule-4',
      'b.py:2 rule-119',
      'c.ts:1 rule-5',
    ]);
  });

  it('lists metadata of every rule', () => {
    for (const rule of RULES) {
      expect(rule.id).toMatch(/^[a-z]+(?:-[a-z]+)*$/);
      expect(rule.summary.length).toBeGreaterThan(10);
      expect(rule.help.length).toBeGreaterThan(10);
    }
    expect(new Set(RULES.map((r) => r.id)).size).toBe(RULES.length);
  });
});
