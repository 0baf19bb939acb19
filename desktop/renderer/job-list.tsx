/** @jsxImportSource preact */
// The review list, flat or grouped by repository. One tab stop for the whole list (a roving
// tabindex): Tab passes it in one step; j/k or the arrow keys, Home and End move between rows;
// Enter or Space opens the focused row (it is a button).
import { useEffect, useRef, useState } from 'preact/hooks';
import type { ReviewJob } from '../shared/ipc-contract.ts';
import { JobRow } from './job-row.tsx';
import type { RepositoryGroup } from './review-query.ts';

export type RowMove = 1 | -1 | 'first' | 'last';

/** Moves the keyboard focus to another row of `list` (from the focused or the selected one). */
export function focusRow(list: HTMLElement | null, move: RowMove): void {
  const rows = [...(list?.querySelectorAll<HTMLElement>('.job-row') ?? [])];
  if (rows.length === 0) return;
  const from = rows.indexOf(document.activeElement as HTMLElement);
  const current = from >= 0 ? from : rows.findIndex((row) => row.getAttribute('aria-current') === 'true');
  const index =
    move === 'first'
      ? 0
      : move === 'last'
        ? rows.length - 1
        : current < 0
          ? 0
          : Math.min(rows.length - 1, Math.max(0, current + move));
  rows[index]!.focus();
  rows[index]!.scrollIntoView({ block: 'nearest' });
}

const KEY_MOVES: Record<string, RowMove> = {
  j: 1,
  ArrowDown: 1,
  k: -1,
  ArrowUp: -1,
  Home: 'first',
  End: 'last',
};

export function JobList(props: {
  jobs: ReviewJob[];
  groups: RepositoryGroup[] | undefined;
  selectedId: string | undefined;
  now: number;
  onSelect: (job: ReviewJob) => void;
}) {
  const [focusedId, setFocusedId] = useState<string>();
  const has = (id: string | undefined) => id !== undefined && props.jobs.some((job) => job.review_id === id);
  const tabStop = has(focusedId) ? focusedId : has(props.selectedId) ? props.selectedId : props.jobs[0]?.review_id;

  // The keys reach the rows (buttons) through their container: one listener for all of them.
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const element = ref.current;
    element?.addEventListener('keydown', onKeyDown);
    element?.addEventListener('focusin', onFocusIn);
    return () => {
      element?.removeEventListener('keydown', onKeyDown);
      element?.removeEventListener('focusin', onFocusIn);
    };
  }, []);
  function onKeyDown(event: KeyboardEvent) {
    const move = KEY_MOVES[event.key];
    if (move === undefined || event.altKey || event.ctrlKey || event.metaKey) return;
    event.preventDefault();
    focusRow(event.currentTarget as HTMLElement, move);
  }
  function onFocusIn(event: FocusEvent) {
    const id = (event.target as HTMLElement).closest?.('.job-row')?.getAttribute('data-review-id');
    if (id) setFocusedId(id);
  }
  const rows = (jobs: ReviewJob[], label: string) => (
    <ul class="job-list" aria-label={label}>
      {jobs.map((job) => (
        <li key={job.review_id}>
          <JobRow
            job={job}
            now={props.now}
            selected={job.review_id === props.selectedId}
            tabStop={job.review_id === tabStop}
            onSelect={() => props.onSelect(job)}
          />
        </li>
      ))}
    </ul>
  );
  return (
    <div class="job-lists" ref={ref}>
      {props.groups
        ? props.groups.map((group) => (
            <section key={group.repository ?? ''} class="job-group" aria-label={group.repository ?? 'No repository'}>
              <h3 class="job-group-title" title={group.repository ?? undefined}>
                <span class="group-name">{group.repository ?? 'No repository'}</span>
                <span class="count">{group.jobs.length}</span>
              </h3>
              {rows(group.jobs, `Review jobs of ${group.repository ?? 'no repository'}`)}
            </section>
          ))
        : rows(props.jobs, 'Review jobs')}
    </div>
  );
}
