// GitHub Actions script injection: an expression that an outsider controls (an issue's title, a
// pull request's body or branch name, a comment) written into a `run:` script is pasted into the
// shell before it runs, so its text runs as commands. And `pull_request_target`, which runs with
// the base repository's secrets, checking out the pull request's own code.
import { isGitHubWorkflow } from '../files.ts';
import type { AddedLine, LineRule } from '../rule.ts';
import { spanOf } from '../rule.ts';

/**
 * Contexts an outsider writes (GitHub Security Lab's list of untrusted inputs), a manual run's
 * inputs (`github.event.inputs`), and the whole event as JSON (`toJSON(github.event)` holds them all).
 */
const UNTRUSTED =
  /\$\{\{\s*(?:github\.event\.(?:issue\.(?:title|body)|pull_request\.(?:title|body|head\.ref|head\.label|head\.repo\.default_branch)|comment\.body|review\.body|review_comment\.body|discussion\.(?:title|body)|pages\.[\w*]+\.page_name|commits\.[\w*-]+\.(?:message|author\.(?:email|name))|head_commit\.(?:message|author\.(?:email|name))|workflow_run\.(?:head_branch|head_commit\.message|display_title)|inputs\.[\w-]+)|github\.head_ref|toJson\(\s*github\.event\s*\))\s*\}\}/i;

/**
 * A composite action's inputs: whoever uses the action passes them, often straight from an
 * issue or a pull request (`with: title: ${{ github.event.issue.title }}`).
 */
const ACTION_INPUT = /\$\{\{\s*inputs\.[\w-]+\s*\}\}/;
const isCompositeAction = (path: string): boolean => /(^|\/)action\.ya?ml$/.test(path);

/** How far up a line may look for the `run:` key whose script it belongs to. */
const RUN_REACH = 60;

function indentOf(text: string): number {
  return text.length - text.trimStart().length;
}

/**
 * Actions whose input is a script they run, and that input's name: actions/github-script's
 * JavaScript, PowerShell (Amadevus/pwsh-script, azure/powershell), Python
 * (jannekem/run-python-script-action), the Azure CLI's, yq's expression.
 */
const SCRIPT_INPUTS: Record<string, string> = {
  'actions/github-script': 'script',
  'amadevus/pwsh-script': 'script',
  'jannekem/run-python-script-action': 'script',
  'azure/cli': 'inlineScript',
  'azure/powershell': 'inlineScript',
  'mikefarah/yq': 'cmd',
};

/** A `run:` key, or an input that some action runs as a script (SCRIPT_INPUTS). */
const SCRIPT_KEY = /^\s*(?:-\s+)?(run|script|inlineScript|cmd)\s*:/;
const SCRIPT_BLOCK = /^\s*(?:-\s+)?(run|script|inlineScript|cmd)\s*:\s*[|>][-+]?\s*$/;
const USES = /^\s*(?:-\s+)?uses\s*:\s*["']?([\w.-]+\/[\w.-]+)@/;

/** The input `key` at `offset` is the script input of the action its step uses (its `uses:` above, in the step). */
function isScriptInput(line: AddedLine, offset: number, key: string): boolean {
  const keyIndent = indentOf(line.lineAt(offset)?.text ?? '');
  for (let o = offset - 1; o >= offset - RUN_REACH; o--) {
    const above = line.lineAt(o);
    if (above === undefined) return false;
    if (above.kind === '-' || above.text.trim() === '') continue;
    const uses = USES.exec(above.text);
    if (uses) return SCRIPT_INPUTS[uses[1]!.toLowerCase()] === key;
    // The step's first line (`- uses:` or `- name:`) is the last that belongs to it.
    if (/^\s*-\s/.test(above.text) && indentOf(above.text) < keyIndent) return false;
  }
  return false;
}

/** A YAML key (`with:`, `env:`) or a list item: where a script's own nesting ends. */
const YAML_KEY_OR_ITEM = /^\s*(?:-(?:\s|$)|[\w.-]+\s*:(?:\s|$))/;

/**
 * The line is part of a script: `run:` (or an action's script input) on it, or a block scalar
 * opened by one above at a lower indentation. The script's own nesting (a call's arguments over
 * several lines, an `if`'s body) is climbed through; a YAML key or list item on the way ends it.
 */
function inRunScript(line: AddedLine): boolean {
  const own = SCRIPT_KEY.exec(line.text);
  if (own) return own[1] === 'run' || isScriptInput(line, 0, own[1]!);
  let indent = indentOf(line.text);
  for (let offset = -1; offset >= -RUN_REACH; offset--) {
    const above = line.lineAt(offset);
    if (above === undefined) return false;
    if (above.kind === '-' || above.text.trim() === '') continue;
    if (indentOf(above.text) < indent) {
      const block = SCRIPT_BLOCK.exec(above.text);
      if (block) return block[1] === 'run' || isScriptInput(line, offset, block[1]!);
      if (YAML_KEY_OR_ITEM.test(above.text)) return false;
      indent = indentOf(above.text);
    }
  }
  return false;
}

export const noActionsScriptInjection: LineRule = {
  kind: 'line',
  id: 'no-actions-script-injection',
  severity: 'error',
  summary:
    "A GitHub Actions `run:` script (or a script an action runs, such as actions/github-script's `script:`) interpolates text an outsider controls (an issue title, a pull request body or branch name, a comment, a composite action's inputs).",
  help: 'Pass the value through an environment variable (env: TITLE: ${{ github.event.issue.title }}, then "$TITLE" in the script, or process.env.TITLE in github-script), which is not parsed as code.',
  message:
    'This script pastes text an outsider controls into the code it runs (script injection); pass it through env: and use "$VAR" (or process.env.VAR) in the script.',
  files: isGitHubWorkflow,
  keywords: ['github.event', 'github.head_ref', 'inputs.'],
  reads: 'text',
  check(line) {
    const m = UNTRUSTED.exec(line.text) ?? (isCompositeAction(line.path) ? ACTION_INPUT.exec(line.text) : null);
    if (!m || /^\s*#/.test(line.text) || !inRunScript(line)) return null;
    return spanOf(m);
  },
};

/**
 * The workflow is triggered by pull_request_target, as far as the diff shows the file: any of its
 * hunks (their context lines too). A step added far from `on:` shows no trigger: then nothing is
 * reported (precision first). Worked out once per file.
 */
function fileHasPullRequestTarget(line: AddedLine): boolean {
  const key = noPullRequestTargetCheckout;
  let known = line.fileMemo.get(key) as boolean | undefined;
  if (known === undefined) {
    known = line.fileLines().some((other) => other.kind !== '-' && /\bpull_request_target\b/.test(other.text));
    line.fileMemo.set(key, known);
  }
  return known;
}

/** A checkout of the pull request's head: actions/checkout's ref, `gh pr checkout`, `git fetch … pull/N/head`. */
const HEAD_CHECKOUT =
  /^\s*(?:-\s+)?ref\s*:\s*["']?(?:\$\{\{\s*(?:github\.event\.pull_request\.head\.(?:sha|ref)|github\.head_ref)\s*\}\}|refs\/pull\/\$\{\{[^}]{1,80}\}\}\/(?:head|merge))|\bgh\s+pr\s+checkout\b|\bgit\s+fetch\b[^;&|#\n]{0,200}?\bpull\/[^/\n]{1,80}\/(?:head|merge)\b/;

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
  keywords: ['pull_request.head.', 'github.head_ref', 'refs/pull/', 'gh pr checkout', 'git fetch'],
  reads: 'text',
  check(line) {
    const m = HEAD_CHECKOUT.exec(line.text);
    if (!m || /^\s*#/.test(line.text) || !fileHasPullRequestTarget(line)) return null;
    return spanOf(m);
  },
};
