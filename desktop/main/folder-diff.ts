// A chosen folder turned into the diff to review, as the CLI and the extension make it: the
// shared git module finds the base, the folder's .diff-review.yml leaves its ignored files out,
// and the service's size limit is checked here. Used to submit, and to check a folder as soon as
// it is picked (so an unusable one is refused with its reason before Submit).
import { LIMITS } from '../../service/api/limits.ts';
import { ignoredBy } from '../../service/project-config/apply-config.ts';
import { diffWithoutIgnoredFiles } from '../../service/project-config/filter-diff.ts';
import { ConfigError, loadProjectConfig, type ProjectConfig } from '../../service/project-config/load-config.ts';
import type { PreparedReview, PrepareReviewOptions } from '../../service/git/index.ts';
import type { SubmitFolderRequest } from '../shared/ipc-contract.ts';
import { InvalidInputError } from './ipc-errors.ts';

export interface FolderDiff {
  prepared: PreparedReview;
  /** What is sent: the diff without the files .diff-review.yml ignores. */
  diff: string;
  diffBytes: number;
  config: ProjectConfig;
}

/** Throws InvalidInputError (field `folder`) or a GitError saying why the folder cannot be reviewed. */
export async function folderDiff(
  prepare: (options: PrepareReviewOptions) => Promise<PreparedReview>,
  request: SubmitFolderRequest,
): Promise<FolderDiff> {
  const baseBranch = request.baseBranch?.trim() || undefined;
  const prepared = await prepare({
    cwd: request.folder,
    includeUncommitted: request.includeUncommitted === true,
    ...(baseBranch ? { baseBranch } : {}),
  });
  if (!prepared.diff) {
    throw new InvalidInputError(
      `Nothing to review: ${prepared.baseRef} and this branch have the same content${request.includeUncommitted ? '' : ' (uncommitted changes are not included)'}.`,
      'folder',
    );
  }
  const config = await projectConfigOf(prepared.root);
  const diff = diffWithoutIgnoredFiles(prepared.diff, ignoredBy(config));
  if (!diff)
    throw new InvalidInputError('Nothing to review: every changed file is ignored by .diff-review.yml.', 'folder');
  const diffBytes = Buffer.byteLength(diff);
  if (diffBytes > LIMITS.diffBytes) {
    throw new InvalidInputError(
      `The diff is ${formatBytes(diffBytes)}, over the service's limit of ${formatBytes(LIMITS.diffBytes)}. Review a smaller branch.`,
      'folder',
    );
  }
  return { prepared, diff, diffBytes, config };
}

function formatBytes(bytes: number): string {
  return bytes >= 1_000_000 ? `${(bytes / 1_000_000).toFixed(1)} MB` : `${Math.ceil(bytes / 1000)} kB`;
}

/** A folder's project config; a bad file is the folder's input error, with its file, line and valid choices. */
async function projectConfigOf(root: string): Promise<ProjectConfig> {
  try {
    return await loadProjectConfig(root, { cwd: root });
  } catch (error) {
    if (error instanceof ConfigError) throw new InvalidInputError(error.message, 'folder');
    throw error;
  }
}
