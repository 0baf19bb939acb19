// The diff that is sent for review: the same bytes whatever the user's git configuration says.
import { runGit, type GitOptions } from './run-git.ts';

/**
 * Options for every diff. Each one pins a setting that user configuration could change:
 * color.ui=always, diff.noprefix / diff.mnemonicPrefix,
 * diff.context, diff.interHunkContext, diff.algorithm, diff.indentHeuristic, diff.relative,
 * diff.renames (=copies or false), diff.submodule=log|diff. (External diff and textconv drivers
 * are commands: runGit turns them off for every diff.)
 */
export const STABLE_DIFF_OPTIONS: readonly string[] = [
  '--no-color',
  '--src-prefix=a/',
  '--dst-prefix=b/',
  '--unified=3',
  '--inter-hunk-context=0',
  '--diff-algorithm=myers',
  '--indent-heuristic',
  '--no-relative',
  '-M',
  '--submodule=short',
];

export interface DiffOptions extends GitOptions {
  /** The commit to compare with the base. Default HEAD. Ignored with `includeUncommitted`. */
  head?: string;
  /**
   * Compare the working tree (staged and unstaged changes to tracked files) with the base,
   * instead of HEAD. Default false: only what is committed.
   */
  includeUncommitted?: boolean;
  /**
   * With `includeUncommitted`: also add files git does not track yet (those not ignored by
   * .gitignore), each as a new file. Done with `git diff --no-index`, so the index is never
   * touched (no `git add -N`). Default false.
   */
  includeUntracked?: boolean;
}

export interface BaseDiff {
  /** A unified git diff; empty when nothing changed. */
  diff: string;
  /** Untracked files included (paths relative to the root), when `includeUntracked`. */
  untrackedFiles: string[];
}

/**
 * The diff from `baseCommit` (the merge base) to HEAD: the same as `git diff <base>...HEAD`,
 * the three-dot diff of a pull request, but against the merge base already found, so the diff
 * and the `base_commit` sent with it can never disagree.
 */
export async function diffFromBase(root: string, baseCommit: string, options: DiffOptions = {}): Promise<BaseDiff> {
  const revisions = options.includeUncommitted ? [baseCommit] : [baseCommit, options.head ?? 'HEAD'];
  const { stdout } = await runGit(root, ['diff', ...STABLE_DIFF_OPTIONS, ...revisions, '--'], options);
  if (!options.includeUncommitted || !options.includeUntracked) return { diff: stdout, untrackedFiles: [] };

  const untrackedFiles = await listUntrackedFiles(root, options);
  let diff = stdout;
  for (const file of untrackedFiles) diff += await diffNewFile(root, file, options);
  return { diff, untrackedFiles };
}

/** Files not tracked and not ignored, relative to the root, in git's order. */
export async function listUntrackedFiles(root: string, options: GitOptions = {}): Promise<string[]> {
  const { stdout } = await runGit(
    root,
    ['ls-files', '--others', '--exclude-standard', '-z', '--full-name', '--', ':/'],
    options,
  );
  return stdout.split('\0').filter((path) => path !== '');
}

/** A file's whole content as an added file (`--- /dev/null`, `+++ b/<path>`). */
async function diffNewFile(root: string, path: string, options: GitOptions): Promise<string> {
  // --no-index exits 1 when the two sides differ, which they always do here.
  const { stdout } = await runGit(root, ['diff', '--no-index', ...STABLE_DIFF_OPTIONS, '--', '/dev/null', path], {
    ...options,
    okExitCodes: [0, 1],
  });
  return stdout;
}

/**
 * The staged changes (the index against HEAD): what `git commit` would record, for pre-commit
 * hooks. In a repository without commits yet, the index against the empty tree. `indexFile`: the
 * index a hook is given in GIT_INDEX_FILE (see RunGitOptions).
 */
export async function stagedDiff(root: string, options: GitOptions & { indexFile?: string } = {}): Promise<string> {
  const { stdout } = await runGit(root, ['diff', '--cached', ...STABLE_DIFF_OPTIONS, '--'], options);
  return stdout;
}
