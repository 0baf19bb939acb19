// A review's comments grouped by file and counted by severity, as the detail shows them. Pure (tested under Node).
import { countBySeverity, type SeverityCounts } from '../../service/api/severity-counts.ts';
import { errorsFirst } from '../../service/api/folded-list.ts';
import type { ReviewComment } from '../../service/api/schemas.ts';

export interface FileComments {
  filePath: string;
  comments: ReviewComment[];
  counts: SeverityCounts;
}

/** Comments grouped by file (files with errors first, then by path), each errors first, then by line. */
export function groupCommentsByFile(comments: readonly ReviewComment[]): FileComments[] {
  const byFile = new Map<string, ReviewComment[]>();
  for (const comment of comments) {
    const list = byFile.get(comment.file_path) ?? [];
    list.push(comment);
    byFile.set(comment.file_path, list);
  }
  return [...byFile]
    .map(([filePath, list]) => ({
      filePath,
      comments: errorsFirst(list.sort((a, b) => a.line - b.line)),
      counts: countBySeverity(list),
    }))
    .sort((a, b) => b.counts.error - a.counts.error || a.filePath.localeCompare(b.filePath));
}
