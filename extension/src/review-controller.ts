// The review as the user sees it: progress, cancel, diagnostics, status bar, notifications.
// The work itself is review-runner.ts; this module shows it.
import * as vscode from 'vscode';
import { AbortError } from '../../service/client/index.ts';
import { NotAGitRepositoryError, runGit } from '../../service/git/index.ts';
import { chooseBaseBranch } from './base-branch-picker.ts';
import { planDiagnostics, splitTruncation, type Truncation } from './comment-mapping.ts';
import { readTexts } from './current-texts.ts';
import { currentLineMaps } from './line-mapping.ts';
import { COMMANDS } from './command-ids.ts';
import {
  describeFailedJob,
  describeFailure,
  describeInvalidServiceUrl,
  SETTING,
  type FailureAction,
  type FailureReport,
} from './failure-report.ts';
import type { ReviewDiagnostics } from './review-diagnostics.ts';
import { progressMessage, runReview, type ReviewOutcome, type ReviewProgress } from './review-runner.ts';
import { isUnauthorized, isUnreachable, MissingTokenError, serviceLabel, type ServiceSession } from './session.ts';
import { serviceUrlProblem } from './service-url.ts';
import { gitPath, openSetting, readSettings, type Settings } from './settings.ts';
import { count, type ReviewStatusBar } from './status-bar.ts';

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

export class ReviewController implements vscode.Disposable {
  private readonly session: ServiceSession;
  private readonly diagnostics: ReviewDiagnostics;
  private readonly statusBar: ReviewStatusBar;
  private readonly log: vscode.LogOutputChannel;
  private running: AbortController | undefined;
  private readonly subscriptions: vscode.Disposable[];

  constructor(parts: {
    session: ServiceSession;
    diagnostics: ReviewDiagnostics;
    statusBar: ReviewStatusBar;
    log: vscode.LogOutputChannel;
  }) {
    this.session = parts.session;
    this.diagnostics = parts.diagnostics;
    this.statusBar = parts.statusBar;
    this.log = parts.log;
    // The count follows what is shown: edits, undo and changes on disk hide and restore findings.
    this.subscriptions = [
      this.diagnostics.onDidChange((shown) => {
        const state = this.statusBar.state;
        if (state.kind === 'done' && state.findings !== shown) this.statusBar.show({ ...state, findings: shown });
      }),
    ];
  }

  /** Reviews the changes of the branch in the active editor's folder (or the first folder). */
  async review(options: ReviewOptions = {}): Promise<ReviewCommandResult> {
    const started = Date.now();
    this.running?.abort(); // a new review supersedes the one in flight
    const controller = new AbortController();
    this.running = controller;
    const cwd = options.folder ?? this.folder()?.uri.fsPath;
    if (!cwd)
      return this.finishOutside(
        'no-folder',
        'Open a folder that is part of a git repository, then review its changes.',
        options,
        started,
      );
    const configured = readSettings(vscode.Uri.file(cwd));
    const settings =
      options.includeUncommitted === undefined
        ? configured
        : { ...configured, run: { ...configured.run, includeUncommitted: options.includeUncommitted } };

    const urlProblem = serviceUrlProblem(settings.serviceUrl);
    if (urlProblem) return this.finishWithFailure(describeInvalidServiceUrl(urlProblem), options, started);

    this.statusBar.show({ kind: 'running' });
    let serviceUrl: string | undefined = settings.serviceUrl || undefined;
    const work = (report: (message: string) => void, cancel: vscode.CancellationToken) => {
      const stop = () => {
        controller.abort();
        // The notification closes at once; so does the status bar's "Reviewing…".
        if (this.running === controller) this.statusBar.show({ kind: 'idle' });
      };
      const listeners = [cancel, options.cancellation].map((token) => token?.onCancellationRequested(stop));
      if (options.cancellation?.isCancellationRequested) stop();
      return this.reviewIn(cwd, settings, controller.signal, report, (url) => (serviceUrl = url)).finally(() => {
        for (const listener of listeners) listener?.dispose();
      });
    };
    try {
      const outcome = await vscode.window.withProgress(
        {
          location: options.quiet ? vscode.ProgressLocation.Window : vscode.ProgressLocation.Notification,
          title: 'Diff Review',
          cancellable: !options.quiet,
        },
        (progress, cancel) => work((message) => progress.report({ message }), cancel),
      );
      return { ...(await this.show(outcome, settings, options, started)), serviceUrl };
    } catch (error) {
      if (error instanceof AbortError || controller.signal.aborted) {
        if (this.running === controller) this.statusBar.show({ kind: 'idle' });
        this.log.info('Review cancelled.');
        return { outcome: 'cancelled', serviceUrl, durationMs: Date.now() - started };
      }
      if (error instanceof NotAGitRepositoryError)
        return this.finishOutside(
          'not-a-repository',
          `${cwd} is not in a git repository: there is nothing to review.`,
          options,
          started,
        );
      const failure =
        error instanceof MissingTokenError
          ? {
              kind: 'missing_token',
              message: error.message,
              actions: ['Set Token', 'Open Settings'] as FailureAction[],
              setting: SETTING.serviceUrl,
            }
          : describeFailure(error, { service: serviceLabel(settings.serviceUrl), baseBranch: settings.run.baseBranch });
      this.log.error(
        `Review failed (${failure.kind}): ${failure.message}${error instanceof Error && error.cause instanceof Error ? ` [${error.cause.message}]` : ''}`,
      );
      return { ...this.finishWithFailure(failure, options, started, cwd), serviceUrl };
    } finally {
      if (this.running === controller) this.running = undefined;
    }
  }

  /** Asks for the base branch of the repository at `folder` (default: the current one), then reviews it. */
  async chooseBaseBranch(folder?: vscode.Uri): Promise<{ baseBranch?: string; review?: ReviewCommandResult }> {
    const uri = folder ?? this.folder()?.uri;
    if (!uri) return {};
    const baseBranch = await chooseBaseBranch(uri);
    if (baseBranch === undefined) return {};
    this.log.info(`Base branch of ${uri.fsPath}: ${baseBranch}.`);
    return { baseBranch, review: await this.review({ folder: uri.fsPath }) };
  }

  clear(): void {
    this.running?.abort();
    this.diagnostics.clear();
    this.statusBar.show({ kind: 'idle' });
    this.log.info('Cleared the review comments.');
  }

  dispose(): void {
    this.running?.abort();
    for (const subscription of this.subscriptions) subscription.dispose();
  }

  private folder(): vscode.WorkspaceFolder | undefined {
    const active = vscode.window.activeTextEditor?.document.uri;
    return (active && vscode.workspace.getWorkspaceFolder(active)) ?? vscode.workspace.workspaceFolders?.[0];
  }

  private async reviewIn(
    cwd: string,
    settings: Settings,
    signal: AbortSignal,
    report: (message: string) => void,
    connected: (url: string) => void,
  ): Promise<ReviewOutcome> {
    const onProgress = (progress: ReviewProgress) => {
      const message = progressMessage(progress);
      report(message);
      this.statusBar.show({ kind: 'running', detail: message });
    };
    for (let attempt = 0; ; attempt++) {
      const connection = await this.session.connect(settings.serviceUrl, settings.requestTimeoutMs, signal);
      connected(connection.url);
      try {
        return await runReview({
          cwd,
          client: connection.client,
          settings: settings.run,
          signal,
          log: this.log,
          onProgress,
          git: gitPath(),
        });
      } catch (error) {
        if (attempt === 0 && connection.bundled && isUnauthorized(error) && (await this.session.recoverBundledToken()))
          continue;
        if (attempt === 0 && connection.bundled && isUnreachable(error) && this.session.takeOverBundledService())
          continue;
        throw error;
      }
    }
  }

  private async show(
    outcome: ReviewOutcome,
    settings: Settings,
    options: ReviewOptions,
    started: number,
  ): Promise<ReviewCommandResult> {
    const durationMs = () => Date.now() - started;
    if (outcome.kind === 'nothing-to-review') {
      this.diagnostics.clear();
      this.statusBar.show({ kind: 'nothing' });
      const { prepared } = outcome;
      const uncommitted = !prepared.includesUncommitted && (await hasUncommittedChanges(prepared.root));
      const message = `Nothing to review: HEAD has no changes against ${prepared.baseRef}${uncommitted ? ', but there are uncommitted changes' : ''}.`;
      const actions = uncommitted ? [REVIEW_UNCOMMITTED] : [];
      this.log.info(message);
      if (!options.quiet) {
        void vscode.window.showInformationMessage(`Diff Review: ${message}`, ...actions).then((action) => {
          if (action === REVIEW_UNCOMMITTED)
            void this.review({ ...options, folder: prepared.root, includeUncommitted: true });
        });
      }
      return { outcome: 'nothing-to-review', actions, durationMs: durationMs() };
    }
    if (outcome.kind === 'failed') {
      const failure = describeFailedJob(outcome.job);
      this.log.error(`Review ${outcome.job.review_id} failed: ${failure.message}`);
      return {
        ...this.finishWithFailure(failure, options, started),
        outcome: 'failed',
        reviewId: outcome.job.review_id,
      };
    }

    const { job, prepared } = outcome;
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
      warn: (message) => this.log.warn(message),
    });
    const plan = planDiagnostics(prepared.root, comments, settings.minimumSeverity, (file) => texts.get(file)?.lines, {
      lineMapOf: (file) => lineMaps.get(file),
      changedLine: settings.editedLineBehavior,
      columnsOf: outcome.columnsOf,
    });
    for (const { comment, reason } of plan.unplaced) {
      this.log.warn(`Not shown: ${comment.file_path}:${comment.line} (${reason}): ${comment.message}`);
    }
    const shown = this.diagnostics.replace(plan.files);
    this.statusBar.show({
      kind: 'done',
      findings: shown,
      hidden: plan.belowMinimum,
      ...(truncated ? { truncated } : {}),
    });
    this.log.info(
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
      durationMs: durationMs(),
    };
  }

  private finishWithFailure(
    failure: FailureReport,
    options: ReviewOptions,
    started: number,
    cwd?: string,
  ): ReviewCommandResult {
    this.statusBar.show({ kind: 'failed', message: failure.message });
    if (!options.quiet) {
      // Not awaited: the notification stays until the user answers it, the command does not.
      void vscode.window
        .showErrorMessage(`Diff Review: ${failure.message}`, ...failure.actions)
        .then((action) => this.onAction(action, failure, cwd));
    }
    return { outcome: 'error', failure, durationMs: Date.now() - started };
  }

  /** No folder, or a folder outside git: nothing to review, which is no failure. The status bar item hides. */
  private finishOutside(
    outcome: 'no-folder' | 'not-a-repository',
    message: string,
    options: ReviewOptions,
    started: number,
  ): ReviewCommandResult {
    this.diagnostics.clear();
    this.statusBar.show({ kind: 'outside' });
    this.log.info(message);
    if (!options.quiet) {
      const actions: FailureAction[] = outcome === 'no-folder' ? ['Open Folder'] : [];
      void vscode.window
        .showInformationMessage(`Diff Review: ${message}`, ...actions)
        .then((action) => this.onAction(action));
    }
    return { outcome, durationMs: Date.now() - started };
  }

  private onAction(action: FailureAction | undefined, failure?: FailureReport, cwd?: string): void {
    if (action === 'Show Log') this.log.show(true);
    else if (action === 'Set Token') void vscode.commands.executeCommand(COMMANDS.setToken);
    else if (action === 'Open Settings') void openSetting(failure?.setting);
    else if (action === 'Open Folder') void vscode.commands.executeCommand('workbench.action.files.openFolder');
    else if (action === 'Choose Base Branch')
      void vscode.commands.executeCommand(COMMANDS.chooseBaseBranch, cwd ? vscode.Uri.file(cwd) : undefined);
  }
}

const REVIEW_UNCOMMITTED = 'Review Including Uncommitted Changes';

/** Staged or unstaged changes to tracked files (the review leaves untracked files out). */
async function hasUncommittedChanges(root: string): Promise<boolean> {
  try {
    const status = await runGit(root, ['status', '--porcelain', '--untracked-files=no'], {
      git: gitPath(),
      signal: AbortSignal.timeout(10_000),
    });
    return status.stdout.trim() !== '';
  } catch {
    return false; // only an offer: without it, the message stays true
  }
}
