/** @jsxImportSource preact */
// One row of the review list: status, repository (never cut where names differ), age, id, why it
// failed, and its comment count. A roving tab stop: only the list's current row is in the tab order.
import { countBySeverity } from '../../service/api/severity-counts.ts';
import { StatusBadge } from './components.tsx';
import type { ReviewJob } from '../shared/ipc-contract.ts';
import { failureTitle, shortId } from './job-view.ts';
import { formatAgo, formatDateTime } from './time-format.ts';

/** About this much of a name's end always stays visible; the ellipsis, when needed, goes before it. */
const TAIL_CHARS = 14;
/** How far back the kept end may reach for the start of a word (after / . - _), so that it starts with one. */
const WORD_REACH = 10;

/** Where the always-visible end of `name` starts: about TAIL_CHARS from the end, at the start of a word. */
function tailStart(name: string): number {
  const cut = name.length - TAIL_CHARS;
  if (cut <= 0) return 0;
  for (let at = cut; at >= Math.max(1, cut - WORD_REACH); at--) if (/[/.\-_]/.test(name[at - 1]!)) return at;
  return cut;
}

export function JobRow(props: {
  job: ReviewJob;
  now: number;
  selected: boolean;
  tabStop: boolean;
  onSelect: () => void;
}) {
  const { job } = props;
  const counts = job.comments ? countBySeverity(job.comments) : undefined;
  const name = job.repository ?? 'No repository';
  const cut = tailStart(name);
  return (
    <button
      type="button"
      class={`job-row ${props.selected ? 'selected' : ''}`}
      aria-current={props.selected ? 'true' : undefined}
      tabIndex={props.tabStop ? 0 : -1}
      onClick={props.onSelect}
      data-review-id={job.review_id}
    >
      <span class="job-row-top">
        <StatusBadge status={job.status} cancelled={job.error?.code === 'cancelled'} />
        <span class="job-repo" title={job.repository ?? undefined}>
          <span class="repo-head">{name.slice(0, cut)}</span>
          <span class="repo-tail">{name.slice(cut)}</span>
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
