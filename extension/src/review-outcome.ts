// How a review's end is shown: diagnostics and status bar for findings, a notification with the
// buttons that help for a failure, a quiet note when there is nothing to review.
import * as vscode from 'vscode';
import { COMMANDS } from './command-ids.ts';
import { planDiagnostics, splitTruncation } from './comment-mapping.ts';
import type { ConfigDiagnostics } from './config-diagnostics.ts';
import { readTexts } from './current-texts.ts';
import { describeFailedJob, type FailureAction, type FailureReport } from './failure-report.ts';
import { currentLineMaps } from './line-mapping.ts';
import type { ReviewDiagnostics } from './review-diagnostics.ts';
import type { ReviewCommandResult, ReviewOptions } from './review-options.ts';
import type { ReviewOutcome, ReviewTimings } from './review-runner.ts';
import type { RuleHelp } from './rule-help.ts';
import { gitPath, openSetting, type Settings } from './settings.ts';
import { count, type ReviewStatusBar } from './status-bar.ts';
import { hasUncommittedChanges } from './uncommitted-changes.ts';

const REVIEW_UNCOMMITTED = 'Review Including Uncommitted Changes';

/** What is remembered of each branch's review (branch-reviews.ts). */
export interface ReviewRecord {
  /** A review of the repository at `root`, of HEAD at `headCommit`, shows its findings now. */
  completed(review: { root: string; headCommit: string }): Promise<void>;
  /** The branch at `root` has nothing to review: a review of it kept earlier is forgotten. */
  nothingToReview(review: { root: string; headCommit: string }): Promise<void>;
  /** The user cleared the findings: the review they were of is forgotten. */
  cleared(): void;
}

export interface OutcomeParts {
  diagnostics: ReviewDiagnostics;
  reviews: ReviewRecord;
  statusBar: ReviewStatusBar;
  log: vscode.LogOutputChannel;
  ruleHelp: RuleHelp;
  configDiagnostics: ConfigDiagnostics;
  /** Runs another review (Try Again, Review Including Uncommitted Changes). */
  review(options: ReviewOptions): Promise<ReviewCommandResult>;
}

export class ReviewOutcomeView {
  readonly #parts: OutcomeParts;

  constructor(parts: OutcomeParts) {
    this.#parts = parts;
  }

  async show(
    outcome: ReviewOutcome,
    settings: Settings,
    options: ReviewOptions,
    started: number,
  ): Promise<ReviewCommandResult> {
    const { diagnostics, statusBar, log } = this.#parts;
    const durationMs = () => Date.now() - started;
    // The review read the repository's config: whatever was wrong with it is not any more.
    this.#parts.configDiagnostics.clear();
    if (outcome.kind === 'nothing-to-review') {
      const { prepared } = outcome;
      await this.#parts.reviews.nothingToReview(prepared);
      diagnostics.clear();
      statusBar.show({ kind: 'nothing' });
      const uncommitted = !prepared.includesUncommitted && (await hasUncommittedChanges(prepared.root));
      const message = `Nothing to review: HEAD has no changes against ${prepared.baseRef}${uncommitted ? ', but there are uncommitted changes' : ''}.`;
      const actions = uncommitted ? [REVIEW_UNCOMMITTED] : [];
      log.info(message);
      if (!options.quiet) {
        void vscode.window.showInformationMessage(`Diff Review: ${message}`, ...actions).then((action) => {
          if (action === REVIEW_UNCOMMITTED)
            void this.#parts.review({ ...options, folder: prepared.root, includeUncommitted: true });
        });
      }
      return { outcome: 'nothing-to-review', actions, durationMs: durationMs() };
    }
    if (outcome.kind === 'failed') {
      const failure = describeFailedJob(outcome.job);
      log.error(`Review ${outcome.job.review_id} failed: ${failure.message}`);
      return { ...this.failure(failure, options, started), outcome: 'failed', reviewId: outcome.job.review_id };
    }

    const { job, prepared } = outcome;
    const placing = Date.now();
    this.#parts.ruleHelp.remember(outcome.ruleHelp);
    const { comments, truncated } = splitTruncation(job.comments ?? []);
    const texts = await readTexts(
      prepared.root,
      comments.map((comment) => comment.file_path),
    );
    // The review saw the commit (or the working tree); the files may differ from it now.
    const lineMaps = await currentLineMaps(prepared.root, texts, {
      reviewedCommit: prepared.includesUncommitted ? undefined : prepared.headCommit,
      git: gitPath(),
      signal: AbortSignal.timeout(settings.run.gitTimeoutMs),
      warn: (message) => log.warn(message),
    });
    const plan = planDiagnostics(prepared.root, comments, settings.minimumSeverity, (file) => texts.get(file)?.lines, {
      lineMapOf: (file) => lineMaps.get(file),
      changedLine: settings.editedLineBehavior,
      columnsOf: outcome.columnsOf,
    });
    for (const { comment, reason } of plan.unplaced) {
      log.warn(`Not shown: ${comment.file_path}:${comment.line} (${reason}): ${comment.message}`);
    }
    const shown = diagnostics.replace(plan.files);
    statusBar.show({
      kind: 'done',
      findings: shown,
      bySeverity: diagnostics.counts(),
      hidden: plan.belowMinimum,
      ...(truncated ? { truncated } : {}),
    });
    const placeMs = Date.now() - placing; // the diagnostics are shown: what follows is bookkeeping
    await this.#parts.reviews.completed(prepared);
    const timings = { ...outcome.timings, placeMs };
    log.info(`Review ${job.review_id} took ${durationMs()} ms: ${describeTimings(timings)}.`);
    log.info(
      `Review ${job.review_id}: ${comments.length} comment(s), ${shown} shown, ${plan.belowMinimum} below the minimum severity, ${plan.unplaced.length} not placed${truncated ? `, ${truncated.notReported} not reported (the service stops at ${truncated.limit})` : ''} (${durationMs()} ms from the command).`,
    );
    if (truncated && !options.quiet) {
      void vscode.window.showWarningMessage(
        `Diff Review: the review stopped at ${truncated.limit} findings; ${count(truncated.notReported)} more were not reported. Fix these and review again.`,
      );
    }
    const notShown = plan.unplaced.map(({ comment, reason }) => `${comment.file_path}:${comment.line} (${reason})`);
    return {
      outcome: 'completed',
      reviewId: job.review_id,
      comments: comments.length,
      shown,
      unplaced: notShown.length,
      notShown,
      ...(truncated ? { truncated } : {}),
      timings,
      durationMs: durationMs(),
    };
  }

  /** A review that could not be done: the status bar says so, and (unless quiet) a notification with its actions. */
  failure(failure: FailureReport, options: ReviewOptions, started: number, cwd?: string): ReviewCommandResult {
    this.#parts.statusBar.show({ kind: 'failed', message: failure.message });
    if (!options.quiet) {
      // Not awaited: the notification stays until the user answers it, the command does not.
      void vscode.window
        .showErrorMessage(`Diff Review: ${failure.message}`, ...failure.actions)
        .then((action) => this.onAction(action, { failure, cwd, options }));
    }
    return { outcome: 'error', failure, durationMs: Date.now() - started };
  }

  /** No folder, or a folder outside git: nothing to review, which is no failure. The status bar item hides. */
  outside(
    outcome: 'no-folder' | 'not-a-repository',
    message: string,
    options: ReviewOptions,
    started: number,
  ): ReviewCommandResult {
    this.#parts.diagnostics.clear();
    this.#parts.statusBar.show({ kind: 'outside' });
    this.#parts.log.info(message);
    const actions: FailureAction[] = outcome === 'no-folder' ? ['Open Folder'] : [];
    if (!options.quiet) {
      void vscode.window
        .showInformationMessage(`Diff Review: ${message}`, ...actions)
        .then((action) => this.onAction(action, { options }));
    }
    return { outcome, actions, durationMs: Date.now() - started };
  }

  /** What a notification's button does. */
  onAction(
    action: FailureAction | undefined,
    context: { failure?: FailureReport; cwd?: string; options: ReviewOptions },
  ): void {
    const { failure, cwd, options } = context;
    if (action === 'Show Log') this.#parts.log.show(true);
    else if (action === 'Set Token') void vscode.commands.executeCommand(COMMANDS.setToken);
    else if (action === 'Open Settings') void openSetting(failure?.setting);
    else if (action === 'Open Folder') void vscode.commands.executeCommand('workbench.action.files.openFolder');
    else if (action === 'Try Again') void this.#parts.review({ ...options, cancellation: undefined });
    else if (action === 'Open .diff-review.yml' && failure?.file)
      void vscode.window.showTextDocument(vscode.Uri.file(failure.file));
    else if (action === 'Choose Base Branch')
      void vscode.commands.executeCommand(COMMANDS.chooseBaseBranch, cwd ? vscode.Uri.file(cwd) : undefined);
  }
}

const PHASES: [keyof ReviewTimings, string][] = [
  ['connectMs', 'connect'],
  ['serviceStartMs', 'of which the service start'],
  ['gitMs', 'git'],
  ['submitMs', 'submit'],
  ['reviewMs', 'review'],
  ['sarifMs', 'SARIF'],
  ['placeMs', 'placing'],
];

/** "connect 412 ms (of which the service start 380 ms), git 35 ms, …" */
function describeTimings(timings: ReviewTimings): string {
  return PHASES.filter(([key]) => timings[key] !== undefined)
    .map(([key, label]) => (key === 'serviceStartMs' ? `(${label} ${timings[key]} ms)` : `${label} ${timings[key]} ms`))
    .join(', ')
    .replaceAll(', (', ' (');
}
