// One review at a time, as the user starts it: the folder and settings, progress and cancel, the
// service (with take-over of another window's), and the failures. review-runner.ts does the work;
// review-outcome.ts shows how it ended.
import * as vscode from 'vscode';
import { AbortError } from '../../service/client/index.ts';
import { NotAGitRepositoryError } from '../../service/git/index.ts';
import { chooseBaseBranch } from './base-branch-picker.ts';
import type { ConfigDiagnostics } from './config-diagnostics.ts';
import { describeFailure, describeInvalidServiceUrl, SETTING, type FailureReport } from './failure-report.ts';
import type { ReviewDiagnostics } from './review-diagnostics.ts';
import type { ReviewCommandResult, ReviewOptions } from './review-options.ts';
import { type ReviewRecord, ReviewOutcomeView } from './review-outcome.ts';
import {
  progressMessage,
  RepositoryConfigError,
  runReview,
  type ReviewOutcome,
  type ReviewProgress,
} from './review-runner.ts';
import type { RuleHelp } from './rule-help.ts';
import { isUnauthorized, isUnreachable, MissingTokenError, serviceLabel, type ServiceSession } from './session.ts';
import { serviceUrlProblem } from './service-url.ts';
import { gitPath, readSettings, type Settings } from './settings.ts';
import type { ReviewStatusBar } from './status-bar.ts';

export class ReviewController implements vscode.Disposable {
  readonly #session: ServiceSession;
  readonly #diagnostics: ReviewDiagnostics;
  readonly #statusBar: ReviewStatusBar;
  readonly #log: vscode.LogOutputChannel;
  readonly #configDiagnostics: ConfigDiagnostics;
  readonly #reviews: ReviewRecord;
  readonly #outcomes: ReviewOutcomeView;
  #running: AbortController | undefined;
  readonly #subscriptions: vscode.Disposable[];

  constructor(parts: {
    session: ServiceSession;
    diagnostics: ReviewDiagnostics;
    statusBar: ReviewStatusBar;
    log: vscode.LogOutputChannel;
    ruleHelp: RuleHelp;
    configDiagnostics: ConfigDiagnostics;
    reviews: ReviewRecord;
  }) {
    this.#session = parts.session;
    this.#diagnostics = parts.diagnostics;
    this.#statusBar = parts.statusBar;
    this.#log = parts.log;
    this.#configDiagnostics = parts.configDiagnostics;
    this.#reviews = parts.reviews;
    this.#outcomes = new ReviewOutcomeView({ ...parts, review: (options) => this.review(options) });
    // The counts follow what is shown: edits, undo and changes on disk hide and restore findings.
    this.#subscriptions = [
      this.#diagnostics.onDidChange((counts) => {
        const state = this.#statusBar.state;
        const findings = counts.error + counts.warning + counts.info;
        if (state.kind === 'done')
          this.#statusBar.show({ ...state, findings, bySeverity: counts, notHere: this.#diagnostics.goneCount() });
      }),
    ];
  }

  /** Reviews the changes of the branch in the active editor's folder (or the first folder). */
  async review(options: ReviewOptions = {}): Promise<ReviewCommandResult> {
    const started = Date.now();
    this.#running?.abort(); // a new review supersedes the one in flight
    const controller = new AbortController();
    this.#running = controller;
    const cwd = options.folder ?? this.#folder()?.uri.fsPath;
    if (!cwd)
      return this.#outcomes.outside(
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
    if (urlProblem) return this.#outcomes.failure(describeInvalidServiceUrl(urlProblem), options, started);

    this.#statusBar.show({ kind: 'running' });
    let serviceUrl: string | undefined = settings.serviceUrl || undefined;
    const work = (report: (message: string) => void, cancel: vscode.CancellationToken) => {
      const stop = () => {
        controller.abort();
        // The notification closes at once; so does the status bar's "Reviewing…".
        if (this.#running === controller) this.#statusBar.show({ kind: 'idle' });
      };
      const listeners = [cancel, options.cancellation].map((token) => token?.onCancellationRequested(stop));
      if (options.cancellation?.isCancellationRequested) stop();
      return this.#reviewIn(cwd, settings, controller.signal, report, (url) => (serviceUrl = url)).finally(() => {
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
      return { ...(await this.#outcomes.show(outcome, settings, options, started)), serviceUrl };
    } catch (error) {
      if (error instanceof AbortError || controller.signal.aborted) {
        if (this.#running === controller) this.#statusBar.show({ kind: 'idle' });
        this.#log.info('Review cancelled.');
        return { outcome: 'cancelled', serviceUrl, durationMs: Date.now() - started };
      }
      if (error instanceof NotAGitRepositoryError)
        return this.#outcomes.outside(
          'not-a-repository',
          `${cwd} is not in a git repository: there is nothing to review.`,
          options,
          started,
        );
      const failure = this.#failureOf(error, settings);
      this.#log.error(
        `Review failed (${failure.kind}): ${failure.message}${error instanceof Error && error.cause instanceof Error ? ` [${error.cause.message}]` : ''}`,
      );
      return { ...this.#outcomes.failure(failure, options, started, cwd), serviceUrl };
    } finally {
      if (this.#running === controller) this.#running = undefined;
    }
  }

  /** Asks for the base branch of the repository at `folder` (default: the current one), then reviews it. */
  async chooseBaseBranch(folder?: vscode.Uri): Promise<{ baseBranch?: string; review?: ReviewCommandResult }> {
    const uri = folder ?? this.#folder()?.uri;
    if (!uri) return {};
    const baseBranch = await chooseBaseBranch(uri);
    if (baseBranch === undefined) return {};
    this.#log.info(`Base branch of ${uri.fsPath}: ${baseBranch}.`);
    return { baseBranch, review: await this.review({ folder: uri.fsPath }) };
  }

  clear(): void {
    this.#running?.abort();
    this.#reviews.cleared();
    this.#diagnostics.clear();
    this.#statusBar.show({ kind: 'idle' });
    this.#log.info('Cleared the review comments.');
  }

  dispose(): void {
    this.#running?.abort();
    for (const subscription of this.#subscriptions) subscription.dispose();
  }

  #failureOf(error: unknown, settings: Settings): FailureReport {
    if (error instanceof MissingTokenError)
      return {
        kind: 'missing_token',
        message: error.message,
        actions: ['Set Token', 'Open Settings'],
        setting: SETTING.serviceUrl,
      };
    // A bad .diff-review.yml: the error goes on its line, in that file.
    if (error instanceof RepositoryConfigError) return this.#configDiagnostics.show(error);
    return describeFailure(error, { service: serviceLabel(settings.serviceUrl), baseBranch: settings.run.baseBranch });
  }

  #folder(): vscode.WorkspaceFolder | undefined {
    const active = vscode.window.activeTextEditor?.document.uri;
    return (active && vscode.workspace.getWorkspaceFolder(active)) ?? vscode.workspace.workspaceFolders?.[0];
  }

  async #reviewIn(
    cwd: string,
    settings: Settings,
    signal: AbortSignal,
    report: (message: string) => void,
    connected: (url: string) => void,
  ): Promise<ReviewOutcome> {
    const onProgress = (progress: ReviewProgress) => {
      const message = progressMessage(progress);
      report(message);
      this.#statusBar.show({ kind: 'running', detail: message });
    };
    const bundled = settings.serviceUrl === '';
    let recovered = false;
    let tookOver = false;
    for (;;) {
      try {
        // Inside the try: connecting may itself reach the other window's service (to make a token).
        // It runs beside git's work (the bundled service's start is most of a first review's time).
        const connecting = Date.now();
        let connectMs = 0;
        const connection = this.#session
          .connect(settings.serviceUrl, settings.requestTimeoutMs, signal)
          .then((opened) => {
            connectMs = Date.now() - connecting;
            connected(opened.url);
            return opened;
          });
        const client = connection.then((opened) => opened.client);
        // Both awaited below; a git failure first must not leave them unhandled.
        for (const pending of [connection, client]) pending.catch(() => {});
        const outcome = await runReview({
          cwd,
          client,
          settings: settings.run,
          signal,
          log: this.#log,
          onProgress,
          git: gitPath(),
        });
        const { serviceStartMs } = await connection;
        return {
          ...outcome,
          timings: { connectMs, ...(serviceStartMs === undefined ? {} : { serviceStartMs }), ...outcome.timings },
        };
      } catch (error) {
        // Each recovery once per review, in whichever order they are needed.
        if (bundled && !recovered && isUnauthorized(error) && (await this.#session.recoverBundledToken())) {
          recovered = true;
          continue;
        }
        if (bundled && !tookOver && isUnreachable(error) && this.#session.takeOverBundledService()) {
          tookOver = true;
          continue;
        }
        throw error;
      }
    }
  }
}
