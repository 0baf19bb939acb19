// Reviews this app submitted from a folder on this machine, for this session: their comments get
// the folder's .diff-review.yml rule settings (as the CLI and the extension apply them), and
// "Open in VS Code" may point at their files, and at nothing else.
import path from 'node:path';
import { configuredComments } from '../../service/cli/project-config/apply-config.ts';
import type { ProjectConfig } from '../../service/cli/project-config/load-config.ts';
import type { ReviewJob } from '../shared/ipc-contract.ts';
import { InvalidInputError } from './ipc-errors.ts';

interface FolderReview {
  /** The repository's root folder (absolute). */
  root: string;
  config: ProjectConfig;
}

export class FolderReviews {
  readonly #byId = new Map<string, FolderReview>();

  remember(reviewId: string, root: string, config: ProjectConfig): void {
    this.#byId.set(reviewId, { root: path.resolve(root), config });
  }

  /** A review run again from the same input belongs to the same folder. */
  copy(fromId: string, toId: string): void {
    const known = this.#byId.get(fromId);
    if (known) this.#byId.set(toId, known);
  }

  folderOf(reviewId: string): string | undefined {
    return this.#byId.get(reviewId)?.root;
  }

  /** The job with its comments under its folder's rule settings (unchanged for other reviews). */
  configure(job: ReviewJob): ReviewJob {
    const known = this.#byId.get(job.review_id);
    if (!known || !job.comments) return job;
    return { ...job, comments: configuredComments(job.comments, known.config) };
  }

  /**
   * `vscode://file/<absolute path>:<line>` for a file of a folder review. The file is named by the
   * renderer: it must be a relative path that stays inside the review's folder.
   */
  editorUrl(reviewId: string, filePath: unknown, line: unknown): string {
    const known = this.#byId.get(reviewId);
    if (!known) throw new InvalidInputError('This review was not submitted from a folder on this machine.', 'reviewId');
    if (
      typeof filePath !== 'string' ||
      !filePath ||
      filePath.includes('\0') ||
      path.isAbsolute(filePath) ||
      /^[a-zA-Z]:/.test(filePath) ||
      filePath.split(/[\\/]/).includes('..')
    )
      throw new InvalidInputError('The file must be a path inside the reviewed folder.', 'filePath');
    if (!Number.isInteger(line) || (line as number) < 1)
      throw new InvalidInputError('The line must be a positive whole number.', 'line');
    const file = path.resolve(known.root, filePath);
    if (!file.startsWith(known.root + path.sep))
      throw new InvalidInputError('The file must be a path inside the reviewed folder.', 'filePath');
    const slashed = file.split(path.sep).join('/');
    // Each segment encoded ('#', '?', spaces), the drive's colon kept (C:/…).
    const encoded = slashed
      .split('/')
      .map((segment) => encodeURIComponent(segment).replace(/^([a-zA-Z])%3A$/, '$1:'))
      .join('/');
    return `vscode://file${encoded.startsWith('/') ? '' : '/'}${encoded}:${line}`;
  }
}
