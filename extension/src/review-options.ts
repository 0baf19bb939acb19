// What the Review Changes command takes (its options, from a menu or a script) and answers.
import type * as vscode from 'vscode';
import type { Truncation } from './comment-mapping.ts';
import type { FailureReport } from './failure-report.ts';
import type { ReviewTimings } from './review-runner.ts';

/** What the Review Changes command answers (to scripts and the integration tests). */
export interface ReviewCommandResult {
  outcome: 'completed' | 'failed' | 'nothing-to-review' | 'cancelled' | 'error' | 'not-a-repository' | 'no-folder';
  reviewId?: string;
  /** Comments the review made. */
  comments?: number;
  /** Diagnostics shown (comments at or above the minimum severity, on files that exist). */
  shown?: number;
  /** Comments on files or lines that are gone, reported in the log. */
  unplaced?: number;
  /** Those comments, as `file:line (reason)`. */
  notShown?: string[];
  /** What the notification offers when there is nothing to review (e.g. to review uncommitted changes). */
  actions?: string[];
  /** The service stopped at its limit of findings: how many it left out. */
  truncated?: Truncation;
  /** The notification shown when the outcome is `failed` or `error`. */
  failure?: FailureReport;
  /** The service the review went to (the bundled one's loopback URL, or the configured URL). */
  serviceUrl?: string;
  /** Where the time went, phase by phase (a completed review). */
  timings?: ReviewTimings;
  /** From the command to the diagnostics (or to the end it had). */
  durationMs: number;
}

export interface ReviewOptions {
  /** Review on save: progress in the status bar only, failures without a notification. */
  quiet?: boolean;
  /** This review only: include (or not) the working tree, whatever the setting says. */
  includeUncommitted?: boolean;
  /** Cancels the review like the notification's Cancel button (for scripts and tests). */
  cancellation?: vscode.CancellationToken;
  /** The folder to review (absolute path); default: the active editor's workspace folder, or the first. */
  folder?: string;
}

/**
 * The Review Changes command's argument: from the SCM title bar, the SourceControl whose button
 * was clicked (its `rootUri` is the repository to review); a script may pass
 * `{ cancellation: CancellationToken, includeUncommitted: boolean }`.
 */
export function reviewOptionsOf(argument: unknown): ReviewOptions {
  const given = argument as
    | { cancellation?: Partial<vscode.CancellationToken>; rootUri?: Partial<vscode.Uri>; includeUncommitted?: unknown }
    | undefined;
  const options: ReviewOptions = {};
  if (typeof given?.cancellation?.onCancellationRequested === 'function')
    options.cancellation = given.cancellation as vscode.CancellationToken;
  if (given?.rootUri?.scheme === 'file' && typeof given.rootUri.fsPath === 'string')
    options.folder = given.rootUri.fsPath;
  if (typeof given?.includeUncommitted === 'boolean') options.includeUncommitted = given.includeUncommitted;
  return options;
}
