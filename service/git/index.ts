// Base commit discovery and the three-dot diff, shared by the CLI, the VS Code extension and the
// desktop app. Node only (runs git with execFile, no shell); no vscode or electron imports.
export { prepareReview, reviewRequestOf, type PreparedReview, type PrepareReviewOptions } from './prepare-review.ts';
export { findRepositoryRoot, normalizeRemoteUrl, repositoryIdentifier } from './repository.ts';
export { commitOf, findBaseCommit, findBaseRef, headCommit } from './base.ts';
export { diffFromBase, listUntrackedFiles, STABLE_DIFF_OPTIONS, stagedDiff } from './diff.ts';
export { type GitOptions, runGit } from './run-git.ts';
export {
  GitError,
  GitNotFoundError,
  GitOutputTooLargeError,
  NoBaseBranchError,
  NoCommitsError,
  NoMergeBaseError,
  NotAGitRepositoryError,
} from './errors.ts';
