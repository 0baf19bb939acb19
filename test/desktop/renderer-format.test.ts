// The renderer's pure helpers: grouping comments, durations, rule ids, expiry.
import { describe, expect, it } from 'vitest';
import { groupCommentsByFile } from '../../desktop/renderer/comment-groups.ts';
import { jobTimings } from '../../desktop/renderer/job-view.ts';
import { formatDuration, isExpired } from '../../desktop/renderer/time-format.ts';

describe('renderer formatting', () => {
  it('groups comments by file, files with errors first, lines in order, with counts', () => {
    const groups = groupCommentsByFile([
      { file_path: 'b.js', line: 9, message: 'x', severity: 'info' },
      { file_path: 'a.js', line: 3, message: 'x', severity: 'warning' },
      { file_path: 'b.js', line: 2, message: 'x', severity: 'error' },
    ]);
    expect(groups.map((g) => g.filePath)).toEqual(['b.js', 'a.js']);
    expect(groups[0]!.comments.map((c) => c.line)).toEqual([2, 9]);
    expect(groups[0]!.counts).toEqual({ error: 1, warning: 0, info: 1 });
  });

  it('computes waiting, running and total durations', () => {
    const job = {
      review_id: 'rev_1',
      status: 'completed' as const,
      created_at: '2026-11-21T10:00:00.000Z',
      updated_at: '2026-11-21T10:00:03.500Z',
      started_at: '2026-11-21T10:00:01.000Z',
      completed_at: '2026-11-21T10:00:03.500Z',
    };
    expect(jobTimings(job)).toEqual({ waitedMs: 1000, ranMs: 2500, totalMs: 3500 });
    expect(
      jobTimings(
        { ...job, status: 'queued', started_at: undefined, completed_at: undefined },
        Date.parse(job.created_at) + 400,
      ),
    ).toEqual({ waitedMs: 400 });
    expect(formatDuration(2500)).toBe('2.5 s');
    expect(formatDuration(125_000)).toBe('2 min 5 s');
  });

  it('marks expired tokens', () => {
    expect(isExpired(null)).toBe(false);
    expect(isExpired('2000-01-01T00:00:00.000Z')).toBe(true);
  });
});

describe('laterState', () => {
  it('never lets a late answer move a job back', async () => {
    const { laterState } = await import('../../desktop/renderer/job-view.ts');
    const base = { review_id: 'rev_1', created_at: '2026-11-21T10:00:00.000Z' };
    const running = { ...base, status: 'running' as const, updated_at: '2026-11-21T10:00:01.000Z' };
    const completed = { ...base, status: 'completed' as const, updated_at: '2026-11-21T10:00:02.000Z' };
    expect(laterState(completed, running)).toBe(completed);
    expect(laterState(running, completed)).toBe(completed);
    expect(laterState(undefined, running)).toBe(running);
  });
});
