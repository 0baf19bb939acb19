// The seed's client workflow, steps 2 and 3, in one call: find the base, make the diff.
import type { CreateReviewBody } from '../api/schemas.ts';
import { findBaseCommit, findBaseRef, headCommit } from './base.ts';
import { diffFromBase } from './diff.ts';
import { findRepositoryRoot, repositoryIdentifier } from './repository.ts';
import type { GitOptions } from './run-git.ts';

export interface PrepareReviewOptions extends GitOptions {
  /** Any folder inside the working tree. */
  cwd: string;
  /** Compare against this branch instead of the remote's default branch (see findBaseRef). */
  baseBranch?: string;
  /** Review the working tree (staged and unstaged changes) instead of HEAD. Default false. */
  includeUncommitted?: boolean;
  /** With includeUncommitted: add untracked, not ignored files as new files. Default false. */
  includeUntracked?: boolean;
}

export interface PreparedReview {
  /** Top folder of the working tree. */
  root: string;
  /** Identifier for the API's `repository`, e.g. `github.com/acme/widgets`. */
  repository: string;
  /** The ref compared against, e.g. `origin/main`. */
  baseRef: string;
  /** The merge base of HEAD and baseRef: the API's `base_commit`. */
  baseCommit: string;
  /** The commit HEAD was at. */
  headCommit: string;
  /**
   * The unified diff. Empty when there is nothing to review (the API refuses an empty diff, so
   * the caller says "nothing to review" instead of sending it). Not checked against the API's
   * size limit either: compare `diffBytes` with LIMITS.diffBytes to say how far over it is.
   */
  diff: string;
  /** Size of `diff` in UTF-8 bytes, as the API counts it. */
  diffBytes: number;
  includesUncommitted: boolean;
  /** Untracked files added to the diff (with includeUntracked). */
  untrackedFiles: string[];
}

/**
 * Finds the repository, its identifier, the base branch and the merge base, and makes the diff.
 * Throws NotAGitRepositoryError, GitNotFoundError, NoCommitsError, NoBaseBranchError,
 * NoMergeBaseError or GitError.
 */
export async function prepareReview(options: PrepareReviewOptions): Promise<PreparedReview> {
  const { cwd, baseBranch, includeUncommitted = false, includeUntracked = false, ...git } = options;
  const root = await findRepositoryRoot(cwd, git);
  const head = await headCommit(root, git);
  const [repository, baseRef] = await Promise.all([
    repositoryIdentifier(root, git),
    findBaseRef(root, baseBranch === undefined ? git : { ...git, baseBranch }),
  ]);
  const baseCommit = await findBaseCommit(root, baseRef, { ...git, head });
  const { diff, untrackedFiles } = await diffFromBase(root, baseCommit, {
    ...git,
    head,
    includeUncommitted,
    includeUntracked,
  });
  return {
    root,
    repository,
    baseRef,
    baseCommit,
    headCommit: head,
    diff,
    diffBytes: Buffer.byteLength(diff, 'utf8'),
    includesUncommitted: includeUncommitted,
    untrackedFiles,
  };
}

/** The body of POST /v1/reviews for a prepared review. */
export function reviewRequestOf(prepared: PreparedReview): CreateReviewBody {
  return { diff: prepared.diff, repository: prepared.repository, base_commit: prepared.baseCommit };
}
