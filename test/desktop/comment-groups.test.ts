// A review's comments as the detail shows them: grouped by file, counted by severity.
import { describe, expect, it } from 'vitest';
import { groupCommentsByFile } from '../../desktop/renderer/comment-groups.ts';

describe('groupCommentsByFile', () => {
  it('groups comments by file, files with errors first, errors first in each, then lines in order, with counts', () => {
    const groups = groupCommentsByFile([
      { file_path: 'b.js', line: 9, message: 'x', severity: 'info' },
      { file_path: 'b.js', line: 12, message: 'x', severity: 'error' },
      { file_path: 'a.js', line: 3, message: 'x', severity: 'warning' },
      { file_path: 'b.js', line: 2, message: 'x', severity: 'error' },
    ]);
    expect(groups.map((g) => g.filePath)).toEqual(['b.js', 'a.js']);
    expect(groups[0]!.comments.map((c) => c.line)).toEqual([2, 12, 9]);
    expect(groups[0]!.counts).toEqual({ error: 2, warning: 0, info: 1 });
  });
});
