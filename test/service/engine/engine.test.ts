import { describe, expect, it } from 'vitest';
import { InvalidDiffError, reviewDiff, RULES } from '../../../service/engine/index.ts';
import { FAKE_GITHUB_TOKEN, findings, modifiedFileDiff, newFileDiff } from './review-helpers.ts';

describe('reviewDiff', () => {
  it('rejects text that is not a diff with InvalidDiffError', async () => {
    await expect(reviewDiff('just some words')).rejects.toBeInstanceOf(InvalidDiffError);
  });

  it('returns no findings for a valid diff that adds no lines', async () => {
    const diff = ['diff --git a/x.js b/x.js', '--- a/x.js', '+++ b/x.js', '@@ -1,2 +1 @@', ' keep', '-debugger;', ''].join('\n');
    expect(await reviewDiff(diff)).toEqual({ findings: [], stats: { files: 1, addedLines: 0 } });
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
    expect(finding).toMatchObject({ rule_id: 'secret', severity: 'error', line: 1, start_column: 12, end_column: 12 + FAKE_GITHUB_TOKEN.length });
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
      expect((await findings('a.js', ['// diff-review-ignore no-eval', 'debugger;'])).map((f) => f.rule_id)).toEqual(['no-debugger']);
      expect((await findings('a.js', ['const s = "diff-review-ignore"; debugger;'])).map((f) => f.rule_id)).toEqual(['no-debugger']);
    });

    it('reads the directive on a context line above', async () => {
      const diff = modifiedFileDiff('a.py', ['# diff-review-ignore'], ['breakpoint()']);
      expect((await reviewDiff(diff)).findings).toEqual([]);
    });
  });

  describe('configuration', () => {
    it('turns a rule off or changes its severity', async () => {
      const lines = ['debugger;', 'eval(x);'];
      expect((await findings('a.js', lines, { rules: { 'no-debugger': 'off' } })).map((f) => f.rule_id)).toEqual(['no-eval']);
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
    const deleted = ['diff --git a/.env b/.env', 'deleted file mode 100644', '--- a/.env', '+++ /dev/null', '@@ -1 +0,0 @@', '-SECRET=1', ''].join('\n');
    expect((await reviewDiff(deleted)).findings).toEqual([]);
  });

  it('does not flag a lockfile whose manifest changed too', async () => {
    const diff = newFileDiff('package-lock.json', ['{']) + newFileDiff('package.json', ['{']);
    expect((await reviewDiff(diff)).findings.map((f) => f.rule_id)).not.toContain('lockfile-without-manifest');
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
