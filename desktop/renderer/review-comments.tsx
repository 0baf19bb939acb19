/** @jsxImportSource preact */
// A completed review's comments, grouped by file, made for big reviews: filter by severity and
// rule, collapse or expand every file, step to the next or previous finding, copy a finding, and
// open its line in VS Code when the review came from a folder on this machine.
import { countBySeverity } from '../../service/api/severity-counts.ts';
import { useEffect, useState } from 'preact/hooks';
import { foldedLines, foldedList, type ListEntry } from '../../service/api/folded-list.ts';
import type { ReviewComment, Severity } from '../../service/api/schemas.ts';
import type { ReviewJob, SuppressedInReview } from '../shared/ipc-contract.ts';
import { EmptyState, SeverityBadge, useFlash } from './components.tsx';
import { splitRuleId } from '../../service/api/rule-id.ts';
import { groupCommentsByFile } from './comment-groups.ts';
import { invoke } from './ipc.ts';

const SEVERITIES: readonly Severity[] = ['error', 'warning', 'info'];
/** A rule's findings in one file past this many are folded into one entry (the CLI's default `fold`). */
const FOLD_AT = 5;

/** A comment with its rule id, as the fold groups them. */
type Listed = ReviewComment & { rule_id: string };

/** One finding as text, for the clipboard: where, how bad, what. */
export const findingText = (comment: ReviewComment) =>
  `${comment.file_path}:${comment.line} ${comment.severity} ${comment.message}`;

/** `folder`: the folder on this machine the review came from (Open in VS Code), if any. */
export function Comments(props: { job: ReviewJob; folder: string | undefined }) {
  const comments = props.job.comments ?? [];
  const [severities, setSeverities] = useState<ReadonlySet<Severity>>(new Set(SEVERITIES));
  const [rule, setRule] = useState('');
  const [closed, setClosed] = useState<ReadonlySet<string>>(new Set());
  const [current, setCurrent] = useState<number>();
  const [flash, setFlash] = useFlash();
  const [code, setCode] = useState<Record<string, string | null>>({});
  /** Files whose folded findings were asked to be shown. */
  const [unfolded, setUnfolded] = useState<ReadonlySet<string>>(new Set());
  const [suppressed, setSuppressed] = useState<SuppressedInReview[]>([]);
  const { folder } = props;
  // What comments in the code suppressed: not comments, but the review saw them (issue 26).
  useEffect(() => {
    setSuppressed([]);
    void invoke('reviews:suppressed', props.job.review_id).then((r) => r.ok && setSuppressed(r.value));
  }, [props.job.review_id]);
  // The flagged lines' code: as the service read it (or, from an older service, the folder's).
  useEffect(() => {
    setCode({});
    void invoke('reviews:flaggedLines', props.job.review_id).then((r) => r.ok && setCode(r.value));
  }, [props.job.review_id, folder]);

  if (comments.length === 0) {
    return (
      <>
        <EmptyState title="No comments" icon="✓">
          {suppressed.length === 0
            ? 'The review found nothing to flag in the added lines.'
            : 'The review found nothing to flag in the added lines beyond what comments in the code suppressed.'}
        </EmptyState>
        <SuppressedList suppressed={suppressed} />
      </>
    );
  }
  const rules = [...new Set(comments.map((c) => splitRuleId(c.message).ruleId ?? ''))].filter(Boolean).sort();
  const shown = comments.filter((c) => severities.has(c.severity) && (!rule || splitRuleId(c.message).ruleId === rule));
  const totals = countBySeverity(comments);
  // a rule that fires on many lines of a file: its first few, the rest one entry (until asked for)
  const files = groupCommentsByFile(shown).map((file) => ({
    ...file,
    entries: foldedList<Listed>(
      file.comments.map((c) => ({ ...c, rule_id: splitRuleId(c.message).ruleId ?? '' })),
      unfolded.has(file.filePath) ? 0 : FOLD_AT,
    ),
  }));
  /** Every finding on screen, in order, to step through. */
  const order = files.flatMap((file) => file.entries.flatMap((entry) => ('finding' in entry ? [entry.finding] : [])));

  const go = (index: number) => {
    const target = order[index];
    if (!target) return;
    setCurrent(index);
    setClosed((c) => new Set([...c].filter((path) => path !== target.file_path)));
    requestAnimationFrame(() => {
      const element = document.getElementById(`finding-${index}`);
      element?.focus();
      element?.scrollIntoView({ block: 'nearest' });
    });
  };
  const toggleSeverity = (severity: Severity) => {
    setCurrent(undefined);
    setSeverities((current) => {
      const next = new Set(current);
      if (next.has(severity)) next.delete(severity);
      else next.add(severity);
      return next;
    });
  };
  const copy = async (comment: ReviewComment) => {
    const result = await invoke('clipboard:writeText', findingText(comment));
    setFlash(result.ok ? 'Finding copied' : result.error.message);
  };
  const openInEditor = async (comment: ReviewComment) => {
    const result = await invoke('reviews:openInEditor', {
      reviewId: props.job.review_id,
      filePath: comment.file_path,
      line: comment.line,
    });
    if (!result.ok) setFlash(result.error.message);
  };

  let index = 0;
  return (
    <section class="comments" aria-labelledby="comments-title">
      <div class="comments-head">
        <h4 id="comments-title">
          {shown.length === comments.length ? '' : `${shown.length} of `}
          {comments.length} comment{comments.length === 1 ? '' : 's'} in {files.length} file
          {files.length === 1 ? '' : 's'}
        </h4>
        <span class="badges">
          {SEVERITIES.map((s) => totals[s] > 0 && <SeverityBadge key={s} severity={s} count={totals[s]} />)}
        </span>
      </div>
      <div class="comments-tools">
        <fieldset class="severity-toggles">
          <legend class="visually-hidden">Show severities</legend>
          {SEVERITIES.map((s) => (
            <button
              key={s}
              type="button"
              class={`chip toggle sev-${s}`}
              aria-pressed={severities.has(s)}
              onClick={() => toggleSeverity(s)}
            >
              {s === 'error' ? 'Errors' : s === 'warning' ? 'Warnings' : 'Info'} ({totals[s]})
            </button>
          ))}
        </fieldset>
        {rules.length > 1 && (
          <div class="field inline">
            <label for="comments-rule">Rule</label>
            <select
              id="comments-rule"
              value={rule}
              onChange={(e) => {
                setCurrent(undefined);
                setRule(e.currentTarget.value);
              }}
            >
              <option value="">All rules</option>
              {rules.map((r) => (
                <option key={r} value={r}>
                  {r} ({comments.filter((c) => splitRuleId(c.message).ruleId === r).length})
                </option>
              ))}
            </select>
          </div>
        )}
        <span class="tool-group">
          <button type="button" class="button small" onClick={() => setClosed(new Set(files.map((f) => f.filePath)))}>
            Collapse all
          </button>
          <button type="button" class="button small" onClick={() => setClosed(new Set())}>
            Expand all
          </button>
        </span>
        <span class="tool-group">
          <button
            type="button"
            class="button small"
            onClick={() => go(current === undefined ? order.length - 1 : Math.max(0, current - 1))}
            disabled={order.length === 0}
          >
            ↑ Previous finding
          </button>
          <button
            type="button"
            class="button small"
            onClick={() => go(current === undefined ? 0 : Math.min(order.length - 1, current + 1))}
            disabled={order.length === 0}
          >
            ↓ Next finding
          </button>
        </span>
        <span class="flash" role="status" aria-live="polite">
          {flash ?? (current !== undefined ? `Finding ${current + 1} of ${order.length}` : '')}
        </span>
      </div>
      {files.map((file) => (
        <details
          key={file.filePath}
          class="file"
          open={!closed.has(file.filePath)}
          onToggle={(e) => {
            const open = e.currentTarget.open;
            setClosed((c) => {
              if (open === !c.has(file.filePath)) return c;
              const next = new Set(c);
              if (open) next.delete(file.filePath);
              else next.add(file.filePath);
              return next;
            });
          }}
        >
          <summary>
            <span class="file-path mono" title={file.filePath}>
              {file.filePath}
            </span>
            <span class="badges">
              {SEVERITIES.map(
                (s) => file.counts[s] > 0 && <SeverityBadge key={s} severity={s} count={file.counts[s]} />,
              )}
            </span>
          </summary>
          <ul class="comment-list">
            {file.entries.map((entry: ListEntry<Listed>) => {
              if ('folded' in entry) {
                const { folded } = entry;
                return (
                  <li key={`folded-${folded.rule_id}`} class="comment folded">
                    <span class="comment-text">
                      … and {folded.lines.length} more <code class="rule">{folded.rule_id}</code> in this file:{' '}
                      {foldedLines(folded)}
                    </span>
                    <span class="comment-actions">
                      <button
                        type="button"
                        class="link-button"
                        onClick={() => setUnfolded((u) => new Set([...u, file.filePath]))}
                      >
                        Show them
                      </button>
                    </span>
                  </li>
                );
              }
              const comment = entry.finding;
              const at = index++;
              const { ruleId, text } = splitRuleId(comment.message);
              return (
                <li
                  key={at}
                  id={`finding-${at}`}
                  tabIndex={-1}
                  class={`comment sev-${comment.severity} ${at === current ? 'current' : ''}`}
                >
                  <span class="comment-line mono" title={`Line ${comment.line} of the new file`}>
                    L{comment.line}
                  </span>
                  <SeverityBadge severity={comment.severity} />
                  <span class="comment-text">
                    {ruleId && <code class="rule">{ruleId}</code>} {text}
                  </span>
                  <FlaggedLine code={code[`${comment.file_path}:${comment.line}`]} />
                  <span class="comment-actions">
                    <button
                      type="button"
                      class="link-button"
                      onClick={() => void copy(comment)}
                      aria-label={`Copy the finding at ${comment.file_path} line ${comment.line}`}
                    >
                      Copy
                    </button>
                    {folder && (
                      <button
                        type="button"
                        class="link-button"
                        onClick={() => void openInEditor(comment)}
                        aria-label={`Open ${comment.file_path} at line ${comment.line} in VS Code`}
                      >
                        Open in VS Code
                      </button>
                    )}
                  </span>
                </li>
              );
            })}
          </ul>
        </details>
      ))}
      <SuppressedList suppressed={suppressed} />
    </section>
  );
}

/** The flagged line's code under a comment; for a line that holds a secret, only that it is not shown. */
function FlaggedLine(props: { code: string | null | undefined }) {
  if (props.code === undefined) return null;
  if (props.code === null)
    return <span class="comment-code-hidden muted small">(line not shown: it holds a secret)</span>;
  return (
    <code class="comment-code mono" title="The flagged line">
      {props.code}
    </code>
  );
}

/** What inline comments suppressed, folded: a count, and each with its place and reason when opened. */
function SuppressedList(props: { suppressed: readonly SuppressedInReview[] }) {
  const { suppressed } = props;
  if (suppressed.length === 0) return null;
  return (
    <details class="suppressed">
      <summary>
        {suppressed.length} more finding{suppressed.length === 1 ? '' : 's'} suppressed by a comment in the code
      </summary>
      <ul>
        {suppressed.map((s) => (
          <li key={`${s.file_path}:${s.line}:${s.rule_id}`}>
            <code class="rule">{s.rule_id}</code> {s.file_path}:{s.line}{' '}
            <span class="suppression-reason">
              {s.reason === null ? `(${s.by}, no reason given)` : `— ${s.reason} (${s.by})`}
            </span>
          </li>
        ))}
      </ul>
    </details>
  );
}
