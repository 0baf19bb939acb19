// Errors of the git module. Each says what went wrong and what the user can do about it.
import { formatCount } from '../format-count.ts';

/** A git command failed in a way none of the specific errors below describes. */
export class GitError extends Error {
  override name = 'GitError';
  /** The git arguments, for logs. */
  readonly args: readonly string[];
  readonly exitCode: number | undefined;
  readonly stderr: string;

  constructor(
    message: string,
    details: { args?: readonly string[]; exitCode?: number; stderr?: string; cause?: unknown } = {},
  ) {
    super(message, { cause: details.cause });
    this.args = details.args ?? [];
    this.exitCode = details.exitCode;
    this.stderr = details.stderr ?? '';
  }
}

/** A git command wrote more than the output limit (GitOptions.maxBuffer). */
export class GitOutputTooLargeError extends GitError {
  override name = 'GitOutputTooLargeError';
  /** The limit, in bytes. */
  readonly limit: number;

  constructor(args: readonly string[], limit: number, cause?: unknown) {
    super(
      `The output of "git ${args.join(' ')}" is larger than ${formatCount(limit)} bytes, the limit set for it. Review a smaller range of changes.`,
      { args, cause },
    );
    this.limit = limit;
  }
}

/** The git executable could not be started. */
export class GitNotFoundError extends GitError {
  override name = 'GitNotFoundError';
  readonly gitPath: string;

  constructor(gitPath: string, cause?: unknown) {
    super(
      `Git was not found (tried to run "${gitPath}"). Install Git (https://git-scm.com/downloads) and make sure it is on the PATH, or set the path to the git executable.`,
      { cause },
    );
    this.gitPath = gitPath;
  }
}

/** The folder is not inside a git working tree (or does not exist). */
export class NotAGitRepositoryError extends GitError {
  override name = 'NotAGitRepositoryError';
  readonly cwd: string;

  constructor(
    cwd: string,
    reason = 'is not inside a git repository',
    details: ConstructorParameters<typeof GitError>[1] = {},
  ) {
    super(`${cwd} ${reason}. Open a folder that is part of a git repository.`, details);
    this.cwd = cwd;
  }
}

/** The repository has no commit yet, so there is nothing to compare. */
export class NoCommitsError extends GitError {
  override name = 'NoCommitsError';

  constructor(root: string) {
    super(`The repository at ${root} has no commits yet. Commit your work first, then review it.`);
  }
}

/** None of the candidate base branches exists. */
export class NoBaseBranchError extends GitError {
  override name = 'NoBaseBranchError';
  /** The refs that were looked for, in order. */
  readonly tried: readonly string[];

  constructor(tried: readonly string[], explicit: string | undefined) {
    super(
      explicit === undefined
        ? `Could not find the base branch: none of ${tried.join(', ')} exists. Set the base branch explicitly (for example "main" or "origin/develop"), or run "git remote set-head origin --auto" so origin/HEAD names the default branch.`
        : `The base branch "${explicit}" was not found (tried ${tried.join(', ')}). Check its name, or run "git fetch origin" if it exists only on the remote.`,
    );
    this.tried = tried;
  }
}

/** HEAD and the base branch share no history (or a shallow clone hides it). */
export class NoMergeBaseError extends GitError {
  override name = 'NoMergeBaseError';

  constructor(baseRef: string, shallow: boolean) {
    super(
      shallow
        ? `HEAD and ${baseRef} have no common commit in this shallow clone. Fetch more history ("git fetch --unshallow" or a larger --depth) and try again.`
        : `HEAD and ${baseRef} have no common commit. Choose a base branch that the current branch was created from.`,
    );
  }
}
