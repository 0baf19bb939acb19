// GitHub Actions script injection: an expression that an outsider controls (an issue's title, a
// pull request's body or branch name, a comment) written into a `run:` script is pasted into the
// shell before it runs, so its text runs as commands. And `pull_request_target`, which runs with
// the base repository's secrets, checking out the pull request's own code.
import type { YamlDocument, YamlFound, YamlNode } from '../../structure/yaml-tree.ts';
import { scalarEntries, valueUnder } from '../../structure/yaml-tree.ts';
import { isGitHubWorkflow } from '../files.ts';
import type { LineRule } from '../rule.ts';

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

/** The script input of the action a step uses (`uses: owner/name@ref`), or undefined. */
function scriptInputOf(step: YamlNode): string | undefined {
  const uses = valueUnder(step, 'uses');
  if (uses?.kind !== 'scalar') return undefined;
  return SCRIPT_INPUTS[uses.value.replace(/@.*$/, '').toLowerCase()];
}

/**
 * The scripts of a workflow or action, from its parsed YAML: every `run:` value, and the script
 * input of a step that uses an action which runs one. Any map is read as a step may be (a hunk
 * often shows a step without the `steps:` above it).
 */
function scriptsOf(node: YamlNode | null, scripts: YamlNode[]): YamlNode[] {
  if (node?.kind === 'seq') for (const item of node.items) scriptsOf(item, scripts);
  if (node?.kind !== 'map') return scripts;
  const run = valueUnder(node, 'run');
  if (run?.kind === 'scalar') scripts.push(run);
  const input = scriptInputOf(node);
  const script = input === undefined ? undefined : valueUnder(valueUnder(node, 'with') ?? null, input);
  if (script?.kind === 'scalar') scripts.push(script);
  for (const entry of node.entries) scriptsOf(entry.value, scripts);
  return scripts;
}

const everywhere = (pattern: RegExp) => new RegExp(pattern.source, `${pattern.flags}g`);
const UNTRUSTED_ALL = everywhere(UNTRUSTED);
const ACTION_INPUT_ALL = everywhere(ACTION_INPUT);

/** The untrusted expressions in the scripts of the hunk's documents (not on a line the script comments out). */
function scriptInjections(documents: readonly YamlDocument[], path: string): YamlFound[] {
  const found: YamlFound[] = [];
  for (const document of documents)
    for (const script of scriptsOf(document.root, [])) {
      const [from, to] = script.range;
      const text = document.text.slice(from, to);
      for (const pattern of isCompositeAction(path) ? [UNTRUSTED_ALL, ACTION_INPUT_ALL] : [UNTRUSTED_ALL])
        for (const m of text.matchAll(pattern)) {
          const lineStart = text.lastIndexOf('\n', m.index) + 1;
          if (/^\s*#/.test(text.slice(lineStart, m.index))) continue;
          found.push({ document, start: from + m.index, end: from + m.index + m[0].length });
        }
    }
  return found;
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
  // Workflows are YAML: the rule reads them parsed (which key a script is under), never as lines.
  syntax: {
    keywords: ['github.event', 'github.head_ref', 'inputs.'],
    languages: { yaml: { yaml: scriptInjections } },
  },
  reads: 'text',
  check: () => null,
};

/** The file's workflow is triggered by pull_request_target, as far as the diff shows it (its `on:` in any hunk). */
function triggeredByPullRequestTarget(documents: readonly YamlDocument[]): boolean {
  return documents.some((document) => {
    const on = valueUnder(document.root, 'on');
    if (on?.kind === 'scalar') return on.value === 'pull_request_target';
    if (on?.kind === 'seq')
      return on.items.some((item) => item.kind === 'scalar' && item.value === 'pull_request_target');
    return on?.kind === 'map' && on.entries.some((entry) => entry.key === 'pull_request_target');
  });
}

/** A ref of the pull request's head, as actions/checkout's `ref:` is given it. */
const HEAD_REF =
  /^\$\{\{\s*(?:github\.event\.pull_request\.head\.(?:sha|ref)|github\.head_ref)\s*\}\}$|refs\/pull\/\$\{\{[^}]{1,80}\}\}\/(?:head|merge)/;
/** In a script: `gh pr checkout`, or `git fetch … pull/N/head`. */
const HEAD_FETCH_ALL = /\bgh\s+pr\s+checkout\b|\bgit\s+fetch\b[^;&|#\n]{0,200}?\bpull\/[^/\n]{1,80}\/(?:head|merge)\b/g;

/** Checkouts of the pull request's head in the hunk: a `ref:` of its head, a script that fetches it. */
function headCheckouts(
  documents: readonly YamlDocument[],
  _path: string,
  file: () => readonly YamlDocument[],
): YamlFound[] {
  const found: YamlFound[] = [];
  for (const { document, key, value } of scalarEntries(documents)) {
    const [from, to] = value.range;
    if (key === 'ref' && HEAD_REF.test(value.value)) found.push({ document, start: from, end: to });
    if (key === 'run')
      for (const m of document.text.slice(from, to).matchAll(HEAD_FETCH_ALL))
        found.push({ document, start: from + m.index, end: from + m.index + m[0].length });
  }
  // A step added far from `on:` shows no trigger: then nothing is reported (precision first).
  return found.length > 0 && triggeredByPullRequestTarget(file()) ? found : [];
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
  keywords: ['pull_request.head.', 'github.head_ref', 'refs/pull/', 'gh pr checkout', 'git fetch'],
  // Read parsed, as no-actions-script-injection is: which key holds the ref or the script.
  syntax: {
    keywords: ['pull_request.head.', 'github.head_ref', 'refs/pull/', 'gh pr checkout', 'git fetch'],
    languages: { yaml: { yaml: headCheckouts } },
  },
  reads: 'text',
  check: () => null,
};
