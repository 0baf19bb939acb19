import { appendFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  findBaseRef,
  findRepositoryRoot,
  GitNotFoundError,
  GitOutputTooLargeError,
  NoBaseBranchError,
  NoCommitsError,
  NoMergeBaseError,
  NotAGitRepositoryError,
  prepareReview,
  repositoryIdentifier,
  reviewRequestOf,
  stagedDiff,
} from '../../../service/git/index.ts';
import { clonedProject, createSandbox, type Sandbox } from './repo-fixture.ts';

let sandbox: Sandbox;
beforeEach(() => {
  sandbox = createSandbox();
});
afterEach(() => sandbox.remove());

const prepare = (cwd: string, options: Omit<Parameters<typeof prepareReview>[0], 'cwd' | 'env'> = {}) =>
  prepareReview({ cwd, env: sandbox.env, ...options });

/** A repository without a remote, `main` with one commit, then branch `feature` with one more. */
function localProject(mainBranch = 'main'): { repo: string; branchPoint: string } {
  const repo = join(sandbox.dir, 'local-widgets');
  sandbox.git(sandbox.dir, 'init', '-q', '-b', mainBranch, repo);
  const branchPoint = sandbox.commit(repo, 'initial', { 'a.txt': 'one\n' });
  sandbox.git(repo, 'checkout', '-q', '-b', 'feature');
  sandbox.commit(repo, 'feature', { 'a.txt': 'one\ntwo\n' });
  return { repo, branchPoint };
}

describe('prepareReview: base branch and base commit', () => {
  it('uses origin/HEAD and the merge base, also after main moved on', async () => {
    const { work, branchPoint, mainTip } = clonedProject(sandbox);
    const prepared = await prepare(work);
    expect(prepared.baseRef).toBe('origin/main');
    expect(prepared.baseCommit).toBe(branchPoint);
    expect(prepared.baseCommit).not.toBe(mainTip);
    expect(prepared.headCommit).toBe(sandbox.git(work, 'rev-parse', 'HEAD'));
    expect(prepared.root).toBe(work);
    expect(prepared.repository).toBe('widgets');
    // Three-dot: the feature's change only, not main's later README change.
    expect(prepared.diff).toContain('diff --git a/src/feature.ts b/src/feature.ts');
    expect(prepared.diff).not.toContain('README.md');
    expect(prepared.diff).toBe(`${sandbox.git(work, 'diff', 'origin/main...HEAD')}\n`);
    expect(prepared.diffBytes).toBe(Buffer.byteLength(prepared.diff));
    expect(reviewRequestOf(prepared)).toEqual({ diff: prepared.diff, repository: 'widgets', base_commit: branchPoint });
  });

  it('falls back to origin/main when origin/HEAD is not set', async () => {
    const { work, branchPoint } = clonedProject(sandbox);
    sandbox.git(work, 'remote', 'set-head', 'origin', '--delete');
    const prepared = await prepare(work);
    expect(prepared.baseRef).toBe('origin/main');
    expect(prepared.baseCommit).toBe(branchPoint);
  });

  it('finds origin/master when the default branch is master', async () => {
    const { work, branchPoint } = clonedProject(sandbox, 'master');
    expect((await prepare(work)).baseRef).toBe('origin/master');
    sandbox.git(work, 'remote', 'set-head', 'origin', '--delete');
    const prepared = await prepare(work);
    expect(prepared.baseRef).toBe('origin/master');
    expect(prepared.baseCommit).toBe(branchPoint);
  });

  it('follows origin/HEAD to a default branch with another name', async () => {
    const { work } = clonedProject(sandbox);
    sandbox.git(work, 'push', '-q', 'origin', 'origin/main:refs/heads/develop');
    sandbox.git(work, 'fetch', '-q', 'origin');
    sandbox.git(work, 'remote', 'set-head', 'origin', 'develop');
    expect((await prepare(work)).baseRef).toBe('origin/develop');
  });

  it('uses a local main or master when there is no remote, and the folder name as repository', async () => {
    const { repo, branchPoint } = localProject();
    const prepared = await prepare(repo);
    expect(prepared).toMatchObject({ baseRef: 'main', baseCommit: branchPoint, repository: 'local-widgets' });
    expect(prepared.diff).toContain('+two');

    const other = createSandbox();
    try {
      const repo2 = join(other.dir, 'old-style');
      other.git(other.dir, 'init', '-q', '-b', 'master', repo2);
      other.commit(repo2, 'initial', { 'x.txt': 'x\n' });
      other.git(repo2, 'checkout', '-q', '-b', 'topic');
      expect((await prepareReview({ cwd: repo2, env: other.env })).baseRef).toBe('master');
    } finally {
      other.remove();
    }
  });

  it('takes an explicit base branch as written, else from origin', async () => {
    const { work, mainTip } = clonedProject(sandbox);
    sandbox.git(work, 'push', '-q', 'origin', `${mainTip}:refs/heads/release`);
    sandbox.git(work, 'fetch', '-q', 'origin');
    expect((await prepare(work, { baseBranch: 'release' })).baseRef).toBe('origin/release');
    expect((await prepare(work, { baseBranch: 'origin/main' })).baseRef).toBe('origin/main');
    sandbox.git(work, 'branch', 'release', 'origin/release');
    expect((await prepare(work, { baseBranch: 'release' })).baseRef).toBe('release');
  });

  it('throws NoBaseBranchError naming the refs tried and how to set the base', async () => {
    const repo = join(sandbox.dir, 'trunk-only');
    sandbox.git(sandbox.dir, 'init', '-q', '-b', 'trunk', repo);
    sandbox.commit(repo, 'initial', { 'a.txt': 'a\n' });
    const error = await prepare(repo).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NoBaseBranchError);
    expect((error as NoBaseBranchError).tried).toEqual(['origin/main', 'origin/master', 'main', 'master']);
    expect((error as Error).message).toMatch(/origin\/main, origin\/master, main, master/);
    expect((error as Error).message).toMatch(/Set the base branch/);

    const explicit = await prepare(repo, { baseBranch: 'develop' }).catch((e: unknown) => e);
    expect(explicit).toBeInstanceOf(NoBaseBranchError);
    expect((explicit as NoBaseBranchError).tried).toEqual(['develop', 'origin/develop']);
    expect((explicit as Error).message).toContain('"develop"');

    expect((await prepare(repo, { baseBranch: 'trunk' })).baseRef).toBe('trunk');
  });

  it('works on a detached HEAD', async () => {
    const { work, branchPoint } = clonedProject(sandbox);
    sandbox.git(work, 'checkout', '-q', '--detach', 'feature');
    const prepared = await prepare(work);
    expect(prepared.baseCommit).toBe(branchPoint);
    expect(prepared.diff).toContain('src/feature.ts');
  });

  it('returns an empty diff when the branch has no changes', async () => {
    const { repo } = localProject();
    sandbox.git(repo, 'checkout', '-q', '-b', 'empty', 'main');
    const prepared = await prepare(repo);
    expect(prepared.diff).toBe('');
    expect(prepared.diffBytes).toBe(0);
  });

  it('finds the root from a subfolder', async () => {
    const { work } = clonedProject(sandbox);
    expect((await prepare(join(work, 'src'))).root).toBe(work);
  });
});

describe('prepareReview: what the diff contains', () => {
  it('includes uncommitted changes only when asked, and untracked files only when asked too', async () => {
    const { work } = clonedProject(sandbox);
    appendFileSync(join(work, 'src/feature.ts'), 'export const unstaged = 1;\n');
    writeFileSync(join(work, 'src/staged.ts'), 'export const staged = 1;\n');
    sandbox.git(work, 'add', 'src/staged.ts');
    writeFileSync(join(work, 'new file.txt'), 'untracked\n');
    writeFileSync(join(work, '.gitignore'), 'ignored.log\n');
    writeFileSync(join(work, 'ignored.log'), 'noise\n');

    const committed = await prepare(work);
    expect(committed.includesUncommitted).toBe(false);
    expect(committed.diff).not.toContain('unstaged');
    expect(committed.diff).not.toContain('staged.ts');

    const uncommitted = await prepare(work, { includeUncommitted: true });
    expect(uncommitted.includesUncommitted).toBe(true);
    expect(uncommitted.diff).toContain('+export const unstaged = 1;');
    expect(uncommitted.diff).toContain('diff --git a/src/staged.ts b/src/staged.ts');
    expect(uncommitted.diff).not.toContain('new file.txt');
    expect(uncommitted.untrackedFiles).toEqual([]);

    const withUntracked = await prepare(work, { includeUncommitted: true, includeUntracked: true });
    expect(withUntracked.untrackedFiles.sort()).toEqual(['.gitignore', 'new file.txt']);
    expect(withUntracked.diff).toContain('diff --git a/new file.txt b/new file.txt\nnew file mode 100644\n');
    // git ends a ---/+++ name that contains a space with a TAB (for GNU patch); parsers expect it.
    expect(withUntracked.diff).toContain('--- /dev/null\n+++ b/new file.txt\t\n@@ -0,0 +1 @@\n+untracked\n');
    expect(withUntracked.diff).not.toContain('b/ignored.log');
    expect(withUntracked.diff).not.toContain('+noise');
    // The index is untouched: nothing was added with intent-to-add.
    expect(sandbox.git(work, 'status', '--porcelain')).toContain('?? "new file.txt"');
  });

  it('keeps file names with spaces and non-ASCII characters (C-quoted, git default)', async () => {
    const { repo } = localProject();
    sandbox.commit(repo, 'names', { 'docs/my notes.md': 'hello\n', 'docs/héllo wörld.md': 'ünïcode ✓\n' });
    const prepared = await prepare(repo);
    expect(prepared.diff).toContain('diff --git a/docs/my notes.md b/docs/my notes.md');
    expect(prepared.diff).toContain('+++ "b/docs/h\\303\\251llo w\\303\\266rld.md"');
    expect(prepared.diff).toContain('+ünïcode ✓');
    expect(prepared.diffBytes).toBe(Buffer.byteLength(prepared.diff, 'utf8'));
    expect(prepared.diffBytes).toBeGreaterThan(prepared.diff.length);
  });

  it('detects renames', async () => {
    const { repo } = localProject();
    sandbox.git(repo, 'mv', 'a.txt', 'b.txt');
    sandbox.commit(repo, 'rename');
    expect((await prepare(repo)).diff).toContain('rename from a.txt\nrename to b.txt');
  });

  it('gives the same diff whatever the user configuration says', async () => {
    const { work } = clonedProject(sandbox);
    sandbox.commit(work, 'more', {
      'src/feature.ts': 'export const feature = true;\n\nexport function f() {\n  return 1;\n}\n',
      'docs/é.md': 'x\n',
    });
    sandbox.git(work, 'mv', 'README.md', 'READ_ME.md');
    sandbox.commit(work, 'rename');
    const plain = await prepare(work);

    appendFileSync(
      sandbox.globalConfig,
      [
        '[diff]',
        '\tnoprefix = true',
        '\tmnemonicPrefix = true',
        '\tcontext = 10',
        '\tinterHunkContext = 5',
        '\talgorithm = patience',
        '\trenames = false',
        '\texternal = false',
        '\tsuppressBlankEmpty = true',
        '\tsubmodule = log',
        '[color]',
        '\tui = always',
        '\tdiff = always',
        '[core]',
        '\tquotepath = false',
        '\tpager = cat -A',
        '',
      ].join('\n'),
    );
    // Prove the configuration is really in effect for a plain git diff.
    expect(() => sandbox.git(work, 'diff', 'origin/main...HEAD')).toThrow(/external diff died/);
    const userDiff = sandbox.git(work, 'diff', '--no-ext-diff', 'origin/main...HEAD');
    expect(userDiff).toContain('\u001b[');
    expect(userDiff).not.toContain('a/src/feature.ts');
    const configured = await prepareReview({
      cwd: work,
      env: { ...sandbox.env, GIT_DIFF_OPTS: '--unified=0', GIT_PAGER: 'cat -A' },
    });
    expect(configured.diff).toBe(plain.diff);
    expect(configured.diff).toContain('diff --git a/src/feature.ts b/src/feature.ts');
    expect(configured.diff).toContain('rename from README.md');
    expect(configured.diff).not.toContain('\u001b[');
  });

  it('handles diffs well over 1 MB', async () => {
    const { repo } = localProject();
    const line = `${'x'.repeat(99)}\n`;
    sandbox.commit(repo, 'big', { 'big.txt': line.repeat(30_000) });
    const prepared = await prepare(repo);
    expect(prepared.diffBytes).toBeGreaterThan(3_000_000);
  });
});

describe('prepareReview: errors', () => {
  it('throws NotAGitRepositoryError outside a repository, for a missing folder and in a bare repository', async () => {
    const plain = join(sandbox.dir, 'plain');
    mkdirSync(plain);
    await expect(prepare(plain)).rejects.toBeInstanceOf(NotAGitRepositoryError);
    const missing = await prepare(join(sandbox.dir, 'missing')).catch((e: unknown) => e);
    expect(missing).toBeInstanceOf(NotAGitRepositoryError);
    expect((missing as Error).message).toMatch(/does not exist/);
    const bare = join(sandbox.dir, 'bare.git');
    sandbox.git(sandbox.dir, 'init', '-q', '--bare', bare);
    await expect(findRepositoryRoot(bare, { env: sandbox.env })).rejects.toBeInstanceOf(NotAGitRepositoryError);
  });

  it('throws GitNotFoundError when git cannot be started', async () => {
    const { repo } = localProject();
    const error = await prepareReview({ cwd: repo, env: sandbox.env, git: join(sandbox.dir, 'no-such-git') }).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(GitNotFoundError);
    expect((error as Error).message).toMatch(/Install Git/);
  });

  it('throws NoCommitsError in a repository without commits', async () => {
    const repo = join(sandbox.dir, 'fresh');
    sandbox.git(sandbox.dir, 'init', '-q', repo);
    await expect(prepare(repo)).rejects.toBeInstanceOf(NoCommitsError);
  });

  it('throws NoMergeBaseError when the branch shares no history with the base', async () => {
    const { repo } = localProject();
    sandbox.git(repo, 'checkout', '-q', '--orphan', 'unrelated');
    sandbox.commit(repo, 'unrelated root', { 'z.txt': 'z\n' });
    const error = await prepare(repo).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NoMergeBaseError);
    expect((error as Error).message).toMatch(/no common commit/);
  });
});

describe('repository identifier and base ref pieces', () => {
  it('normalises the origin URL and strips credentials', async () => {
    const { work } = clonedProject(sandbox);
    sandbox.git(work, 'remote', 'set-url', 'origin', 'https://user:s3cret@GitHub.com/acme/widgets.git');
    expect(await repositoryIdentifier(work, { env: sandbox.env })).toBe('github.com/acme/widgets');
    sandbox.git(work, 'remote', 'set-url', 'origin', 'git@github.com:acme/widgets.git');
    expect(await repositoryIdentifier(work, { env: sandbox.env })).toBe('github.com/acme/widgets');
  });

  it('findBaseRef alone', async () => {
    const { work } = clonedProject(sandbox);
    expect(await findBaseRef(work, { env: sandbox.env })).toBe('origin/main');
  });
});

describe("git's output limit (maxBuffer)", () => {
  it('a diff larger than the limit fails with GitOutputTooLargeError, which says the limit', async () => {
    const { work } = clonedProject(sandbox);
    const error = await prepare(work, { maxBuffer: 100 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(GitOutputTooLargeError);
    expect(error).toMatchObject({ name: 'GitOutputTooLargeError', limit: 100 });
    expect((error as Error).message).toMatch(
      /^The output of "git diff .*" is larger than 100 bytes, the limit set for it\./,
    );
  });

  it('stagedDiff takes it too: the same diff fails under a small limit and is read whole under a larger one', async () => {
    const { repo } = localProject();
    writeFileSync(join(repo, 'notes.txt'), 'a line of notes\n'.repeat(100));
    sandbox.git(repo, 'add', 'notes.txt');
    await expect(stagedDiff(repo, { env: sandbox.env, maxBuffer: 1000 })).rejects.toMatchObject({ limit: 1000 });
    expect(await stagedDiff(repo, { env: sandbox.env, maxBuffer: 10_000 })).toContain('+a line of notes');
  });
});
