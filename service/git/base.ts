// The base of a review: which branch the work is compared against, and the commit where the
// current branch left it (the merge base), which is what a pull request compares against too.
import { NoBaseBranchError, NoCommitsError, NoMergeBaseError } from './errors.ts';
import { runGit, type GitOptions } from './run-git.ts';

export interface BaseRefOptions extends GitOptions {
  /**
   * The branch to compare against, e.g. `develop`, `origin/develop` or `release/2.x`. It is used
   * as written when it exists, else as `origin/<name>`. Default: the remote's default branch.
   */
  baseBranch?: string;
}

/**
 * Finds the ref to compare against. Without `baseBranch`: the branch `origin/HEAD` points to
 * (set by `git clone`, or `git remote set-head origin --auto`), else `origin/main`,
 * `origin/master`, else a local `main` or `master`. Remote-tracking branches come first because
 * the seed asks for a base in the remote's history: local main may hold unpushed work.
 */
export async function findBaseRef(root: string, options: BaseRefOptions = {}): Promise<string> {
  const explicit = options.baseBranch?.trim();
  const candidates: string[] = [];
  if (explicit !== undefined && explicit !== '') {
    candidates.push(explicit);
    if (!explicit.startsWith('origin/') && !explicit.startsWith('refs/')) candidates.push(`origin/${explicit}`);
  } else {
    const originHead = await remoteDefaultBranch(root, options);
    if (originHead) candidates.push(originHead);
    candidates.push('origin/main', 'origin/master', 'main', 'master');
  }
  const tried: string[] = [];
  for (const candidate of new Set(candidates)) {
    tried.push(candidate);
    if (await commitOf(root, candidate, options)) return candidate;
  }
  throw new NoBaseBranchError(tried, explicit || undefined);
}

/** `origin/main` when refs/remotes/origin/HEAD points to refs/remotes/origin/main; else undefined. */
export async function remoteDefaultBranch(root: string, options: GitOptions = {}): Promise<string | undefined> {
  const { stdout, exitCode } = await runGit(root, ['symbolic-ref', '--quiet', 'refs/remotes/origin/HEAD'], {
    ...options,
    okExitCodes: [0, 1, 128],
  });
  const target = stdout.trim();
  return exitCode === 0 && target.startsWith('refs/remotes/') ? target.slice('refs/remotes/'.length) : undefined;
}

/** The commit a revision names, or undefined when it names none. */
export async function commitOf(root: string, revision: string, options: GitOptions = {}): Promise<string | undefined> {
  const { stdout, exitCode } = await runGit(
    root,
    ['rev-parse', '--verify', '--quiet', '--end-of-options', `${revision}^{commit}`],
    { ...options, okExitCodes: [0, 1, 128] },
  );
  const commit = stdout.trim();
  return exitCode === 0 && commit !== '' ? commit : undefined;
}

/** The commit HEAD is at (also when detached). Throws NoCommitsError in a repository without commits. */
export async function headCommit(root: string, options: GitOptions = {}): Promise<string> {
  const commit = await commitOf(root, 'HEAD', options);
  if (commit === undefined) throw new NoCommitsError(root);
  return commit;
}

/**
 * The merge base of `head` (default HEAD) and `baseRef`: the commit the branch left the base
 * branch at, also after the base branch moved on. Throws NoMergeBaseError when there is none.
 */
export async function findBaseCommit(
  root: string,
  baseRef: string,
  options: GitOptions & { head?: string } = {},
): Promise<string> {
  const { stdout, exitCode } = await runGit(root, ['merge-base', '--end-of-options', options.head ?? 'HEAD', baseRef], {
    ...options,
    okExitCodes: [0, 1],
  });
  const commit = stdout.trim();
  if (exitCode === 0 && commit !== '') return commit;
  const shallow = await runGit(root, ['rev-parse', '--is-shallow-repository'], options);
  throw new NoMergeBaseError(baseRef, shallow.stdout.trim() === 'true');
}
