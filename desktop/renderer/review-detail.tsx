/** @jsxImportSource preact */
// One review job: status, timeline with durations, the error of a failed job, the comments
// grouped by file with severity badges, and its actions (cancel, copy SARIF).
import { useEffect, useState } from 'preact/hooks';
import type { IpcError, ReviewJob } from '../shared/ipc-contract.ts';
import { EmptyState, ErrorPanel, Loading, SeverityBadge, StatusBadge, useFlash, useNow } from './components.tsx';
import {
  countSeverities,
  failureTitle,
  formatDateTime,
  formatDuration,
  groupCommentsByFile,
  jobTimings,
  laterState,
  splitRuleId,
} from './format.ts';
import { bridge, invoke } from './ipc.ts';

const sameText = (a: string, b: string | undefined) =>
  b !== undefined && a.replace(/[.\s]+$/, '').toLowerCase() === b.toLowerCase();

export function ReviewDetail(props: { reviewId: string; known?: ReviewJob; onChanged: (job: ReviewJob) => void }) {
  const [job, setJob] = useState<ReviewJob | undefined>(props.known);
  const [error, setError] = useState<IpcError>();
  const [actionError, setActionError] = useState<IpcError>();
  const [cancelling, setCancelling] = useState(false);
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
    void load();
    return bridge().on('review:updated', (update) => {
      if (update.review_id === props.reviewId) setJob((current) => laterState(current, update));
    });
  }, [props.reviewId]);

  const active = job?.status === 'queued' || job?.status === 'running';
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
    } else setActionError(result.error);
  };
  const copySarif = async () => {
    setActionError(undefined);
    const result = await invoke('reviews:copySarif', job.review_id);
    if (result.ok) setFlash(`SARIF copied (${Math.ceil(result.value.bytes / 1024)} KB)`);
    else setActionError(result.error);
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
        {(active || job.status === 'completed' || flash) && (
          <div class="detail-actions">
            {active && (
              <button type="button" class="button danger-outline" onClick={() => void cancel()} disabled={cancelling}>
                {cancelling ? 'Cancelling…' : 'Cancel review'}
              </button>
            )}
            {job.status === 'completed' && (
              <button type="button" class="button" onClick={() => void copySarif()}>
                Copy SARIF
              </button>
            )}
            <span class="flash" role="status" aria-live="polite">
              {flash ?? ''}
            </span>
          </div>
        )}
        {actionError && <ErrorPanel error={actionError} />}
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
      {job.status === 'completed' && <Comments job={job} />}
    </article>
  );
}

function Comments(props: { job: ReviewJob }) {
  const comments = props.job.comments ?? [];
  if (comments.length === 0) {
    return (
      <EmptyState title="No comments" icon="✓">
        The review found nothing to flag in the added lines.
      </EmptyState>
    );
  }
  const totals = countSeverities(comments);
  const files = groupCommentsByFile(comments);
  return (
    <section class="comments" aria-labelledby="comments-title">
      <div class="comments-head">
        <h4 id="comments-title">
          {comments.length} comment{comments.length === 1 ? '' : 's'} in {files.length} file
          {files.length === 1 ? '' : 's'}
        </h4>
        <span class="badges">
          {(['error', 'warning', 'info'] as const).map(
            (s) => totals[s] > 0 && <SeverityBadge key={s} severity={s} count={totals[s]} />,
          )}
        </span>
      </div>
      {files.map((file) => (
        <details key={file.filePath} class="file" open>
          <summary>
            <span class="file-path mono" title={file.filePath}>
              {file.filePath}
            </span>
            <span class="badges">
              {(['error', 'warning', 'info'] as const).map(
                (s) => file.counts[s] > 0 && <SeverityBadge key={s} severity={s} count={file.counts[s]} />,
              )}
            </span>
          </summary>
          <ul class="comment-list">
            {file.comments.map((comment, index) => {
              const { rule, text } = splitRuleId(comment.message);
              return (
                <li key={index} class={`comment sev-${comment.severity}`}>
                  <span class="comment-line mono" title={`Line ${comment.line} of the new file`}>
                    L{comment.line}
                  </span>
                  <SeverityBadge severity={comment.severity} />
                  <span class="comment-text">
                    {rule && <code class="rule">{rule}</code>} {text}
                  </span>
                </li>
              );
            })}
          </ul>
        </details>
      ))}
    </section>
  );
}
