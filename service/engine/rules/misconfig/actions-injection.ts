// GitHub Actions script injection: an expression that an outsider controls (an issue's title, a
// pull request's body or branch name, a comment) written into a `run:` script is pasted into the
// shell before it runs, so its text runs as commands. And `pull_request_target`, which runs with
// the base repository's secrets, checking out the pull request's own code.
import { isGitHubWorkflow } from '../files.ts';
import type { AddedLine, LineRule } from '../rule.ts';
import { spanOf } from '../rule.ts';

/** Contexts an outsider writes (GitHub Security Lab's list of untrusted inputs). */
const UNTRUSTED =
  /\$\{\{\s*(?:github\.event\.(?:issue\.(?:title|body)|pull_request\.(?:title|body|head\.ref|head\.label|head\.repo\.default_branch)|comment\.body|review\.body|review_comment\.body|discussion\.(?:title|body)|pages\.[\w*]+\.page_name|commits\.[\w*]+\.(?:message|author\.(?:email|name))|head_commit\.(?:message|author\.(?:email|name))|workflow_run\.(?:head_branch|head_commit\.message|display_title))|github\.head_ref)\s*\}\}/;

/** How far up a line may look for the `run:` key whose script it belongs to. */
const RUN_REACH = 60;

function indentOf(text: string): number {
  return text.length - text.trimStart().length;
}

/** The line is part of a `run:` script: `run:` on it, or a block scalar opened by `run: |` above at a lower indentation. */
function inRunScript(line: AddedLine): boolean {
  if (/^\s*(?:-\s+)?run\s*:/.test(line.text)) return true;
  const indent = indentOf(line.text);
  for (let offset = -1; offset >= -RUN_REACH; offset--) {
    const above = line.lineAt(offset);
    if (above === undefined) return false;
    if (above.kind === '-' || above.text.trim() === '') continue;
    if (indentOf(above.text) < indent) return /^\s*(?:-\s+)?run\s*:\s*[|>][-+]?\s*$/.test(above.text);
  }
  return false;
}

export const noActionsScriptInjection: LineRule = {
  kind: 'line',
  id: 'no-actions-script-injection',
  severity: 'error',
  summary:
    'A GitHub Actions `run:` script interpolates text an outsider controls (an issue title, a pull request body or branch name, a comment).',
  help: 'Pass the value through an environment variable (env: TITLE: ${{ github.event.issue.title }}, then "$TITLE" in the script), which the shell does not parse as code.',
  message:
    'This `run:` script pastes text an outsider controls into the shell (script injection); pass it through env: and use "$VAR" in the script.',
  files: isGitHubWorkflow,
  keywords: ['github.event.', 'github.head_ref'],
  reads: 'text',
  check(line) {
    const m = UNTRUSTED.exec(line.text);
    if (!m || /^\s*#/.test(line.text) || !inRunScript(line)) return null;
    return spanOf(m);
  },
};

/** The hunk mentions pull_request_target (worked out once per hunk). */
function hunkHasPullRequestTarget(line: AddedLine): boolean {
  const key = noPullRequestTargetCheckout;
  let known = line.hunkMemo.get(key) as boolean | undefined;
  if (known === undefined) {
    known = false;
    for (let offset = -line.indexInHunk; ; offset++) {
      const other = line.lineAt(offset);
      if (other === undefined) break;
      if (other.kind !== '-' && other.text.includes('pull_request_target')) {
        known = true;
        break;
      }
    }
    line.hunkMemo.set(key, known);
  }
  return known;
}

export const noPullRequestTargetCheckout: LineRule = {
  kind: 'line',
  id: 'no-pull-request-target-checkout',
  severity: 'error',
  summary:
    "A `pull_request_target` workflow checks out the pull request's own code, and runs it with the base repository's secrets and write token.",
  help: "Use `pull_request` for building and testing contributions; if `pull_request_target` is needed (labels, comments), do not check out or run the pull request's head in it.",
  message:
    "This `pull_request_target` workflow checks out the pull request's code, which then runs with the repository's secrets and write token; use `pull_request` to build contributions.",
  files: isGitHubWorkflow,
  keywords: ['pull_request.head.', 'github.head_ref', 'refs/pull/'],
  reads: 'text',
  check(line) {
    const m =
      /^\s*(?:-\s+)?ref\s*:\s*["']?(?:\$\{\{\s*(?:github\.event\.pull_request\.head\.(?:sha|ref)|github\.head_ref)\s*\}\}|refs\/pull\/\$\{\{[^}]{1,80}\}\}\/(?:head|merge))/.exec(
        line.text,
      );
    if (!m || !hunkHasPullRequestTarget(line)) return null;
    return spanOf(m);
  },
};
