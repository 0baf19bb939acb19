/** @jsxImportSource preact */
// One review job: status, timeline with durations, the error of a failed job, the comments
// (review-comments.tsx), and its actions (cancel, copy SARIF).
import { useEffect, useState } from 'preact/hooks';
import type { IpcError, LocalReviewInfo, ReviewJob } from '../shared/ipc-contract.ts';
import { isTerminalStatus } from '../../service/api/review-status.ts';
import { ErrorPanel, isRetryable, Loading, StatusBadge, useFlash, useNow } from './components.tsx';
import { failureTitle, jobTimings, laterState } from './job-view.ts';
import { formatDateTime, formatDuration } from './time-format.ts';
import { bridge, invoke } from './ipc.ts';
import { Comments } from './review-comments.tsx';

const sameText = (a: string, b: string | undefined) =>
  b !== undefined && a.replace(/[.\s]+$/, '').toLowerCase() === b.toLowerCase();

export function ReviewDetail(props: {
  reviewId: string;
  known?: ReviewJob;
  onChanged: (job: ReviewJob) => void;
  /** A new review made from this one ("Run again"). */
  onCreated: (job: ReviewJob) => void;
}) {
  const [job, setJob] = useState<ReviewJob | undefined>(props.known);
  const [error, setError] = useState<IpcError>();
  const [actionError, setActionError] = useState<IpcError>();
  /** The action that failed, for its "Try again". */
  const [failedAction, setFailedAction] = useState<() => void>();
  const [cancelling, setCancelling] = useState(false);
  const [local, setLocal] = useState<LocalReviewInfo>();
  const [flash, setFlash] = useFlash();

  const load = async () => {
    const result = await invoke('reviews:get', props.reviewId);
    if (result.ok) {
      setJob((current) => laterState(current, result.value));
      setError(undefined);
    } else setError(result.error);
  };

  useEffect(() => {
    setJob(props.known);
    setActionError(undefined);
    setLocal(undefined);
    void invoke('reviews:localInfo', props.reviewId).then((r) => r.ok && setLocal(r.value));
    void load();
    return bridge().on('review:updated', (update) => {
      if (update.review_id === props.reviewId) setJob((current) => laterState(current, update));
    });
  }, [props.reviewId]);

  const active = job !== undefined && !isTerminalStatus(job.status);
  const now = useNow(active, 1000);
  // A safety net under the pushed updates: while the job runs, ask again now and then.
  useEffect(() => {
    if (!active) return;
    const timer = setInterval(() => void load(), 5000);
    return () => clearInterval(timer);
  }, [active, props.reviewId]);

  if (error && !job) return <ErrorPanel error={error} onRetry={() => void load()} />;
  if (!job) return <Loading label="Loading the review…" />;

  const timings = jobTimings(job, now);
  const cancel = async () => {
    setCancelling(true);
    setActionError(undefined);
    const result = await invoke('reviews:cancel', job.review_id);
    setCancelling(false);
    if (result.ok) {
      setJob((current) => laterState(current, result.value));
      props.onChanged(result.value);
    } else {
      setActionError(result.error);
      setFailedAction(() => () => void cancel());
    }
  };
  const fail = (error: IpcError, retry: () => void) => {
    setActionError(error);
    setFailedAction(() => retry);
  };
  const saveSarif = async () => {
    setActionError(undefined);
    const result = await invoke('reviews:saveSarif', job.review_id);
    if (!result.ok) return fail(result.error, () => void saveSarif());
    if (result.value) setFlash(`Saved to ${result.value.path}`);
  };
  const rerun = async () => {
    setActionError(undefined);
    const result = await invoke('reviews:rerun', job.review_id);
    if (result.ok) props.onCreated(result.value);
    else fail(result.error, () => void rerun());
  };
  const copySarif = async () => {
    setActionError(undefined);
    const result = await invoke('reviews:copySarif', job.review_id);
    if (result.ok) setFlash(`SARIF copied (${Math.ceil(result.value.bytes / 1024)} KB)`);
    else {
      setActionError(result.error);
      setFailedAction(() => () => void copySarif());
    }
  };

  return (
    <article class="detail" aria-labelledby="detail-title" aria-busy={active}>
      <header class="detail-head">
        <div class="detail-title-row">
          <StatusBadge status={job.status} cancelled={job.error?.code === 'cancelled'} />
          <h3 id="detail-title" class="detail-title" title={job.repository}>
            {job.repository ?? 'No repository'}
          </h3>
        </div>
        <p class="muted small mono">
          {job.review_id}
          {job.base_commit && <> · base {job.base_commit.slice(0, 12)}</>}
        </p>
        {(active || job.status === 'completed' || local?.canRerun || flash) && (
          <div class="detail-actions">
            {active && (
              <button type="button" class="button danger-outline" onClick={() => void cancel()} disabled={cancelling}>
                {cancelling ? 'Cancelling…' : 'Cancel review'}
              </button>
            )}
            {job.status === 'completed' && (
              <>
                <button type="button" class="button" onClick={() => void copySarif()}>
                  Copy SARIF
                </button>
                <button type="button" class="button" onClick={() => void saveSarif()}>
                  Save SARIF…
                </button>
              </>
            )}
            {job.status === 'failed' && local?.canRerun && (
              <button type="button" class="button" onClick={() => void rerun()}>
                Run again
              </button>
            )}
            <span class="flash" role="status" aria-live="polite">
              {flash ?? ''}
            </span>
          </div>
        )}
        {actionError && (
          <ErrorPanel error={actionError} onRetry={isRetryable(actionError) ? failedAction : undefined} />
        )}
      </header>

      <dl class="timeline">
        <div>
          <dt>Submitted</dt>
          <dd>{formatDateTime(job.created_at)}</dd>
        </div>
        <div>
          <dt>{job.started_at ? 'Waited' : 'Waiting'}</dt>
          <dd>{timings.waitedMs !== undefined ? formatDuration(timings.waitedMs) : '—'}</dd>
        </div>
        <div>
          <dt>Started</dt>
          <dd>{job.started_at ? formatDateTime(job.started_at) : '—'}</dd>
        </div>
        <div>
          <dt>{job.status === 'running' ? 'Running for' : 'Ran'}</dt>
          <dd>{timings.ranMs !== undefined ? formatDuration(timings.ranMs) : '—'}</dd>
        </div>
        <div>
          <dt>{job.status === 'failed' ? 'Ended' : 'Completed'}</dt>
          <dd>
            {job.completed_at
              ? formatDateTime(job.completed_at)
              : job.status === 'failed'
                ? formatDateTime(job.updated_at)
                : '—'}
          </dd>
        </div>
        <div>
          <dt>Total</dt>
          <dd>{timings.totalMs !== undefined ? formatDuration(timings.totalMs) : '—'}</dd>
        </div>
      </dl>

      {job.status === 'failed' && job.error && (
        <div class={`panel ${job.error.code === 'cancelled' ? 'panel-neutral' : 'panel-error'}`} role="status">
          <p class="panel-title">{failureTitle(job.error.code)}</p>
          {!sameText(job.error.message, failureTitle(job.error.code)) && <p>{job.error.message}</p>}
          <p class="muted small mono">{job.error.code}</p>
        </div>
      )}
      {active && <Loading label={job.status === 'queued' ? 'Waiting for a free reviewer…' : 'Reviewing the diff…'} />}
      {job.status === 'completed' && <Comments job={job} folder={local?.folder ?? undefined} />}
    </article>
  );
}
