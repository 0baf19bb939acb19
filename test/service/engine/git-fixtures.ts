// Real `git diff`, `git format-patch`, `git show` and `diff -u` output, made in a temporary
// repository, with what a parser must read from each.
import { execFileSync } from 'node:child_process';
import { chmodSync, unlinkSync, renameSync } from 'node:fs';
import { git, makeRepo } from '../../support/git-repo.ts';
import { join } from 'node:path';

export { git, makeRepo };

export interface ExpectedFile {
  oldPath: string | null;
  newPath: string | null;
  status: 'added' | 'deleted' | 'modified' | 'renamed' | 'copied';
  binary?: boolean;
  /** Every added line: [new-file line, text]. */
  added: Array<[number, string]>;
}

export interface DiffFixture {
  name: string;
  diff: string;
  files: ExpectedFile[];
}

/** `diff` exits 1 when the files differ; that is not an error here. */
export function plainDiff(cwd: string, ...args: string[]): string {
  try {
    return execFileSync('diff', args, { cwd, encoding: 'utf8' });
  } catch (error) {
    const e = error as { status?: number; stdout?: string };
    if (e.status === 1 && typeof e.stdout === 'string') return e.stdout;
    throw error;
  }
}

const lines = (count: number, prefix: string): string =>
  `${Array.from({ length: count }, (_, i) => `${prefix} ${i + 1}`).join('\n')}\n`;

/** Builds every fixture in one repository. */
export function buildGitFixtures(): DiffFixture[] {
  const repo = makeRepo();
  const { dir } = repo;
  try {
    const fixtures: DiffFixture[] = [];
    // Base commit.
    repo.write('src/app.js', lines(20, 'line'));
    repo.write('src/gone.js', 'a\nb\n');
    repo.write('src/old name.js', lines(30, 'stay'));
    repo.write('src/moved.js', lines(30, 'moved'));
    repo.write('src/copy-source.js', lines(40, 'copy'));
    repo.write('bin/run.sh', '#!/bin/sh\necho hi\n');
    repo.write('db/schema.sql', '-- a comment\nSELECT 1;\n++ not a header\n');
    repo.write('crlf.txt', 'one\r\ntwo\r\nthree\r\n');
    repo.write('nonl.txt', 'first\nlast');
    repo.commit('base');
    const base = git(dir, 'rev-parse', 'HEAD').trim();

    git(dir, 'checkout', '-q', '-b', 'feature');
    // Modify with two hunks.
    const app = lines(20, 'line').split('\n');
    app.splice(1, 0, 'inserted after 1');
    app.splice(16, 1, 'replaced 16');
    repo.write('src/app.js', app.join('\n'));
    // New, deleted, renamed (no change), renamed (changed), copied, mode change.
    repo.write('src/new file.js', 'const x = 1;\nconst y = 2;\n');
    unlinkSync(join(dir, 'src/gone.js'));
    renameSync(join(dir, 'src/moved.js'), join(dir, 'lib/moved.js'.replace('lib/', 'src/lib-')));
    const renamed = lines(30, 'stay').split('\n');
    renamed[4] = 'changed 5';
    unlinkSync(join(dir, 'src/old name.js'));
    repo.write('src/new name.js', renamed.join('\n'));
    repo.write('src/copy-target.js', `${lines(40, 'copy')}extra\n`);
    chmodSync(join(dir, 'bin/run.sh'), 0o755);
    // Binary, quoted non-ASCII path, lines that look like headers, CRLF, no newline at end.
    repo.write('img/logo.png', Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0xff, 0]));
    repo.write('docs/été.txt', 'bonjour\n');
    repo.write('db/schema.sql', '-- another comment\nSELECT 1;\n++ still not a header\n--- nor this\n');
    repo.write('crlf.txt', 'one\r\n2\r\nthree\r\n');
    repo.write('nonl.txt', 'first\nlast line');
    repo.commit('feature: many kinds of change\n\nA body line.\n--- not a header in the message\n+++ nor this\n');

    const expected: ExpectedFile[] = [
      { oldPath: 'bin/run.sh', newPath: 'bin/run.sh', status: 'modified', added: [] },
      { oldPath: 'crlf.txt', newPath: 'crlf.txt', status: 'modified', added: [[2, '2']] },
      {
        oldPath: 'db/schema.sql',
        newPath: 'db/schema.sql',
        status: 'modified',
        added: [
          [1, '-- another comment'],
          [3, '++ still not a header'],
          [4, '--- nor this'],
        ],
      },
      { oldPath: null, newPath: 'docs/été.txt', status: 'added', added: [[1, 'bonjour']] },
      { oldPath: null, newPath: 'img/logo.png', status: 'added', binary: true, added: [] },
      { oldPath: 'nonl.txt', newPath: 'nonl.txt', status: 'modified', added: [[2, 'last line']] },
      {
        oldPath: 'src/app.js',
        newPath: 'src/app.js',
        status: 'modified',
        added: [
          [2, 'inserted after 1'],
          [17, 'replaced 16'],
        ],
      },
      { oldPath: 'src/copy-source.js', newPath: 'src/copy-target.js', status: 'copied', added: [[41, 'extra']] },
      { oldPath: 'src/gone.js', newPath: null, status: 'deleted', added: [] },
      { oldPath: 'src/moved.js', newPath: 'src/lib-moved.js', status: 'renamed', added: [] },
      {
        oldPath: null,
        newPath: 'src/new file.js',
        status: 'added',
        added: [
          [1, 'const x = 1;'],
          [2, 'const y = 2;'],
        ],
      },
      { oldPath: 'src/old name.js', newPath: 'src/new name.js', status: 'renamed', added: [[5, 'changed 5']] },
    ];
    const byNewOrOld = (a: ExpectedFile, b: ExpectedFile) =>
      (a.newPath ?? a.oldPath)!.localeCompare((b.newPath ?? b.oldPath)!);

    fixtures.push({
      name: 'git diff (renames, copies, binary, quoted paths)',
      diff: git(dir, 'diff', '-M', '-C', '--find-copies-harder', base, 'HEAD'),
      files: expected,
    });
    fixtures.push({
      name: 'git diff three-dot',
      diff: git(dir, 'diff', '-M', '-C', '--find-copies-harder', `main...feature`),
      files: expected,
    });
    fixtures.push({
      name: 'git diff --binary (GIT binary patch)',
      diff: git(dir, 'diff', '--binary', '-M', '-C', '--find-copies-harder', base, 'HEAD'),
      files: expected,
    });
    fixtures.push({
      name: 'git format-patch',
      diff: git(dir, 'format-patch', '-M', '-C', '--find-copies-harder', '--stdout', `${base}..HEAD`),
      files: expected,
    });
    fixtures.push({
      name: 'git show',
      diff: git(dir, 'show', '-M', '-C', '--find-copies-harder', 'HEAD'),
      files: expected,
    });
    fixtures.push({
      name: 'git diff --no-prefix',
      diff: git(dir, 'diff', '--no-prefix', '-M', '-C', '--find-copies-harder', base, 'HEAD'),
      files: expected,
    });
    fixtures.push({
      name: 'git diff -U0 (omitted counts)',
      diff: git(dir, 'diff', '-U0', '-M', '-C', '--find-copies-harder', base, 'HEAD'),
      files: expected,
    });

    // Plain diff -u between two folders.
    repo.write('plain/a/hello.txt', 'one\ntwo\nthree\n');
    repo.write('plain/b/hello.txt', 'one\n2\nthree\nfour\n');
    repo.write('plain/b/added.txt', 'fresh\n');
    fixtures.push({
      name: 'diff -ruN',
      diff: plainDiff(join(dir, 'plain'), '-ruN', 'a', 'b'),
      files: [
        { oldPath: null, newPath: 'added.txt', status: 'added', added: [[1, 'fresh']] },
        {
          oldPath: 'hello.txt',
          newPath: 'hello.txt',
          status: 'modified',
          added: [
            [2, '2'],
            [4, 'four'],
          ],
        },
      ],
    });
    for (const f of fixtures) f.files.sort(byNewOrOld);
    return fixtures;
  } finally {
    repo.cleanup();
  }
}
