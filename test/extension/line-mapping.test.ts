// Comments of a review of HEAD placed on a working tree with uncommitted edits, and on an editor
// with unsaved ones: real git repositories, real diffs.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ReviewComment } from '../../service/api/schemas.ts';
import { planDiagnostics, splitLines } from '../../extension/src/comment-mapping.ts';
import {
  currentLineMaps,
  diffLineHunks,
  mapLineThroughHunks,
  hunksOf,
  uncommittedHunks,
  type CurrentText,
} from '../../extension/src/line-mapping.ts';
import { createSandbox, type Sandbox } from '../service/git/repo-fixture.ts';

const APP = ['function main() {', '  const x = 1;', '  debugger;', '  return x;', '}', ''].join('\n');
const CONFIG = ['region = "eu-west-1"', 'aws_secret_access_key = "…"', 'timeout = 3', ''].join('\n');
const comments: ReviewComment[] = [
  { file_path: 'src/app.js', line: 3, severity: 'warning', message: 'no-debugger: Remove the debugger statement.' },
  { file_path: 'config.py', line: 2, severity: 'error', message: 'secret: A secret was added.' },
  { file_path: 'config.py', line: 3, severity: 'info', message: 'todo: x' },
];

let sandbox: Sandbox;
let repo: string;
let head: string;

beforeAll(() => {
  sandbox = createSandbox();
  repo = join(sandbox.dir, 'repo');
  sandbox.git(sandbox.dir, 'init', '-q', repo);
  head = sandbox.commit(repo, 'add', { 'src/app.js': APP, 'config.py': CONFIG, 'notes.md': 'a\n' });
});
afterAll(() => sandbox?.remove());

const readLines = (file: string) => splitLines(readFileSync(join(repo, file), 'utf8'));
async function place(
  texts: Map<string, CurrentText>,
  changedLine: 'drop' | 'stale' = 'drop',
  reviewed: 'commit' | 'working tree' = 'commit',
) {
  const maps = await currentLineMaps(repo, texts, {
    reviewedCommit: reviewed === 'commit' ? head : undefined,
    env: sandbox.env,
  });
  return planDiagnostics(repo, comments, 'info', (file) => texts.get(file)?.lines, {
    lineMapOf: (file) => maps.get(file),
    changedLine,
  });
}
const onDisk = (...files: string[]) => new Map(files.map((file) => [join(repo, file), { lines: readLines(file) }]));
const lines = (plan: Awaited<ReturnType<typeof place>>, file: string) =>
  plan.files.get(join(repo, file))?.map((d) => [d.line, d.code, d.lineText, d.stale ?? false]);

describe('placing comments of a review of HEAD on uncommitted edits', () => {
  it('shifts a comment by the lines inserted above it, and drops one whose line was changed', async () => {
    sandbox.write(join(repo, 'src/app.js'), `// one\n// two\n${APP}`);
    sandbox.write(
      join(repo, 'config.py'),
      CONFIG.replace('aws_secret_access_key = "…"', 'aws_secret_access_key = os.environ["KEY"]'),
    );
    try {
      const plan = await place(onDisk('src/app.js', 'config.py'));
      expect(lines(plan, 'src/app.js')).toEqual([[4, 'no-debugger', '  debugger;', false]]); // HEAD line 3 → line 5
      expect(lines(plan, 'config.py')).toEqual([[2, 'todo', 'timeout = 3', false]]);
      expect(plan.unplaced.map((u) => [u.comment.file_path, u.comment.line, u.reason])).toEqual([
        ['config.py', 2, 'its line has changed since the reviewed commit'],
      ]);

      const stale = await place(onDisk('src/app.js', 'config.py'), 'stale');
      expect(lines(stale, 'config.py')).toEqual([
        [1, 'secret', 'aws_secret_access_key = os.environ["KEY"]', true],
        [2, 'todo', 'timeout = 3', false],
      ]);
      expect(stale.unplaced).toEqual([]);
    } finally {
      sandbox.git(repo, 'checkout', '-q', '--', '.');
    }
  });

  it('follows deletions above, and leaves files without uncommitted edits alone (one git call)', async () => {
    sandbox.write(join(repo, 'src/app.js'), APP.replace('function main() {\n  const x = 1;\n', ''));
    try {
      const hunks = await uncommittedHunks(repo, head, ['src/app.js', 'config.py', 'notes.md'], { env: sandbox.env });
      expect([...hunks.keys()]).toEqual(['src/app.js']);
      expect(hunks.get('src/app.js')).toEqual([{ oldStart: 1, oldLines: 2, newStart: 0, newLines: 0 }]);
      const plan = await place(onDisk('src/app.js', 'config.py'));
      expect(lines(plan, 'src/app.js')).toEqual([[0, 'no-debugger', '  debugger;', false]]);
      expect(lines(plan, 'config.py')?.map((l) => l[0])).toEqual([1, 2]);
    } finally {
      sandbox.git(repo, 'checkout', '-q', '--', '.');
    }
  });

  it('maps through staged and unstaged edits alike, and not at all when the review included them', async () => {
    sandbox.write(join(repo, 'src/app.js'), `// staged\n${APP}`);
    sandbox.git(repo, 'add', 'src/app.js');
    sandbox.write(join(repo, 'src/app.js'), `// staged\n// unstaged\n${APP}`);
    try {
      expect(lines(await place(onDisk('src/app.js')), 'src/app.js')?.[0]?.[0]).toBe(4);
      // A review of the working tree already has the working tree's line numbers.
      expect(lines(await place(onDisk('src/app.js'), 'drop', 'working tree'), 'src/app.js')).toEqual([
        [2, 'no-debugger', 'function main() {', false],
      ]);
    } finally {
      sandbox.git(repo, 'reset', '-q', '--hard');
    }
  });

  it("goes on through an open editor's unsaved edits", async () => {
    sandbox.write(join(repo, 'src/app.js'), `// on disk\n${APP}`);
    try {
      const unsaved = `// on disk\n// unsaved 1\n// unsaved 2\n${APP}`.replace('  const x = 1;', '  const x = 2;');
      const texts = new Map([
        [join(repo, 'src/app.js'), { lines: splitLines(unsaved), diskLines: readLines('src/app.js') }],
      ]);
      expect(lines(await place(texts), 'src/app.js')).toEqual([[5, 'no-debugger', '  debugger;', false]]); // 3 → 4 (disk) → 6 (editor)
      const edited = new Map([
        [
          join(repo, 'src/app.js'),
          { lines: splitLines(unsaved.replace('  debugger;', '  // debugger;')), diskLines: readLines('src/app.js') },
        ],
      ]);
      const plan = await place(edited);
      expect(plan.files.size).toBe(0);
      expect(
        plan.unplaced.filter((u) => u.comment.file_path === 'src/app.js').map((u) => [u.comment.line, u.reason]),
      ).toEqual([[3, 'its line has changed since the reviewed commit']]);
    } finally {
      sandbox.git(repo, 'checkout', '-q', '--', '.');
    }
  });

  it("falls back to the commit's line numbers, with a warning, when git fails", async () => {
    const warnings: string[] = [];
    const maps = await currentLineMaps(repo, onDisk('src/app.js'), {
      reviewedCommit: 'f'.repeat(40),
      env: sandbox.env,
      warn: (m) => warnings.push(m),
    });
    expect(maps.size).toBe(0);
    expect(warnings.join('\n')).toMatch(/Could not compare the working tree with the reviewed commit/);
  });
});

describe('hunks', () => {
  it('reads -U0 hunks, counts defaulting to 1', () => {
    expect(
      hunksOf('diff --git a/x b/x\n--- a/x\n+++ b/x\n@@ -3 +3,2 @@ fn\n-a\n+b\n+c\n@@ -10,0 +12 @@\n+d\n'),
    ).toEqual([
      { oldStart: 3, oldLines: 1, newStart: 3, newLines: 2 },
      { oldStart: 10, oldLines: 0, newStart: 12, newLines: 1 },
    ]);
  });

  it('maps lines: kept, shifted, changed, deleted', () => {
    const hunks = [
      { oldStart: 2, oldLines: 0, newStart: 3, newLines: 2 }, // 2 lines inserted after line 2
      { oldStart: 5, oldLines: 2, newStart: 6, newLines: 0 }, // lines 5-6 deleted
      { oldStart: 9, oldLines: 1, newStart: 9, newLines: 3 }, // line 9 replaced by 3
    ];
    expect([1, 2, 3, 5, 6, 7, 8, 9, 10].map((line) => mapLineThroughHunks(hunks, line))).toEqual([
      { kind: 'kept', line: 1 },
      { kind: 'kept', line: 2 },
      { kind: 'kept', line: 5 },
      { kind: 'changed', line: 7 },
      { kind: 'changed', line: 7 },
      { kind: 'kept', line: 7 },
      { kind: 'kept', line: 8 },
      { kind: 'changed', line: 9 },
      { kind: 'kept', line: 12 },
    ]);
  });

  it("the line diff agrees with git's own -U0 diff, and every kept line keeps its text", async () => {
    const before = Array.from({ length: 60 }, (_, i) => `line ${i}`);
    const after = [...before];
    after.splice(50, 3, 'new a', 'new b');
    after.splice(20, 0, 'ins 1', 'ins 2', 'ins 3');
    after.splice(5, 2);
    after[0] = 'changed first';
    after.push('appended');
    sandbox.write(join(sandbox.dir, 'before.txt'), `${before.join('\n')}\n`);
    sandbox.write(join(sandbox.dir, 'after.txt'), `${after.join('\n')}\n`);
    let gitDiff = '';
    try {
      sandbox.git(sandbox.dir, 'diff', '--no-index', '-U0', 'before.txt', 'after.txt');
    } catch (error) {
      gitDiff = String((error as { stdout?: string }).stdout);
    }
    const ours = diffLineHunks(before, after);
    expect(ours).toEqual(hunksOf(gitDiff));
    for (let line = 1; line <= before.length; line++) {
      const mapped = mapLineThroughHunks(ours!, line);
      if (mapped.kind === 'kept') expect(after[mapped.line - 1]).toBe(before[line - 1]);
    }
    expect(diffLineHunks(before, before)).toEqual([]);
    expect(diffLineHunks(['a'], ['b', 'c', 'd'], 1)).toBeUndefined();
    expect(diffLineHunks([], ['x'])).toEqual([{ oldStart: 0, oldLines: 0, newStart: 1, newLines: 1 }]);
  });
});
