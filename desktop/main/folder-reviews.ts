// Reviews this app submitted from a folder on this machine, for this session: their comments get
// the folder's .diff-review.yml rule settings (as the CLI and the extension apply them), and
// "Open in VS Code" may point at their files, and at nothing else.
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { configuredComments } from '../../service/project-config/apply-config.ts';
import type { ProjectConfig } from '../../service/project-config/load-config.ts';
import type { ReviewJob } from '../shared/ipc-contract.ts';
import { InvalidInputError } from './ipc-errors.ts';

const MAX_FILES = 200;
const MAX_FILE_BYTES = 2_000_000;
const MAX_LINE_CHARS = 240;

/** The absolute path of `filePath` (relative, as a comment names it) if it stays inside `root`. */
function insideFolder(root: string, filePath: unknown): string | undefined {
  if (
    typeof filePath !== 'string' ||
    !filePath ||
    filePath.includes('\0') ||
    path.isAbsolute(filePath) ||
    /^[a-zA-Z]:/.test(filePath) ||
    filePath.split(/[\\/]/).includes('..')
  )
    return undefined;
  const file = path.resolve(root, filePath);
  return file.startsWith(root + path.sep) ? file : undefined;
}

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
   * The flagged lines' code, read from the folder as it is now (the service keeps no code): keyed
   * `file:line`, each cut to a screen's width. Files outside the folder or too big are skipped.
   */
  async flaggedLines(reviewId: string, comments: readonly { file_path: string; line: number }[]) {
    const known = this.#byId.get(reviewId);
    const lines: Record<string, string> = {};
    if (!known) return lines;
    const files = [...new Set(comments.map((c) => c.file_path))].slice(0, MAX_FILES);
    for (const filePath of files) {
      const file = insideFolder(known.root, filePath);
      if (!file) continue;
      const info = await stat(file).catch(() => undefined);
      if (!info?.isFile() || info.size > MAX_FILE_BYTES) continue;
      const text = (await readFile(file, 'utf8')).split(/\r?\n/);
      for (const comment of comments) {
        const line = text[comment.line - 1];
        if (comment.file_path === filePath && line !== undefined)
          lines[`${filePath}:${comment.line}`] =
            line.length > MAX_LINE_CHARS ? `${line.slice(0, MAX_LINE_CHARS)}…` : line;
      }
    }
    return lines;
  }

  /**
   * `vscode://file/<absolute path>:<line>` for a file of a folder review. The file is named by the
   * renderer: it must be a relative path that stays inside the review's folder.
   */
  editorUrl(reviewId: string, filePath: unknown, line: unknown): string {
    const known = this.#byId.get(reviewId);
    if (!known) throw new InvalidInputError('This review was not submitted from a folder on this machine.', 'reviewId');
    const file = insideFolder(known.root, filePath);
    if (!file) throw new InvalidInputError('The file must be a path inside the reviewed folder.', 'filePath');
    if (!Number.isInteger(line) || (line as number) < 1)
      throw new InvalidInputError('The line must be a positive whole number.', 'line');
    const slashed = file.split(path.sep).join('/');
    // Each segment encoded ('#', '?', spaces), the drive's colon kept (C:/…).
    const encoded = slashed
      .split('/')
      .map((segment) => encodeURIComponent(segment).replace(/^([a-zA-Z])%3A$/, '$1:'))
      .join('/');
    return `vscode://file${encoded.startsWith('/') ? '' : '/'}${encoded}:${line}`;
  }
}
