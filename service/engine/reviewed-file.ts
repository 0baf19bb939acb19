// The files of a diff as file rules see them: plain values, no line table.
import type { DiffIndex, IndexedFile } from './diff/line-table.ts';
import { ADDED, DELETED, diffLines } from './diff/line-table.ts';
import type { ReviewedFile } from './rules/rule.ts';

/** How many lines of a file's top `head` holds: where generators put their "do not edit" marker. */
export const HEAD_LINES = 5;

export function reviewedFile(diff: DiffIndex, file: IndexedFile): ReviewedFile {
  // Field by field, not by rest and spread: one view per file of the diff, and a copy by spread
  // cost as much as the rest of the view.
  const view: ReviewedFile = {
    oldPath: file.oldPath,
    newPath: file.newPath,
    status: file.status,
    binary: file.binary,
    addedLines: file.addedLines,
    hunkChars: file.hunkChars,
    firstAddedLine: firstAddedLine(diff, file),
    head: file.hunks[0] && file.hunks[0].newStart <= 1 ? headText(diff, file) : null,
  };
  if (file.oldMode !== undefined) view.oldMode = file.oldMode;
  if (file.newMode !== undefined) view.newMode = file.newMode;
  if (file.similarity !== undefined) view.similarity = file.similarity;
  return view;
}

function firstAddedLine(diff: DiffIndex, file: IndexedFile): number | null {
  const { kind, newLine } = diff.lines;
  for (const hunk of file.hunks) {
    for (let k = hunk.first; k < hunk.first + hunk.count; k++) if (kind[k] === ADDED) return newLine[k]!;
  }
  return null;
}

/** The first HEAD_LINES lines of the first hunk, deleted ones left out, joined by newlines. */
function headText(diff: DiffIndex, file: IndexedFile): string {
  const head = file.hunks[0]!;
  const { kind } = diff.lines;
  const stop = Math.min(head.first + HEAD_LINES, head.first + head.count);
  let plain = true;
  for (let k = head.first; k < stop; k++) if (kind[k] === DELETED) plain = false;
  // Usually one slice of the diff: the lines follow each other there (with their markers).
  if (plain && stop > head.first)
    return diff.text.slice(diff.lines.start[head.first], diff.lines.end[stop - 1]).replace(/\r?\n[+ ]/g, '\n');
  return diffLines(diff, head.first, stop - head.first)
    .filter((line) => line.kind !== '-')
    .map((line) => line.text)
    .join('\n');
}
