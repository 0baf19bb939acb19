// The findings view (Explorer): the shown findings grouped by file, rule or severity, with counts,
// the review's "not reported" notice, and each finding's actions. It follows the diagnostics as
// they move, hide and come back.
import * as vscode from 'vscode';
import { COMMANDS } from './command-ids.ts';
import type { SeverityCounts } from './comment-mapping.ts';
import { ruleIdOf, severityName } from './finding-diagnostic.ts';
import { hiddenFindingsText, movedText } from './hidden-findings.ts';
import type { ReviewDiagnostics, ShownFinding } from './review-diagnostics.ts';
import { isConfigurableRule } from './rule-off-config.ts';
import { count, type ReviewStatusBar } from './status-bar.ts';

export const FINDINGS_VIEW = 'diffReview.findings';
export const GROUPINGS = ['file', 'rule', 'severity'] as const;
export type Grouping = (typeof GROUPINGS)[number];
const GROUPING_KEY = 'diffReview.groupFindingsBy';

type Node =
  | { kind: 'group'; label: string; uri?: vscode.Uri; severity?: keyof SeverityCounts; findings: ShownFinding[] }
  | ({ kind: 'finding' } & ShownFinding)
  | { kind: 'truncated'; notReported: number; limit: number };

/** The tree as the tests read it: labels, descriptions and children. */
export interface TreeSnapshot {
  label: string;
  description?: string;
  children?: TreeSnapshot[];
}

const SEVERITY_LABEL: Record<keyof SeverityCounts, string> = { error: 'Errors', warning: 'Warnings', info: 'Info' };
const SEVERITY_ORDER: (keyof SeverityCounts)[] = ['error', 'warning', 'info'];

export class FindingsView implements vscode.TreeDataProvider<Node>, vscode.Disposable {
  readonly #diagnostics: ReviewDiagnostics;
  readonly #statusBar: ReviewStatusBar;
  readonly #memento: vscode.Memento;
  readonly #changed = new vscode.EventEmitter<undefined>();
  readonly onDidChangeTreeData = this.#changed.event;
  readonly #view: vscode.TreeView<Node>;
  readonly #subscriptions: vscode.Disposable[];

  constructor(diagnostics: ReviewDiagnostics, statusBar: ReviewStatusBar, memento: vscode.Memento) {
    this.#diagnostics = diagnostics;
    this.#statusBar = statusBar;
    this.#memento = memento;
    this.#view = vscode.window.createTreeView(FINDINGS_VIEW, { treeDataProvider: this, showCollapseAll: true });
    const refresh = () => {
      const total = this.#diagnostics.shown().length;
      this.#view.badge = total > 0 ? { value: total, tooltip: `${total} review findings` } : undefined;
      // Findings of the review that are only on another branch: said above the tree (and instead of
      // the welcome text's "found nothing", which the message replaces).
      const state = this.#statusBar.state;
      this.#view.message = (state.kind === 'done' && (hiddenFindingsText(state) ?? movedText(state))) || undefined;
      this.#changed.fire(undefined);
    };
    this.#subscriptions = [this.#view, this.#changed, diagnostics.onDidChange(refresh), statusBar.onDidChange(refresh)];
  }

  get grouping(): Grouping {
    const saved = this.#memento.get<string>(GROUPING_KEY);
    return GROUPINGS.includes(saved as Grouping) ? (saved as Grouping) : 'file';
  }

  /** Groups by `grouping`, or asks which (kept per workspace). */
  async groupBy(grouping?: unknown): Promise<Grouping | undefined> {
    const chosen = GROUPINGS.includes(grouping as Grouping)
      ? (grouping as Grouping)
      : ((
          await vscode.window.showQuickPick(
            GROUPINGS.map((value) => ({ label: `Group by ${value}`, value, picked: value === this.grouping })),
            { title: 'Diff Review: group the findings by' },
          )
        )?.value as Grouping | undefined);
    if (!chosen) return undefined;
    await this.#memento.update(GROUPING_KEY, chosen);
    this.#changed.fire(undefined);
    return chosen;
  }

  getChildren(node?: Node): Node[] {
    if (node?.kind === 'group') return node.findings.map((finding) => ({ kind: 'finding', ...finding }));
    if (node) return [];
    const state = this.#statusBar.state;
    const truncated: Node[] =
      state.kind === 'done' && state.truncated ? [{ kind: 'truncated', ...state.truncated }] : [];
    const shown = this.#diagnostics.shown();
    if (shown.length === 0 && truncated.length === 0) return []; // the welcome text shows
    return [...truncated, ...groups(shown, this.grouping)];
  }

  getTreeItem(node: Node): vscode.TreeItem {
    if (node.kind === 'truncated') {
      const item = new vscode.TreeItem(
        `${count(node.notReported)} more findings not reported (limit ${count(node.limit)})`,
      );
      item.iconPath = new vscode.ThemeIcon('warning');
      item.tooltip = 'The review stopped at its limit of findings. Fix these and review again.';
      return item;
    }
    if (node.kind === 'group') {
      const item = new vscode.TreeItem(node.label, vscode.TreeItemCollapsibleState.Expanded);
      item.description = String(node.findings.length);
      if (node.uri) {
        item.resourceUri = node.uri;
        item.iconPath = vscode.ThemeIcon.File;
      } else item.iconPath = node.severity ? severityIcon(node.severity) : new vscode.ThemeIcon('law');
      return item;
    }
    const { uri, diagnostic } = node;
    const ruleId = ruleIdOf(diagnostic);
    const line = diagnostic.range.start.line + 1;
    const item = new vscode.TreeItem(diagnostic.message.split('\n')[0]!);
    item.description =
      this.grouping === 'file' ? `${ruleId ?? ''} · Ln ${line}` : `${vscode.workspace.asRelativePath(uri)}:${line}`;
    item.tooltip = `${ruleId ? `${ruleId}: ` : ''}${diagnostic.message}`;
    item.iconPath = severityIcon(severityName(diagnostic.severity));
    item.contextValue = ruleId && isConfigurableRule(ruleId) ? 'finding-configurable' : 'finding';
    item.command = {
      title: 'Open',
      command: 'vscode.open',
      arguments: [uri, { selection: diagnostic.range } satisfies vscode.TextDocumentShowOptions],
    };
    return item;
  }

  /** The text above the tree (findings hidden on this branch), if any. */
  get message(): string | undefined {
    return this.#view.message || undefined;
  }

  /** The tree as it is now: what the tests (through the extension's API) read. */
  snapshot(): TreeSnapshot[] {
    const walk = (node: Node): TreeSnapshot => {
      const item = this.getTreeItem(node);
      const label = typeof item.label === 'string' ? item.label : (item.label?.label ?? '');
      const children = this.getChildren(node);
      return {
        label,
        ...(typeof item.description === 'string' ? { description: item.description } : {}),
        ...(children.length > 0 ? { children: children.map(walk) } : {}),
      };
    };
    return this.getChildren().map(walk);
  }

  dispose(): void {
    for (const subscription of this.#subscriptions) subscription.dispose();
  }
}

function groups(shown: ShownFinding[], grouping: Grouping): Node[] {
  const byKey = new Map<string, Extract<Node, { kind: 'group' }>>();
  for (const finding of shown) {
    const severity = severityName(finding.diagnostic.severity);
    const key =
      grouping === 'file'
        ? finding.uri.toString()
        : grouping === 'rule'
          ? (ruleIdOf(finding.diagnostic) ?? '(no rule)')
          : severity;
    let group = byKey.get(key);
    if (!group) {
      group =
        grouping === 'file'
          ? { kind: 'group', label: vscode.workspace.asRelativePath(finding.uri), uri: finding.uri, findings: [] }
          : grouping === 'rule'
            ? { kind: 'group', label: key, findings: [] }
            : { kind: 'group', label: SEVERITY_LABEL[severity], severity, findings: [] };
      byKey.set(key, group);
    }
    group.findings.push(finding);
  }
  const sorted = [...byKey.values()];
  if (grouping === 'severity')
    sorted.sort((a, b) => SEVERITY_ORDER.indexOf(a.severity!) - SEVERITY_ORDER.indexOf(b.severity!));
  else sorted.sort((a, b) => a.label.localeCompare(b.label));
  for (const group of sorted)
    group.findings.sort(
      (a, b) =>
        a.diagnostic.range.start.line - b.diagnostic.range.start.line ||
        a.uri.toString().localeCompare(b.uri.toString()),
    );
  return sorted;
}

function severityIcon(severity: keyof SeverityCounts): vscode.ThemeIcon {
  const color = {
    error: 'problemsErrorIcon.foreground',
    warning: 'problemsWarningIcon.foreground',
    info: 'problemsInfoIcon.foreground',
  }[severity];
  return new vscode.ThemeIcon(severity, new vscode.ThemeColor(color));
}

/** The command that groups the findings (the view's title button). */
export const groupByCommand = (view: FindingsView): vscode.Disposable =>
  vscode.commands.registerCommand(COMMANDS.groupFindingsBy, (grouping?: unknown) => view.groupBy(grouping));
