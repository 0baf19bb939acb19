// What the dashboard says about a job: its timings and its latest state.
import { describe, expect, it } from 'vitest';
import { jobTimings, laterState } from '../../desktop/renderer/job-view.ts';

describe('jobTimings', () => {
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
  });
});

describe('laterState', () => {
  it('never lets a late answer move a job back', () => {
    const base = { review_id: 'rev_1', created_at: '2026-11-21T10:00:00.000Z' };
    const running = { ...base, status: 'running' as const, updated_at: '2026-11-21T10:00:01.000Z' };
    const completed = { ...base, status: 'completed' as const, updated_at: '2026-11-21T10:00:02.000Z' };
    expect(laterState(completed, running)).toBe(completed);
    expect(laterState(running, completed)).toBe(completed);
    expect(laterState(undefined, running)).toBe(running);
  });
});
