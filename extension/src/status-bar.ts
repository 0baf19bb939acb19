// The status bar item: the state of the last review. A click opens the findings (after a review)
// or runs one.
import * as vscode from 'vscode';
import { COMMANDS } from './command-ids.ts';
import type { SeverityCounts, Truncation } from './comment-mapping.ts';
import { hiddenFindingsText, movedText } from './hidden-findings.ts';

export type ReviewState =
  | { kind: 'idle' }
  | { kind: 'running'; detail?: string }
  | {
      kind: 'done';
      /** Shown now. */
      findings: number;
      bySeverity: SeverityCounts;
      /** Below the minimum severity. */
      hidden: number;
      truncated?: Truncation;
      /** The review's findings whose text is not in the files as they are on disk (another branch is checked out). */
      notHere?: number;
      /** The branch the review was of (headLabel). */
      reviewedOn?: string;
      /** The branch checked out now. */
      checkedOut?: string;
      /** The reviewed commit (short), when its branch has moved on since the review. */
      movedSince?: string;
    }
  | { kind: 'nothing' }
  | { kind: 'failed'; message: string }
  /** No folder, or not a git repository: the item is hidden. */
  | { kind: 'outside' };

/** What the status bar item shows now. */
export interface StatusSnapshot {
  state: ReviewState;
  text: string;
  tooltip: string;
  command: string | undefined;
  visible: boolean;
}

export class ReviewStatusBar implements vscode.Disposable {
  readonly #item = vscode.window.createStatusBarItem('diffReview.status', vscode.StatusBarAlignment.Left, 50);
  state: ReviewState = { kind: 'idle' };
  #visible = false;
  readonly #changed = new vscode.EventEmitter<ReviewState>();
  /** Fires with each new state. */
  readonly onDidChange = this.#changed.event;

  /** `inRepository`: the workspace has a git repository; else the item starts hidden. */
  constructor(inRepository: boolean) {
    this.#item.name = 'Diff Review';
    this.show(inRepository ? { kind: 'idle' } : { kind: 'outside' });
  }

  show(state: ReviewState): void {
    this.state = state;
    const item = this.#item;
    item.backgroundColor = undefined;
    item.command = state.kind === 'done' ? COMMANDS.focusFindings : COMMANDS.review;
    void vscode.commands.executeCommand('setContext', 'diffReview.state', state.kind);
    this.#visible = state.kind !== 'outside';
    if (this.#visible) item.show();
    else item.hide();
    switch (state.kind) {
      case 'idle':
        item.text = '$(checklist) Diff Review';
        item.tooltip = 'Review the changes of this branch';
        break;
      case 'running':
        item.text = '$(sync~spin) Reviewing…';
        item.tooltip = state.detail ?? 'A review is running';
        break;
      case 'done': {
        const notReported = state.truncated?.notReported ?? 0;
        const notHere = state.notHere ?? 0;
        // Findings that are only elsewhere are no clean review: never a ✓ and a 0 for them.
        item.text = onlyElsewhere(state)
          ? `$(eye-closed) Diff Review: ${count(notHere)} hidden`
          : `${worstIcon(state.bySeverity, notReported)} Diff Review: ${state.findings}${notHere > 0 ? ` (+${count(notHere)} hidden)` : ''}${notReported > 0 ? ` (+${count(notReported)} not reported)` : ''}`;
        item.tooltip = doneTooltip(state);
        break;
      }
      case 'nothing':
        item.text = '$(pass) No changes';
        item.tooltip = 'The branch has no changes against its base. Click to review again.';
        break;
      case 'failed':
        item.text = '$(error) Review failed';
        item.tooltip = `${state.message} Click to review again.`;
        item.backgroundColor = new vscode.ThemeColor('statusBarItem.errorBackground');
        break;
      case 'outside':
        break;
    }
    this.#changed.fire(state);
  }

  /** What the item shows now. */
  snapshot(): StatusSnapshot {
    const command = typeof this.#item.command === 'string' ? this.#item.command : this.#item.command?.command;
    return {
      state: this.state,
      text: this.#item.text,
      tooltip: typeof this.#item.tooltip === 'string' ? this.#item.tooltip : (this.#item.tooltip?.value ?? ''),
      command,
      visible: this.#visible,
    };
  }

  dispose(): void {
    this.#item.dispose();
    this.#changed.dispose();
  }
}

/** The icon of the worst severity shown: error, warning, info, or pass when there is none. */
function worstIcon(counts: SeverityCounts, notReported: number): string {
  if (counts.error > 0) return '$(error)';
  if (counts.warning > 0 || notReported > 0) return '$(warning)';
  return counts.info > 0 ? '$(info)' : '$(pass)';
}

const plural = (n: number, one: string, many: string) => `${count(n)} ${n === 1 ? one : many}`;

/** None of the review's findings is in the files as they are now: they are all on another branch. */
const onlyElsewhere = (state: Extract<ReviewState, { kind: 'done' }>): boolean =>
  state.findings === 0 && (state.notHere ?? 0) > 0;

/** The counts by severity, and what was left out, as a small Markdown table. */
function doneTooltip(state: Extract<ReviewState, { kind: 'done' }>): vscode.MarkdownString {
  const { error, warning, info } = state.bySeverity;
  const elsewhere = hiddenFindingsText(state);
  const moved = movedText(state);
  const lines = [
    `**Diff Review**: the last review${state.reviewedOn ? ` (of ${state.reviewedOn})` : ''}`,
    '',
    ...(elsewhere ? [elsewhere, ''] : []),
    ...(moved ? [moved, ''] : []),
    // Every finding elsewhere: a table of zeros here would read as a clean review.
    ...(onlyElsewhere(state)
      ? []
      : [
          '| | |',
          '|:--|--:|',
          `| $(error) Errors | ${count(error)} |`,
          `| $(warning) Warnings | ${count(warning)} |`,
          `| $(info) Info | ${count(info)} |`,
          '',
        ]),
  ];
  if (state.hidden > 0) lines.push(`${plural(state.hidden, 'more is', 'more are')} below the minimum severity.`, '');
  if (state.truncated)
    lines.push(
      `The review stopped at ${count(state.truncated.limit)} findings: ${plural(state.truncated.notReported, 'more was', 'more were')} not reported. Fix these and review again.`,
      '',
    );
  lines.push('Click to open the findings.');
  const markdown = new vscode.MarkdownString(lines.join('\n'), true);
  return markdown;
}

/** 5997 → "5,997". */
export const count = (value: number): string => value.toLocaleString('en-US');
