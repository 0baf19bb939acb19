// Finding reviews (renderer/review-query.ts) under Node: the search, filters, sort, groups and
// facet counts the dashboard applies to the reviews it loaded.
import { describe, expect, it } from 'vitest';
import type { ReviewJob } from '../../desktop/shared/ipc-contract.ts';
import {
  facetCounts,
  groupByRepository,
  listCountText,
  matchesFilters,
  NO_FILTERS,
  needsAllPages,
  serviceQuery,
  sortJobs,
} from '../../desktop/renderer/review-query.ts';

const job = (id: string, extra: Partial<ReviewJob> = {}): ReviewJob =>
  ({
    review_id: `rev_${id}`,
    status: 'completed',
    repository: 'github.com/acme/widgets',
    created_at: `2026-01-01T00:00:0${id.length}.000Z`,
    updated_at: '2026-01-01T00:00:09.000Z',
    comments: [],
    ...extra,
  }) as ReviewJob;

const a = job('A', {
  comments: [{ file_path: 'src/pay.ts', line: 3, severity: 'error', message: 'no-debugger: Remove it.' }],
} as Partial<ReviewJob>);
const b = job('BB', {
  repository: 'github.com/Other/Tooling',
  status: 'failed',
  error: { code: 'cancelled', message: 'x' },
} as Partial<ReviewJob>);
const c = job('CCC', { status: 'failed', error: { code: 'internal_error', message: 'boom' } } as Partial<ReviewJob>);

describe('finding reviews', () => {
  it('searches id, repository, file and rule, every word, any case', () => {
    const f = (text: string) =>
      [a, b, c].filter((j) => matchesFilters(j, { ...NO_FILTERS, text })).map((j) => j.review_id);
    expect(f('NO-DEBUGGER')).toEqual(['rev_A']);
    expect(f('pay.ts debugger')).toEqual(['rev_A']);
    expect(f('rev_bb')).toEqual(['rev_BB']);
    expect(f('tooling')).toEqual(['rev_BB']);
    expect(f('boom')).toEqual(['rev_CCC']);
    expect(f('pay.ts boom')).toEqual([]);
  });

  it('matches part of a repository name in any case, and tells cancelled from failed', () => {
    expect(matchesFilters(b, { ...NO_FILTERS, repository: 'other/TOOL' })).toBe(true);
    expect(matchesFilters(a, { ...NO_FILTERS, repository: 'other/TOOL' })).toBe(false);
    expect(matchesFilters(b, { ...NO_FILTERS, status: 'cancelled' })).toBe(true);
    expect(matchesFilters(b, { ...NO_FILTERS, status: 'failed' })).toBe(false);
    expect(matchesFilters(c, { ...NO_FILTERS, status: 'failed' })).toBe(true);
    expect(facetCounts([a, b, c], NO_FILTERS)).toEqual({
      '': 3,
      queued: 0,
      running: 0,
      completed: 1,
      failed: 1,
      cancelled: 1,
    });
    expect(facetCounts([a, b, c], { ...NO_FILTERS, repository: 'acme' })['']).toBe(2);
  });

  it('asks the service for pages only when it can answer by itself', () => {
    expect(serviceQuery({ ...NO_FILTERS, status: 'cancelled' })).toEqual({ status: 'failed' });
    expect(needsAllPages({ ...NO_FILTERS, status: 'cancelled' })).toBe(false);
    for (const change of [{ text: 'x' }, { repository: 'x' }, { group: true }, { sort: 'oldest' as const }]) {
      expect(needsAllPages({ ...NO_FILTERS, ...change })).toBe(true);
      expect(serviceQuery({ ...NO_FILTERS, status: 'queued', ...change })).toEqual({});
    }
  });

  it('sorts and groups', () => {
    expect(sortJobs([a, b, c], 'newest').map((j) => j.review_id)).toEqual(['rev_CCC', 'rev_BB', 'rev_A']);
    expect(sortJobs([a, b, c], 'oldest').map((j) => j.review_id)).toEqual(['rev_A', 'rev_BB', 'rev_CCC']);
    expect(sortJobs([c, b, a], 'comments')[0]).toBe(a);
    expect(sortJobs([a, b, c], 'repository').map((j) => j.review_id)).toEqual(['rev_CCC', 'rev_A', 'rev_BB']);
    expect(groupByRepository(sortJobs([a, b, c], 'newest')).map((g) => [g.repository, g.jobs.length])).toEqual([
      ['github.com/acme/widgets', 2],
      ['github.com/Other/Tooling', 1],
    ]);
  });

  it('says how many of how many, from the service total until every page is loaded', () => {
    const partial = { complete: false, inFacet: 25 };
    expect(listCountText({ ...partial, shown: 25, status: '', total: 220 })).toBe('25 of 220 reviews');
    expect(listCountText({ ...partial, shown: 25, status: 'completed', total: 1200 })).toBe(
      '25 of 1,200 completed reviews',
    );
    // The service counts failed and cancelled as one status.
    expect(listCountText({ ...partial, shown: 20, status: 'cancelled', total: 30 })).toBe(
      '20 shown · 30 failed or cancelled reviews in all',
    );
    expect(listCountText({ ...partial, shown: 25, status: '', total: undefined })).toBe('25 shown · more to load');
    // Reviews pushed since the count: never "27 of 25".
    expect(listCountText({ ...partial, shown: 27, status: '', total: 25 })).toBe('27 reviews');
    const complete = { complete: true, total: 220 };
    expect(listCountText({ ...complete, shown: 220, inFacet: 220, status: '' })).toBe('220 reviews');
    expect(listCountText({ ...complete, shown: 4, inFacet: 220, status: '' })).toBe('4 of 220 reviews');
    expect(listCountText({ ...complete, shown: 1, inFacet: 1, status: 'failed' })).toBe('1 failed review');
  });
});
