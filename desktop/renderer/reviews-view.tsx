/** @jsxImportSource preact */
// The review dashboard: the list (paged with "Load more", or every page when a search, the
// repository filter, a sort or grouping needs them all), live updates pushed by the main process,
// the selected job's detail, the form to submit a new review, and the keyboard commands
// (use-review-commands.ts). Over 300 lines: the loading of pages, the refresh, live updates and
// reconnects all merge into one list and one selection, and read best in one place.
import { useEffect, useRef, useState } from 'preact/hooks';
import type {
  IpcError,
  IpcResult,
  ListReviewsRequest,
  MenuCommand,
  ReviewJob,
  ReviewList,
} from '../shared/ipc-contract.ts';
import { CancelQueued } from './cancel-queued.tsx';
import { EmptyState, ErrorPanel, Loading, StaleNote, useNow } from './components.tsx';
import { laterState } from './job-view.ts';
import { bridge, invoke } from './ipc.ts';
import { focusRow, JobList } from './job-list.tsx';
import { ReviewDetail } from './review-detail.tsx';
import { FilterBar, isFiltered } from './review-filters.tsx';
import {
  facetCounts,
  groupByRepository,
  listCountText,
  matchesFilters,
  NO_FILTERS,
  needsAllPages,
  newestFirst,
  type ReviewFilters,
  serviceQuery,
  sortJobs,
  statusFacet,
} from './review-query.ts';
import { SubmitReview } from './submit-review.tsx';
import { useReviewCommands } from './use-review-commands.ts';

const REFRESH_MS = 10_000;
/** Pages of this size when every review is loaded (the service's largest). */
const ALL_PAGE = 100;

const keyOf = (filters: ReviewFilters) => JSON.stringify({ ...serviceQuery(filters), all: needsAllPages(filters) });

export function ReviewsView(props: { connectionKey: number; stale: boolean; active: boolean }) {
  const [input, setInput] = useState<ReviewFilters>(NO_FILTERS);
  const [filters, setFilters] = useState<ReviewFilters>(NO_FILTERS);
  const [jobs, setJobs] = useState<ReviewJob[]>();
  const [cursor, setCursor] = useState<string | null>(null);
  /** The service's count of the reviews its query matches, every page together (from the first page). */
  const [total, setTotal] = useState<number>();
  const [loadingMore, setLoadingMore] = useState(false);
  const [moreError, setMoreError] = useState<IpcError>();
  const [error, setError] = useState<IpcError>();
  const [selectedId, setSelectedId] = useState<string>();
  const [submitting, setSubmitting] = useState(false);
  /** Bumped after a submit: the form starts empty again (until then it keeps what was typed). */
  const [formKey, setFormKey] = useState(0);
  // Under 900 px the list and the detail take turns on the screen: true while the detail has it.
  const [detailShown, setDetailShown] = useState(false);
  const [loadedAt, setLoadedAt] = useState<number>();
  const filtersRef = useRef(filters);
  filtersRef.current = filters;
  const jobsRef = useRef(jobs);
  jobsRef.current = jobs;
  /** The query the list was last loaded for: a reconnect with the same one refreshes in place. */
  const shownKey = useRef<string>(undefined);
  const listRef = useRef<HTMLDivElement>(null);
  const searchRef = useRef<HTMLInputElement>(null);
  const detailRef = useRef<HTMLElement>(null);
  const now = useNow(true, 30_000);

  const query = (): ListReviewsRequest => serviceQuery(filtersRef.current);
  const stillFor = (key: string) => keyOf(filtersRef.current) === key;

  const loadFirst = async (replace: boolean) => {
    const key = keyOf(filtersRef.current);
    const all = needsAllPages(filtersRef.current);
    const result = await invoke('reviews:list', { ...query(), ...(all ? { limit: ALL_PAGE } : {}) });
    if (!stillFor(key)) return; // the filters changed meanwhile
    // A failed refresh keeps what was loaded: the connection banner says why it is stale.
    if (!result.ok) return replace || !jobsRef.current ? setError(result.error) : undefined;
    setError(undefined);
    setLoadedAt(Date.now());
    const page = result.value;
    setTotal(typeof page.total === 'number' ? page.total : undefined);
    if (replace) {
      setJobs(page.reviews);
      setCursor(page.next_cursor);
      if (all && page.next_cursor) void loadMore(page.next_cursor, true);
    } else {
      // A refresh: new jobs on top, known ones updated, the pages loaded below kept.
      setJobs((current = []) => {
        const known = new Map(current.map((job) => [job.review_id, job]));
        const fresh = page.reviews.map((job) => laterState(known.get(job.review_id), job));
        const ids = new Set(fresh.map((job) => job.review_id));
        const kept = current.filter((job) => !ids.has(job.review_id));
        return [...fresh, ...kept].sort(newestFirst);
      });
    }
  };

  /** One more page, or (`untilDone`) every page left, as a search needs them all. */
  const loadMore = async (from: string | null, untilDone = false) => {
    if (!from) return;
    const key = keyOf(filtersRef.current);
    const fromKeyboard = !!document.activeElement?.closest('.more');
    setLoadingMore(true);
    let next: string | null = from;
    let firstAdded: ReviewJob | undefined;
    while (next) {
      const result: IpcResult<ReviewList> = await invoke('reviews:list', {
        ...query(),
        cursor: next,
        ...(untilDone ? { limit: ALL_PAGE } : {}),
      });
      if (!stillFor(key)) return;
      // The pages already loaded stay; the error and its retry go where the button was.
      setMoreError(result.ok ? undefined : result.error);
      if (!result.ok) break;
      const page: ReviewList = result.value;
      const added = page.reviews.filter((job) => !jobsRef.current?.some((c) => c.review_id === job.review_id));
      firstAdded ??= added[0];
      jobsRef.current = [...(jobsRef.current ?? []), ...added];
      setJobs(jobsRef.current);
      next = page.next_cursor;
      setCursor(next);
      if (!untilDone) break;
    }
    setLoadingMore(false);
    // On the last page the button goes away: the keyboard focus moves on to the first new job
    // instead of falling back to the start of the page.
    if (!next && firstAdded && fromKeyboard) {
      const id = firstAdded.review_id;
      requestAnimationFrame(() =>
        document.querySelector<HTMLElement>(`.job-row[data-review-id="${CSS.escape(id)}"]`)?.focus(),
      );
    }
  };

  const key = keyOf(filters);
  useEffect(() => {
    // After a reconnect the loaded pages and the selection stay; new and changed jobs merge in.
    const reconnect = shownKey.current === key && jobsRef.current !== undefined;
    const sameServiceQuery = shownKey.current !== undefined && JSON.parse(shownKey.current).status === query().status;
    shownKey.current = key;
    if (reconnect) return void loadFirst(false);
    // The same reviews from the service (only the search, sort or grouping changed): keep what
    // is loaded, and fetch only the pages still missing when they are all needed now.
    if (sameServiceQuery && jobsRef.current && !error) {
      if (needsAllPages(filters)) void loadMore(cursor, true);
      return;
    }
    // Another status: the loaded reviews that match stay on screen (filtered here) until the
    // service's first page for it replaces them; their cursor belongs to the old query.
    setCursor(null);
    setTotal(undefined);
    void loadFirst(true);
  }, [key, props.connectionKey]);

  // Back on the tab: jobs made meanwhile merge in, the pages and the selection stay.
  const wasActive = useRef(props.active);
  useEffect(() => {
    if (props.active && !wasActive.current && jobsRef.current) void loadFirst(false);
    wasActive.current = props.active;
  }, [props.active]);

  // Jobs created elsewhere (CI, the CLI) appear without a refresh; not while the service is away.
  useEffect(() => {
    if (props.stale) return;
    const timer = setInterval(() => void loadFirst(false), REFRESH_MS);
    return () => clearInterval(timer);
  }, [key, props.connectionKey, props.stale]);

  // Each state change of a job the window has seen, pushed by the main process.
  useEffect(
    () =>
      bridge().on('review:updated', (update) =>
        setJobs((current) => {
          if (!current) return current;
          const known = current.some((job) => job.review_id === update.review_id);
          if (known) return current.map((job) => (job.review_id === update.review_id ? laterState(job, update) : job));
          const status = query().status;
          return !status || update.status === status ? [update, ...current] : current;
        }),
      ),
    [],
  );

  // Typed text applies after a short pause; the menus at once.
  useEffect(() => {
    const apply = () => setFilters({ ...input, text: input.text.trim(), repository: input.repository.trim() });
    if (input.text === filters.text && input.repository === filters.repository) return apply();
    const timer = setTimeout(apply, 250);
    return () => clearTimeout(timer);
  }, [input]);

  const openNew = () => {
    setSubmitting(true);
    setSelectedId(undefined);
    setDetailShown(true);
  };
  const open = (job: ReviewJob) => {
    setSelectedId(job.review_id);
    setSubmitting(false);
    setDetailShown(true);
    // Under 900 px the list is hidden now: the focus goes to the detail, not to the body.
    if (matchMedia('(max-width: 900px)').matches) requestAnimationFrame(() => detailRef.current?.focus());
  };
  const backToList = () => {
    setDetailShown(false);
    const id = selectedId;
    requestAnimationFrame(() => {
      const row = id && document.querySelector<HTMLElement>(`.job-row[data-review-id="${CSS.escape(id)}"]`);
      if (row) row.focus();
      else focusRow(listRef.current, 'first');
    });
  };
  const command = (name: MenuCommand) => {
    if (name === 'new-review') return openNew();
    if (name === 'focus-search') return searchRef.current?.focus();
    if (name === 'next-review' || name === 'previous-review')
      return focusRow(listRef.current, name === 'next-review' ? 1 : -1);
    if (name === 'open-review') {
      const focused = document.activeElement?.closest<HTMLElement>('.job-row');
      return (focused ?? listRef.current?.querySelector<HTMLElement>('.job-row[tabindex="0"]'))?.click();
    }
    if (name === 'back-to-list' && detailShown) backToList();
  };
  useReviewCommands({ command, active: props.active, searchRef });

  const all = needsAllPages(filters);
  const visible = jobs
    ? sortJobs(
        jobs.filter((job) => matchesFilters(job, filters)),
        filters.sort,
      )
    : undefined;
  const groups = filters.group && visible ? groupByRepository(visible) : undefined;
  const counts = jobs && !cursor && !serviceQuery(filters).status ? facetCounts(jobs, filters) : undefined;
  const selected = jobs?.find((job) => job.review_id === selectedId);

  return (
    <section class="view reviews" aria-labelledby="reviews-title">
      {/* One line: the height goes to the list. */}
      <div class="view-head compact">
        <div class="view-title">
          <h2 id="reviews-title">Reviews</h2>
          <p class="muted small">Live as the service works · / search, j k move, Enter opens</p>
        </div>
        <div class="view-actions">
          <CancelQueued
            queued={jobs?.filter((job) => job.status === 'queued').length ?? 0}
            onDone={() => void loadFirst(false)}
          />
          <button type="button" class="button primary" onClick={openNew}>
            New review
          </button>
        </div>
      </div>
      <div class={`split ${detailShown ? 'detail-shown' : ''}`}>
        <div class="list-pane">
          {/* Stays on top of the scrolled list: the filters, and the stale mark seen from row 200 too. */}
          <div class="list-head">
            <FilterBar
              input={input}
              onInput={(change) => setInput((current) => ({ ...current, ...change }))}
              counts={counts}
              allTotal={filters.status === '' ? total : undefined}
              searchRef={searchRef}
            />
            {/* Always there (empty while loading): its text changes, the list under it never moves. */}
            <p class="list-count muted" aria-live="polite">
              {jobs && visible && !error
                ? all && cursor
                  ? moreError
                    ? 'Not every review could be loaded.'
                    : `Loading every review to search… ${jobs.length}${total === undefined ? '' : ` of ${total}`}`
                  : listCountText({
                      shown: visible.length,
                      status: filters.status,
                      complete: !cursor,
                      inFacet: jobs.filter((job) => !filters.status || statusFacet(job) === filters.status).length,
                      total,
                    })
                : ''}
            </p>
            {props.stale && jobs && !error && <StaleNote loadedAt={loadedAt} what="reviews" />}
          </div>
          {error ? (
            <ErrorPanel error={error} onRetry={() => void loadFirst(true)} />
          ) : !jobs || !visible ? (
            <Loading label="Loading reviews…" />
          ) : visible.length === 0 && !(all && cursor) ? (
            isFiltered(filters) ? (
              <EmptyState title="No reviews match these filters">
                <button
                  type="button"
                  class="link-button"
                  onClick={() => setInput({ ...NO_FILTERS, sort: input.sort, group: input.group })}
                >
                  Clear the filters
                </button>
              </EmptyState>
            ) : (
              <EmptyState title="No reviews yet" icon="✓">
                Submit a local git folder or paste a diff with <strong>New review</strong>; its comments show up here.
              </EmptyState>
            )
          ) : (
            <>
              <div ref={listRef}>
                <JobList jobs={visible} groups={groups} selectedId={selectedId} now={now} onSelect={open} />
              </div>
              {cursor && (!all || moreError) && (
                <div class="more">
                  {moreError && <ErrorPanel error={moreError} />}
                  {/* aria-disabled, not disabled: a disabled button would drop the keyboard focus. */}
                  <button
                    type="button"
                    class="button"
                    onClick={() => !loadingMore && void loadMore(cursor, all)}
                    aria-disabled={loadingMore}
                  >
                    {loadingMore ? 'Loading…' : moreError ? 'Try again' : 'Load more'}
                  </button>
                </div>
              )}
            </>
          )}
        </div>
        <section class="detail-pane" ref={detailRef} tabIndex={-1} aria-label="Review detail">
          {/* Only on narrow windows (see styles.css), where the detail covers the list. */}
          <button type="button" class="link-button back-to-list" onClick={backToList}>
            ← Back to the list <kbd class="muted">Esc</kbd>
          </button>
          {/* Stays mounted while a review is looked at: a half-typed diff is not lost. */}
          <div hidden={!submitting}>
            <SubmitReview
              key={formKey}
              onCancel={() => setSubmitting(false)}
              onSubmitted={(job) => {
                setJobs((current = []) => [job, ...current.filter((j) => j.review_id !== job.review_id)]);
                setSubmitting(false);
                setFormKey((k) => k + 1);
                setSelectedId(job.review_id);
              }}
            />
          </div>
          {submitting ? null : selectedId ? (
            <ReviewDetail
              reviewId={selectedId}
              known={selected}
              onChanged={(job) =>
                setJobs((current) => current?.map((j) => (j.review_id === job.review_id ? laterState(j, job) : j)))
              }
              onCreated={(job) => {
                setJobs((current = []) => [job, ...current.filter((j) => j.review_id !== job.review_id)]);
                setSelectedId(job.review_id);
              }}
            />
          ) : (
            <EmptyState title="Select a review" icon="☰">
              Its timeline, comments and SARIF appear here.
            </EmptyState>
          )}
        </section>
      </div>
    </section>
  );
}
