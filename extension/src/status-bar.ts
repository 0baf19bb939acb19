// The status bar item: the state of the last review; a click runs a review.
import * as vscode from 'vscode';
import { COMMANDS } from './command-ids.ts';
import type { Truncation } from './comment-mapping.ts';

export type ReviewState =
  | { kind: 'idle' }
  | { kind: 'running'; detail?: string }
  | { kind: 'done'; findings: number; hidden: number; truncated?: Truncation }
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
  private readonly item = vscode.window.createStatusBarItem('diffReview.status', vscode.StatusBarAlignment.Left, 50);
  state: ReviewState = { kind: 'idle' };
  private visible = false;

  /** `inRepository`: the workspace has a git repository; else the item starts hidden. */
  constructor(inRepository: boolean) {
    this.item.name = 'Diff Review';
    this.item.command = COMMANDS.review;
    this.show(inRepository ? { kind: 'idle' } : { kind: 'outside' });
  }

  show(state: ReviewState): void {
    this.state = state;
    const item = this.item;
    item.backgroundColor = undefined;
    this.visible = state.kind !== 'outside';
    if (this.visible) item.show();
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
        item.text = `${state.findings === 0 && notReported === 0 ? '$(pass)' : '$(warning)'} ${state.findings} ${state.findings === 1 ? 'finding' : 'findings'}${notReported > 0 ? `, ${count(notReported)} not reported` : ''}`;
        item.tooltip =
          `The last review found ${state.findings} ${state.findings === 1 ? 'problem' : 'problems'}${state.hidden > 0 ? ` (${state.hidden} more below the minimum severity)` : ''}.` +
          `${notReported > 0 ? ` The review stopped at ${count(state.truncated?.limit ?? 0)} findings: ${count(notReported)} more were not reported. Fix these and review again.` : ''} Click to review again.`;
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
  }

  /** What the item shows now. */
  snapshot(): StatusSnapshot {
    const command = typeof this.item.command === 'string' ? this.item.command : this.item.command?.command;
    return {
      state: this.state,
      text: this.item.text,
      tooltip: typeof this.item.tooltip === 'string' ? this.item.tooltip : (this.item.tooltip?.value ?? ''),
      command,
      visible: this.visible,
    };
  }

  dispose(): void {
    this.item.dispose();
  }
}

/** 5997 → "5,997". */
export const count = (value: number): string => value.toLocaleString('en-US');
