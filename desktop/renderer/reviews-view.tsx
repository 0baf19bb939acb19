/** @jsxImportSource preact */
// The review dashboard: jobs newest first with "Load more" pages, filters, live updates pushed by
// the main process, the selected job's detail, and the form to submit a new review.
import { useEffect, useRef, useState } from 'preact/hooks';
import type { IpcError, ReviewJob, ReviewStatus } from '../shared/ipc-contract.ts';
import { EmptyState, ErrorPanel, Loading, StaleNote, StatusBadge, useNow } from './components.tsx';
import { countSeverities, failureTitle, formatAgo, formatDateTime, laterState, shortId } from './format.ts';
import { bridge, invoke } from './ipc.ts';
import { ReviewDetail } from './review-detail.tsx';
import { SubmitReview } from './submit-review.tsx';

const REFRESH_MS = 10_000;

interface Filters {
  status: ReviewStatus | '';
  repository: string;
}

/** The service's order: newest first; review ids sort by creation time, also within one millisecond. */
const newestFirst = (a: ReviewJob, b: ReviewJob) =>
  b.created_at.localeCompare(a.created_at) || (a.review_id < b.review_id ? 1 : a.review_id > b.review_id ? -1 : 0);

const matches = (job: ReviewJob, filters: Filters) =>
  (!filters.status || job.status === filters.status) && (!filters.repository || job.repository === filters.repository);

export function ReviewsView(props: { connectionKey: number; stale: boolean; active: boolean }) {
  const [filters, setFilters] = useState<Filters>({ status: '', repository: '' });
  const [repositoryInput, setRepositoryInput] = useState('');
  const [jobs, setJobs] = useState<ReviewJob[]>();
  const [cursor, setCursor] = useState<string | null>(null);
  const [loadingMore, setLoadingMore] = useState(false);
  const [moreError, setMoreError] = useState<IpcError>();
  const [error, setError] = useState<IpcError>();
  const [selectedId, setSelectedId] = useState<string>();
  const [submitting, setSubmitting] = useState(false);
  // Under 900 px the list and the detail take turns on the screen: true while the detail has it.
  const [detailShown, setDetailShown] = useState(false);
  const [loadedAt, setLoadedAt] = useState<number>();
  const filtersRef = useRef(filters);
  filtersRef.current = filters;
  const jobsRef = useRef(jobs);
  jobsRef.current = jobs;
  /** The filters the list was last loaded for: a reconnect with the same ones refreshes in place. */
  const shownFilters = useRef<Filters>(undefined);
  const now = useNow(true, 30_000);

  const query = () => ({
    ...(filtersRef.current.status ? { status: filtersRef.current.status } : {}),
    ...(filtersRef.current.repository ? { repository: filtersRef.current.repository } : {}),
  });

  const loadFirst = async (replace: boolean) => {
    const requested = filtersRef.current;
    const result = await invoke('reviews:list', query());
    if (filtersRef.current !== requested) return; // the filters changed meanwhile
    // A failed refresh keeps what was loaded: the connection banner says why it is stale.
    if (!result.ok) return replace || !jobsRef.current ? setError(result.error) : undefined;
    setError(undefined);
    setLoadedAt(Date.now());
    const page = result.value;
    if (replace) {
      setJobs(page.reviews);
      setCursor(page.next_cursor);
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

  const loadMore = async () => {
    if (!cursor || loadingMore) return;
    const fromKeyboard = !!document.activeElement?.closest('.more');
    setLoadingMore(true);
    const result = await invoke('reviews:list', { ...query(), cursor });
    setLoadingMore(false);
    // The pages already loaded stay; the error and its retry go where the button was.
    setMoreError(result.ok ? undefined : result.error);
    if (!result.ok) return;
    const added = result.value.reviews.filter((job) => !jobs?.some((c) => c.review_id === job.review_id));
    setJobs((current = []) => [
      ...current,
      ...result.value.reviews.filter((job) => !current.some((c) => c.review_id === job.review_id)),
    ]);
    setCursor(result.value.next_cursor);
    // On the last page the button goes away: the keyboard focus moves on to the first new job
    // instead of falling back to the start of the page.
    if (!result.value.next_cursor && added[0] && fromKeyboard) {
      const id = added[0].review_id;
      requestAnimationFrame(() =>
        document.querySelector<HTMLElement>(`.job-row[data-review-id="${CSS.escape(id)}"]`)?.focus(),
      );
    }
  };

  useEffect(() => {
    // After a reconnect the loaded pages and the selection stay; new and changed jobs merge in.
    const reconnect = shownFilters.current === filters && jobsRef.current !== undefined;
    shownFilters.current = filters;
    if (reconnect) return void loadFirst(false);
    setJobs(undefined);
    void loadFirst(true);
  }, [filters, props.connectionKey]);

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
  }, [filters, props.connectionKey, props.stale]);

  // Each state change of a job the window has seen, pushed by the main process.
  useEffect(
    () =>
      bridge().on('review:updated', (update) =>
        setJobs((current) => {
          if (!current) return current;
          const known = current.some((job) => job.review_id === update.review_id);
          if (known) return current.map((job) => (job.review_id === update.review_id ? laterState(job, update) : job));
          return matches(update, filtersRef.current) ? [update, ...current] : current;
        }),
      ),
    [],
  );

  // The repository filter applies after a short pause in typing.
  useEffect(() => {
    const timer = setTimeout(() => {
      const repository = repositoryInput.trim();
      if (repository !== filters.repository) setFilters((f) => ({ ...f, repository }));
    }, 350);
    return () => clearTimeout(timer);
  }, [repositoryInput]);

  const selected = jobs?.find((job) => job.review_id === selectedId);
  const filtered = filters.status !== '' || filters.repository !== '';

  return (
    <section class="view reviews" aria-labelledby="reviews-title">
      <div class="view-head">
        <div>
          <h2 id="reviews-title">Reviews</h2>
          <p class="muted">Newest first. Updates arrive as the service works.</p>
        </div>
        <button
          type="button"
          class="button primary"
          onClick={() => {
            setSubmitting(true);
            setSelectedId(undefined);
            setDetailShown(true);
          }}
        >
          New review
        </button>
      </div>
      <div class={`split ${detailShown ? 'detail-shown' : ''}`}>
        <div class="list-pane">
          {/* biome-ignore lint/a11y/useSemanticElements: Preact's JSX types have no <search> element; the role says the same */}
          <div class="filters" role="search" aria-label="Filter reviews">
            <div class="field">
              <label for="filter-status">Status</label>
              <select
                id="filter-status"
                value={filters.status}
                onChange={(e) => setFilters((f) => ({ ...f, status: e.currentTarget.value as ReviewStatus | '' }))}
              >
                <option value="">All</option>
                <option value="queued">Queued</option>
                <option value="running">Running</option>
                <option value="completed">Completed</option>
                <option value="failed">Failed</option>
              </select>
            </div>
            <div class="field grow">
              <label for="filter-repository">Repository</label>
              <input
                id="filter-repository"
                type="search"
                placeholder="github.com/acme/widgets"
                value={repositoryInput}
                onInput={(e) => setRepositoryInput(e.currentTarget.value)}
              />
            </div>
          </div>
          {error ? (
            <ErrorPanel error={error} onRetry={() => void loadFirst(true)} />
          ) : !jobs ? (
            <Loading label="Loading reviews…" />
          ) : jobs.length === 0 ? (
            filtered ? (
              <EmptyState title="No reviews match these filters">
                <button
                  type="button"
                  class="link-button"
                  onClick={() => {
                    setRepositoryInput('');
                    setFilters({ status: '', repository: '' });
                  }}
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
              {props.stale && <StaleNote loadedAt={loadedAt} what="reviews" />}
              <ul class="job-list" aria-label="Review jobs">
                {jobs.map((job) => (
                  <li key={job.review_id}>
                    <JobRow
                      job={job}
                      now={now}
                      selected={job.review_id === selectedId}
                      onSelect={() => {
                        setSelectedId(job.review_id);
                        setSubmitting(false);
                        setDetailShown(true);
                      }}
                    />
                  </li>
                ))}
              </ul>
              {cursor && (
                <div class="more">
                  {/* aria-disabled, not disabled: a disabled button would drop the keyboard focus. */}
                  {moreError && <ErrorPanel error={moreError} />}
                  <button type="button" class="button" onClick={() => void loadMore()} aria-disabled={loadingMore}>
                    {loadingMore ? 'Loading…' : moreError ? 'Try again' : 'Load more'}
                  </button>
                </div>
              )}
            </>
          )}
        </div>
        <div class="detail-pane">
          {/* Only on narrow windows (see styles.css), where the detail covers the list. */}
          <button
            type="button"
            class="link-button back-to-list"
            onClick={() => {
              setDetailShown(false);
              const id = selectedId;
              if (id)
                requestAnimationFrame(() =>
                  document.querySelector<HTMLElement>(`.job-row[data-review-id="${CSS.escape(id)}"]`)?.focus(),
                );
            }}
          >
            ← Back to the list
          </button>
          {submitting ? (
            <SubmitReview
              onCancel={() => setSubmitting(false)}
              onSubmitted={(job) => {
                setJobs((current = []) => [job, ...current.filter((j) => j.review_id !== job.review_id)]);
                setSubmitting(false);
                setSelectedId(job.review_id);
              }}
            />
          ) : selectedId ? (
            <ReviewDetail
              reviewId={selectedId}
              known={selected}
              onChanged={(job) =>
                setJobs((current) => current?.map((j) => (j.review_id === job.review_id ? laterState(j, job) : j)))
              }
            />
          ) : (
            <EmptyState title="Select a review" icon="☰">
              Its timeline, comments and SARIF appear here.
            </EmptyState>
          )}
        </div>
      </div>
    </section>
  );
}

function JobRow(props: { job: ReviewJob; now: number; selected: boolean; onSelect: () => void }) {
  const { job } = props;
  const counts = job.comments ? countSeverities(job.comments) : undefined;
  return (
    <button
      type="button"
      class={`job-row ${props.selected ? 'selected' : ''}`}
      aria-current={props.selected ? 'true' : undefined}
      onClick={props.onSelect}
      data-review-id={job.review_id}
    >
      <span class="job-row-top">
        <StatusBadge status={job.status} cancelled={job.error?.code === 'cancelled'} />
        <span class="job-repo" title={job.repository}>
          {job.repository ?? 'No repository'}
        </span>
      </span>
      <span class="job-row-bottom muted">
        <span title={formatDateTime(job.created_at)}>{formatAgo(job.created_at, props.now)}</span>
        <span aria-hidden="true">·</span>
        <code>{shortId(job.review_id)}</code>
        {job.error && job.error.code !== 'cancelled' && (
          <>
            <span aria-hidden="true">·</span>
            <span class="job-failure">{failureTitle(job.error.code)}</span>
          </>
        )}
        {counts && (
          <>
            <span aria-hidden="true">·</span>
            <span>
              {job.comments!.length === 0
                ? 'no comments'
                : `${job.comments!.length} comment${job.comments!.length === 1 ? '' : 's'}`}
              {counts.error > 0 && <span class="sev-dot error" title={`${counts.error} errors`} />}
            </span>
          </>
        )}
      </span>
    </button>
  );
}
