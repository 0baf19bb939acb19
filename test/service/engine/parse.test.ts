import { beforeAll, describe, expect, it } from 'vitest';
import { parseUnifiedDiff } from '../../../service/engine/diff/parse.ts';
import type { ParsedDiff } from '../../../service/engine/diff/model.ts';
import { InvalidDiffError } from '../../../service/engine/types.ts';
import { buildGitFixtures } from './git-fixtures.ts';
import type { DiffFixture } from './git-fixtures.ts';

const added = (parsed: ParsedDiff, path: string) =>
  parsed.files
    .find((f) => f.newPath === path)!
    .hunks.flatMap((h) => h.lines.filter((l) => l.kind === '+').map((l) => [l.newLine, l.text]));

describe('parseUnifiedDiff on real git and diff output', () => {
  let fixtures: DiffFixture[] = [];
  beforeAll(() => {
    fixtures = buildGitFixtures();
  });

  it('builds the fixtures', () => {
    expect(fixtures.map((f) => f.name)).toHaveLength(8);
  });

  for (const name of [
    'git diff (renames, copies, binary, quoted paths)',
    'git diff three-dot',
    'git diff --binary (GIT binary patch)',
    'git format-patch',
    'git show',
    'git diff --no-prefix',
    'git diff -U0 (omitted counts)',
    'diff -ruN',
  ]) {
    it(`reads ${name}`, () => {
      const fixture = fixtures.find((f) => f.name === name)!;
      const parsed = parseUnifiedDiff(fixture.diff);
      const got = parsed.files
        .map((f) => ({
          oldPath: f.oldPath,
          newPath: f.newPath,
          status: f.status,
          ...(f.binary ? { binary: true } : {}),
          added: f.hunks.flatMap((h) =>
            h.lines.filter((l) => l.kind === '+').map((l) => [l.newLine, l.text] as [number, string]),
          ),
        }))
        .sort((a, b) => (a.newPath ?? a.oldPath)!.localeCompare((b.newPath ?? b.oldPath)!));
      expect(got).toEqual(fixture.files);
    });
  }

  it('reads mode changes and similarity', () => {
    const parsed = parseUnifiedDiff(fixtures[0]!.diff);
    const script = parsed.files.find((f) => f.newPath === 'bin/run.sh')!;
    expect([script.oldMode, script.newMode]).toEqual(['100644', '100755']);
    expect(parsed.files.find((f) => f.newPath === 'src/lib-moved.js')!.similarity).toBe(100);
  });
});

describe('parseUnifiedDiff edge cases', () => {
  it('counts a blank line inside a hunk as context while the counts say lines remain', () => {
    const diff = [
      '--- a/x.py',
      '+++ b/x.py',
      '@@ -1,4 +1,5 @@',
      ' def f():',
      '',
      '     pass',
      '+    added',
      ' end',
      '',
    ].join('\n');
    expect(added(parseUnifiedDiff(diff), 'x.py')).toEqual([[4, '    added']]);
  });

  it('reads content lines that start with --- and +++ by the hunk counts', () => {
    const diff = [
      'diff --git a/a.md b/a.md',
      '--- a/a.md',
      '+++ b/a.md',
      '@@ -1,2 +1,2 @@',
      '--- old rule',
      '+++ new rule',
      ' keep',
      'diff --git a/b.md b/b.md',
      '--- a/b.md',
      '+++ b/b.md',
      '@@ -1 +1 @@',
      '-x',
      '+y',
    ].join('\n');
    const parsed = parseUnifiedDiff(diff);
    expect(parsed.files.map((f) => f.newPath)).toEqual(['a.md', 'b.md']);
    expect(added(parsed, 'a.md')).toEqual([[1, '++ new rule']]);
    expect(added(parsed, 'b.md')).toEqual([[1, 'y']]);
  });

  it('reads a diff with CRLF line endings throughout', () => {
    const diff = [
      'diff --git a/w.txt b/w.txt',
      'index 1..2 100644',
      '--- a/w.txt',
      '+++ b/w.txt',
      '@@ -1,2 +1,2 @@',
      ' a',
      '-b',
      '+c',
      '',
    ].join('\r\n');
    expect(added(parseUnifiedDiff(diff), 'w.txt')).toEqual([[2, 'c']]);
  });

  it('skips "\\ No newline at end of file" between the old and the new line', () => {
    const diff = [
      '--- a/n.txt',
      '+++ b/n.txt',
      '@@ -1 +1,2 @@',
      '-last',
      '\\ No newline at end of file',
      '+last',
      '+more',
      '\\ No newline at end of file',
      '',
    ].join('\n');
    expect(added(parseUnifiedDiff(diff), 'n.txt')).toEqual([
      [1, 'last'],
      [2, 'more'],
    ]);
  });

  it('decodes C-quoted paths with octal escapes and spaces', () => {
    const diff = [
      'diff --git "a/caf\\303\\251 menu.txt" "b/caf\\303\\251 carte.txt"',
      'similarity index 90%',
      'rename from "caf\\303\\251 menu.txt"',
      'rename to "caf\\303\\251 carte.txt"',
      '--- "a/caf\\303\\251 menu.txt"',
      '+++ "b/caf\\303\\251 carte.txt"',
      '@@ -1 +1 @@',
      '-a',
      '+b',
    ].join('\n');
    const [file] = parseUnifiedDiff(diff).files;
    expect(file).toMatchObject({
      oldPath: 'café menu.txt',
      newPath: 'café carte.txt',
      status: 'renamed',
      similarity: 90,
    });
  });

  it('reads pure renames, mode-only changes and binary files without hunks', () => {
    const diff = [
      'diff --git a/dir with space/x.js b/dir with space/x.js',
      'old mode 100644',
      'new mode 100755',
      'diff --git a/old.txt b/new.txt',
      'similarity index 100%',
      'rename from old.txt',
      'rename to new.txt',
      'diff --git a/i.png b/i.png',
      'index 1..2 100644',
      'Binary files a/i.png and b/i.png differ',
      'diff --git a/j.bin b/j.bin',
      'new file mode 100644',
      'index 0000000..1111111',
      'GIT binary patch',
      'literal 3',
      'KcmZ>E%Kz~',
      '',
      'literal 0',
      'HcmV?d00001',
      '',
    ].join('\n');
    const files = parseUnifiedDiff(diff).files;
    expect(files.map((f) => [f.oldPath, f.newPath, f.status, f.binary, f.hunks.length])).toEqual([
      ['dir with space/x.js', 'dir with space/x.js', 'modified', false, 0],
      ['old.txt', 'new.txt', 'renamed', false, 0],
      ['i.png', 'i.png', 'modified', true, 0],
      [null, 'j.bin', 'added', true, 0],
    ]);
  });

  it('reads new and deleted files (/dev/null) and plain diff timestamps', () => {
    const diff = [
      '--- /dev/null\t2024-01-01 00:00:00.000000000 +0000',
      '+++ new.txt\t2024-01-02 00:00:00.000000000 +0000',
      '@@ -0,0 +1,2 @@',
      '+one',
      '+two',
      '--- gone.txt\t2024-01-01 00:00:00.000000000 +0000',
      '+++ /dev/null\t2024-01-02 00:00:00.000000000 +0000',
      '@@ -1 +0,0 @@',
      '-bye',
    ].join('\n');
    const files = parseUnifiedDiff(diff).files;
    expect(files.map((f) => [f.oldPath, f.newPath, f.status, f.addedLines])).toEqual([
      [null, 'new.txt', 'added', 2],
      ['gone.txt', null, 'deleted', 0],
    ]);
  });

  it('computes new line numbers across several hunks', () => {
    const diff = [
      '--- a/f',
      '+++ b/f',
      '@@ -1,2 +1,3 @@',
      ' a',
      '+b',
      ' c',
      '@@ -10,3 +11,2 @@',
      ' j',
      '-k',
      ' l',
      '@@ -20 +20,2 @@',
      ' t',
      '+u',
    ].join('\n');
    expect(added(parseUnifiedDiff(diff), 'f')).toEqual([
      [2, 'b'],
      [21, 'u'],
    ]);
  });

  it('skips combined diffs of merge commits', () => {
    const diff = [
      'diff --cc f.txt',
      'index 1,2..3',
      '@@@ -1,1 -1,1 +1,1 @@@',
      '- a',
      ' -b',
      '++c',
      'diff --git a/g b/g',
      '--- a/g',
      '+++ b/g',
      '@@ -1 +1 @@',
      '-x',
      '+y',
    ].join('\n');
    const files = parseUnifiedDiff(diff).files;
    expect(files.map((f) => f.newPath)).toEqual(['g']);
  });

  it('keeps what it read of a truncated hunk', () => {
    const diff = ['--- a/t', '+++ b/t', '@@ -1,5 +1,6 @@', ' a', '+b'].join('\n');
    expect(added(parseUnifiedDiff(diff), 't')).toEqual([[2, 'b']]);
  });

  it('accepts a commit without changes as an empty diff', () => {
    const text = ['commit 0123456789abcdef0123456789abcdef01234567', 'Author: A <a@example.com>', '', '    empty'].join(
      '\n',
    );
    expect(parseUnifiedDiff(text).files).toEqual([]);
  });

  it.each([
    ['plain text', 'hello world\nthis is not a diff\n'],
    ['JSON', '{"diff": "x"}'],
    ['empty', ''],
    ['a hunk before any file header', '@@ -1 +1 @@\n-a\n+b\n'],
  ])('rejects %s with InvalidDiffError saying what was expected', (_name, text) => {
    expect(() => parseUnifiedDiff(text)).toThrow(InvalidDiffError);
    try {
      parseUnifiedDiff(text);
    } catch (error) {
      expect((error as InvalidDiffError).code).toBe('invalid_diff');
      expect((error as Error).message).toMatch(/diff --git|--- a\/x/);
    }
  });

  it('rejects a malformed hunk header with its line number', () => {
    expect(() => parseUnifiedDiff('--- a/x\n+++ b/x\n@@ -a +b @@\n+x\n')).toThrow(/Line 3: expected a hunk header/);
  });

  describe('line numbers a review can report (1 to 2,147,483,647)', () => {
    const hunk = (header: string, lines: string[]) => ['--- a/x', '+++ b/x', header, ...lines, ''].join('\n');

    it('reads a hunk whose last line is exactly 2,147,483,647', () => {
      const parsed = parseUnifiedDiff(hunk('@@ -2147483646,1 +2147483646,2 @@', [' a', '+b']));
      expect(added(parsed, 'x')).toEqual([[2147483647, 'b']]);
      expect(added(parseUnifiedDiff(hunk('@@ -2147483647 +2147483647 @@', ['-a', '+b'])), 'x')).toEqual([
        [2147483647, 'b'],
      ]);
    });

    it('refuses a hunk whose lines run one past it, or far past it', () => {
      for (const header of [
        '@@ -2147483647,1 +2147483647,2 @@',
        '@@ -1 +4294967295 @@',
        '@@ -1 +99999999999999999999,1 @@',
      ]) {
        expect(() => parseUnifiedDiff(hunk(header, [' a', '+b']))).toThrow(InvalidDiffError);
        expect(() => parseUnifiedDiff(hunk(header, [' a', '+b']))).toThrow(/Line 3: .*2,147,483,647/);
      }
      // The old side too: its numbers are part of the parsed diff.
      expect(() => parseUnifiedDiff(hunk('@@ -2147483647,2 +1,2 @@', [' a', '-b', '+c']))).toThrow(
        /Line 3: .*2,147,483,647/,
      );
    });

    it('refuses added lines numbered 0 (a new side that starts at 0 has no lines)', () => {
      expect(() => parseUnifiedDiff(hunk('@@ -0,0 +0,1 @@', ['+a']))).toThrow(/Line 3: .*line 0/);
      // An empty new side at 0 is a deleted file: fine.
      expect(parseUnifiedDiff(hunk('@@ -1 +0,0 @@', ['-a'])).files).toHaveLength(1);
    });
  });
});
