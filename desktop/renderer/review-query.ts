// Finding reviews in the dashboard: search, filters, sort, grouping and facet counts, over the
// jobs the window has loaded. Pure functions (tested under Node). At the scale of one owner's
// reviews (a few hundred) the window loads every page when one of these needs them all, rather
// than asking the service for each combination.
import type { ReviewJob, ReviewStatus } from '../shared/ipc-contract.ts';

/** The service's statuses, with a cancelled job (failed, code `cancelled`) apart from a failed one. */
export type StatusFacet = ReviewStatus | 'cancelled';
export const STATUS_FACETS: readonly StatusFacet[] = ['queued', 'running', 'completed', 'failed', 'cancelled'];

export type SortKey = 'newest' | 'oldest' | 'repository' | 'comments';
export const SORT_LABELS: Record<SortKey, string> = {
  newest: 'Newest first',
  oldest: 'Oldest first',
  repository: 'Repository A–Z',
  comments: 'Most comments',
};

export interface ReviewFilters {
  status: StatusFacet | '';
  /** Part of a repository's name, any case. */
  repository: string;
  /** Free text: review id, repository, rule, file or comment message. */
  text: string;
  sort: SortKey;
  group: boolean;
}

export const NO_FILTERS: ReviewFilters = { status: '', repository: '', text: '', sort: 'newest', group: false };

export const statusFacet = (job: ReviewJob): StatusFacet =>
  job.status === 'failed' && job.error?.code === 'cancelled' ? 'cancelled' : job.status;

/** True when the list must hold every page: the service cannot answer these by itself. */
export const needsAllPages = (filters: ReviewFilters): boolean =>
  filters.repository !== '' || filters.text !== '' || filters.group || filters.sort !== 'newest';

/** What the service is asked for one page: only the status, when the list is paged. */
export function serviceQuery(filters: ReviewFilters): { status?: ReviewStatus } {
  if (needsAllPages(filters) || !filters.status) return {};
  return { status: filters.status === 'cancelled' ? 'failed' : filters.status };
}

const fold = (text: string) => text.toLocaleLowerCase();

function searchable(job: ReviewJob): string {
  const parts = [job.review_id, job.repository ?? '', job.base_commit ?? '', job.error?.message ?? ''];
  for (const comment of job.comments ?? []) parts.push(comment.file_path, comment.message);
  return fold(parts.join('\n'));
}

/** Every word of the search appears somewhere in the job (id, repository, file, rule or message). */
export function matchesFilters(job: ReviewJob, filters: ReviewFilters, facetIgnored = false): boolean {
  if (!facetIgnored && filters.status && statusFacet(job) !== filters.status) return false;
  if (filters.repository && !fold(job.repository ?? '').includes(fold(filters.repository))) return false;
  const words = fold(filters.text).split(/\s+/).filter(Boolean);
  if (words.length === 0) return true;
  const text = searchable(job);
  return words.every((word) => text.includes(word));
}

/** The service's order: newest first; review ids sort by creation time, also within one millisecond. */
export const newestFirst = (a: ReviewJob, b: ReviewJob) =>
  b.created_at.localeCompare(a.created_at) || (a.review_id < b.review_id ? 1 : a.review_id > b.review_id ? -1 : 0);

const ORDER: Record<SortKey, (a: ReviewJob, b: ReviewJob) => number> = {
  newest: newestFirst,
  oldest: (a, b) => newestFirst(b, a),
  repository: (a, b) => (a.repository ?? '\uffff').localeCompare(b.repository ?? '\uffff') || newestFirst(a, b),
  comments: (a, b) => (b.comments?.length ?? -1) - (a.comments?.length ?? -1) || newestFirst(a, b),
};

export const sortJobs = (jobs: readonly ReviewJob[], sort: SortKey): ReviewJob[] => [...jobs].sort(ORDER[sort]);

export interface RepositoryGroup {
  repository: string | undefined;
  jobs: ReviewJob[];
}

/** Jobs by repository (in the order the sorted list first meets each), each group keeping the order. */
export function groupByRepository(sorted: readonly ReviewJob[]): RepositoryGroup[] {
  const groups = new Map<string | undefined, ReviewJob[]>();
  for (const job of sorted) {
    const list = groups.get(job.repository) ?? [];
    list.push(job);
    groups.set(job.repository, list);
  }
  return [...groups].map(([repository, jobs]) => ({ repository, jobs }));
}

/** How many jobs each status would show, with the other filters applied. */
export function facetCounts(jobs: readonly ReviewJob[], filters: ReviewFilters): Record<StatusFacet | '', number> {
  const counts: Record<StatusFacet | '', number> = {
    '': 0,
    queued: 0,
    running: 0,
    completed: 0,
    failed: 0,
    cancelled: 0,
  };
  for (const job of jobs) {
    if (!matchesFilters(job, filters, true)) continue;
    counts[''] += 1;
    counts[statusFacet(job)] += 1;
  }
  return counts;
}

const FACET_WORD: Record<StatusFacet, string> = {
  queued: 'queued',
  running: 'running',
  completed: 'completed',
  failed: 'failed',
  cancelled: 'cancelled',
};

export interface ListCount {
  /** Rows on screen (after every filter). */
  shown: number;
  /** The status facet chosen ('' for all). */
  status: StatusFacet | '';
  /** Every page of the service's listing is loaded: the count is the loaded reviews' own. */
  complete: boolean;
  /** Loaded reviews of the facet (what `shown` is out of once complete). */
  inFacet: number;
  /** The service's total for its query (the list's `total`); undefined from a service without one. */
  total: number | undefined;
}

const reviews = (n: number, word: string) =>
  `${n.toLocaleString('en-US')} ${word}${word ? ' ' : ''}review${n === 1 ? '' : 's'}`;

/**
 * The line above the list: how many of how many, from the first page on (the service's total).
 * Failed and cancelled are one status to the service: its total for them counts both.
 */
export function listCountText(count: ListCount): string {
  const word = count.status ? FACET_WORD[count.status] : '';
  const of = (whole: number, words: string) =>
    count.shown === whole
      ? reviews(whole, words)
      : `${count.shown.toLocaleString('en-US')} of ${reviews(whole, words)}`;
  if (count.complete) return of(count.inFacet, word);
  if (count.total === undefined) return `${count.shown.toLocaleString('en-US')} shown · more to load`;
  if (count.status === 'failed' || count.status === 'cancelled')
    return `${count.shown.toLocaleString('en-US')} shown · ${reviews(count.total, 'failed or cancelled')} in all`;
  return of(Math.max(count.total, count.shown), word);
}
