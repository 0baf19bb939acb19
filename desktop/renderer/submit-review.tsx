/** @jsxImportSource preact */
// Submit a review: a local git folder (the main process finds the base commit and makes the
// three-dot diff with service/git, as the extension does) or a pasted diff.
import { useEffect, useState } from 'preact/hooks';
import type { FolderCheck, IpcError, ReviewJob } from '../shared/ipc-contract.ts';
import { ErrorPanel, errorAria, FieldError, isRetryable } from './components.tsx';
import { invoke } from './ipc.ts';
import { LIMITS } from '../../service/api/limits.ts';
import { parseUnifiedDiff } from '../../service/engine/diff/parse.ts';

/**
 * Checked as the user types, so an oversize diff (the service would answer 413) or text that is
 * not a diff (the review would fail) is refused before it is sent, with the reason. The engine's
 * own parser decides what a diff is.
 */
function diffProblem(diff: string): string | undefined {
  const bytes = new TextEncoder().encode(diff).length;
  if (bytes > LIMITS.diffBytes)
    return `This diff is ${bytes.toLocaleString('en-US')} bytes; the service accepts at most ${LIMITS.diffBytes.toLocaleString('en-US')} bytes. Review a smaller part.`;
  if (!diff.trim()) return undefined;
  try {
    parseUnifiedDiff(diff);
    return undefined;
  } catch (error) {
    return error instanceof Error ? error.message : 'This is not a unified diff.';
  }
}

type Source = 'folder' | 'diff';

export function SubmitReview(props: { onSubmitted: (job: ReviewJob) => void; onCancel: () => void }) {
  const [source, setSource] = useState<Source>('folder');
  const [folder, setFolder] = useState<string>();
  const [baseBranch, setBaseBranch] = useState('');
  const [includeUncommitted, setIncludeUncommitted] = useState(false);
  const [diff, setDiff] = useState('');
  const [repository, setRepository] = useState('');
  const [baseCommit, setBaseCommit] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<IpcError>();
  /** The chosen folder checked with these settings; undefined while checking. */
  const [folderCheck, setFolderCheck] = useState<FolderCheck>();

  // A picked folder is checked at once (and again when the base or the uncommitted choice
  // changes): an unusable one says why at the field, and Submit waits.
  useEffect(() => {
    if (!folder) return;
    setFolderCheck(undefined);
    let current = true;
    const timer = setTimeout(async () => {
      const result = await invoke('git:checkFolder', { folder, baseBranch, includeUncommitted });
      if (current) setFolderCheck(result.ok ? result.value : { problem: result.error.message });
    }, 300);
    return () => {
      current = false;
      clearTimeout(timer);
    };
  }, [folder, baseBranch, includeUncommitted]);

  const choose = async () => {
    setError(undefined);
    const result = await invoke('git:chooseFolder');
    if (!result.ok) setError(result.error);
    else if (result.value) setFolder(result.value.folder);
  };

  const submit = async (event: Event) => {
    event.preventDefault();
    setError(undefined);
    if (source === 'folder' && !folder)
      return setError({ kind: 'invalid_input', field: 'folder', message: 'Choose a folder first.' });
    setBusy(true);
    const result =
      source === 'folder'
        ? await invoke('reviews:submitFolder', { folder: folder!, baseBranch, includeUncommitted }).then((r) =>
            r.ok ? { ok: true as const, value: r.value.job } : r,
          )
        : await invoke('reviews:submitDiff', { diff, repository, baseCommit });
    setBusy(false);
    if (result.ok) props.onSubmitted(result.value);
    else setError(result.error);
  };

  const sizeProblem = source === 'diff' ? diffProblem(diff) : undefined;
  const folderProblem = source === 'folder' && folderCheck?.problem ? folderCheck.problem : undefined;
  const folderPending = source === 'folder' && !!folder && folderCheck === undefined;
  const errorFor = (...fields: string[]) =>
    fields.includes('diff') && sizeProblem
      ? sizeProblem
      : fields.includes('folder') && folderProblem
        ? folderProblem
        : error?.field && fields.includes(error.field)
          ? error.message
          : undefined;
  const shownAtField =
    error?.field && ['folder', 'diff', 'repository', 'base_commit', 'baseCommit'].includes(error.field);

  return (
    <form class="submit" onSubmit={submit} aria-labelledby="submit-title">
      <h3 id="submit-title">New review</h3>
      <div class="segmented" role="radiogroup" aria-label="What to review">
        {(
          [
            ['folder', 'Local git folder'],
            ['diff', 'Paste a diff'],
          ] as const
        ).map(([value, label]) => (
          <label key={value} class={source === value ? 'selected' : undefined}>
            <input
              type="radio"
              name="source"
              value={value}
              checked={source === value}
              onChange={() => setSource(value)}
            />
            {label}
          </label>
        ))}
      </div>

      {source === 'folder' ? (
        <div class="fields">
          <div class="field">
            <span class="label" id="folder-label">
              Repository folder
            </span>
            <div class="folder-row">
              <button
                type="button"
                class="button"
                onClick={() => void choose()}
                aria-describedby="folder-label folder-value"
              >
                Choose folder…
              </button>
              <span id="folder-value" class={`folder-value mono ${folder ? '' : 'muted'}`} title={folder}>
                {folder ?? 'No folder chosen'}
              </span>
            </div>
            <FieldError id="folder-error" error={errorFor('folder')} />
            {folderPending && <p class="hint">Checking the folder…</p>}
            {folderCheck && folderCheck.problem === null && !errorFor('folder') && (
              <p class="hint" id="folder-summary">
                {folderCheck.repository} against {folderCheck.baseRef}: {Math.ceil(folderCheck.diffBytes / 1000)} kB to
                review.
              </p>
            )}
            <p class="hint">
              The branch checked out there is compared with the base branch (three-dot diff from their merge base).
            </p>
          </div>
          <div class="field">
            <label for="base-branch">Base branch (optional)</label>
            <input
              id="base-branch"
              type="text"
              placeholder="the remote's default branch, e.g. origin/main"
              value={baseBranch}
              onInput={(e) => setBaseBranch(e.currentTarget.value)}
            />
          </div>
          <label class="check">
            <input
              type="checkbox"
              checked={includeUncommitted}
              onChange={(e) => setIncludeUncommitted(e.currentTarget.checked)}
            />
            <span>Include uncommitted changes</span>
          </label>
        </div>
      ) : (
        <div class="fields">
          <div class="field">
            <label for="diff-text">Unified diff</label>
            <textarea
              id="diff-text"
              class="mono"
              rows={12}
              spellcheck={false}
              placeholder="diff --git a/src/app.js b/src/app.js …"
              value={diff}
              onInput={(e) => setDiff(e.currentTarget.value)}
              {...errorAria('diff-error', errorFor('diff'))}
            />
            <FieldError id="diff-error" error={errorFor('diff')} />
          </div>
          <div class="form-row">
            <div class="field grow">
              <label for="diff-repository">Repository</label>
              <input
                id="diff-repository"
                type="text"
                placeholder="github.com/acme/widgets"
                value={repository}
                onInput={(e) => setRepository(e.currentTarget.value)}
                {...errorAria('repository-error', errorFor('repository'))}
              />
              <FieldError id="repository-error" error={errorFor('repository')} />
            </div>
            <div class="field grow">
              <label for="diff-base">Base commit (optional)</label>
              <input
                id="diff-base"
                type="text"
                class="mono"
                placeholder="9f91288…"
                value={baseCommit}
                onInput={(e) => setBaseCommit(e.currentTarget.value)}
                {...errorAria('base-error', errorFor('base_commit'))}
              />
              <FieldError id="base-error" error={errorFor('base_commit')} />
            </div>
          </div>
        </div>
      )}
      {error && !shownAtField && (
        <ErrorPanel error={error} onRetry={isRetryable(error) ? () => void submit(new Event('submit')) : undefined} />
      )}
      <div class="actions">
        <button
          type="submit"
          class="button primary"
          disabled={busy || sizeProblem !== undefined || folderProblem !== undefined || folderPending}
        >
          {busy ? (source === 'folder' ? 'Preparing the diff…' : 'Submitting…') : 'Submit review'}
        </button>
        <button type="button" class="button" onClick={props.onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}
