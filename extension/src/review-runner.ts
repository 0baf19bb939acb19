// One review from start to end: base and diff from git, submit, follow the job until it ends.
// No vscode import: the commands module gives it a client, settings and a signal, and shows what
// it returns. Every wait is bounded (git, each request, the wait for the job) and cancellable.
import { LIMITS } from '../../service/api/limits.ts';
import type { ReviewJob } from '../../service/api/schemas.ts';
import { AbortError, ApiError, type DiffReviewClient } from '../../service/client/index.ts';
import { configuredComments, ignoredBy } from '../../service/project-config/apply-config.ts';
import { diffWithoutIgnoredFiles } from '../../service/project-config/filter-diff.ts';
import type { RuleSetting } from '../../service/project-config/config-schema.ts';
import { ConfigError, loadProjectConfig, type ProjectConfig } from '../../service/project-config/load-config.ts';
import { prepareReview, type PreparedReview } from '../../service/git/index.ts';
import { columnsFromSarif, type ColumnsOf } from './sarif-columns.ts';
import { ruleHelpFromSarif } from './sarif-rule-help.ts';

/** The log the runner writes to: a vscode LogOutputChannel fits. Never given a token or a diff. */
export interface ReviewLog {
  info(message: string): void;
  warn(message: string): void;
  error(message: string): void;
}

export interface ReviewRunSettings {
  /** Empty: the remote's default branch. */
  baseBranch: string;
  includeUncommitted: boolean;
  /** First interval between polls when the service has no event stream. */
  pollIntervalMs: number;
  /** The longest wait for the job to end once submitted. */
  reviewTimeoutMs: number;
  /** The longest time git may take to find the base and make the diff. */
  gitTimeoutMs: number;
  /** How many times a create refused with 429 is tried again after its Retry-After. */
  rateLimitRetries: number;
  /** Longest Retry-After waited for; a longer one fails at once with the time to wait. */
  maxRetryAfterSeconds: number;
  /** The user's rule settings (diffReview.rules), under the repository's own. */
  rules: Record<string, RuleSetting>;
}

export const DEFAULT_RUN_SETTINGS: ReviewRunSettings = {
  baseBranch: '',
  includeUncommitted: false,
  pollIntervalMs: 1000,
  reviewTimeoutMs: 120_000,
  gitTimeoutMs: 30_000,
  rateLimitRetries: 2,
  maxRetryAfterSeconds: 60,
  rules: {},
};

export type ReviewProgress =
  | { step: 'git' }
  | { step: 'submitting'; diffBytes: number; files: number }
  | { step: 'rate-limited'; retryAfterSeconds: number }
  | { step: 'job'; job: ReviewJob };

/** The progress as the notification and the status bar say it. */
export function progressMessage(progress: ReviewProgress): string {
  switch (progress.step) {
    case 'git':
      return 'Finding the base commit and making the diff…';
    case 'submitting':
      return `Submitting ${progress.files} file(s), ${formatBytes(progress.diffBytes)}…`;
    case 'rate-limited':
      return `The service is busy; trying again in ${progress.retryAfterSeconds} s…`;
    case 'job':
      return progress.job.status === 'queued' ? 'Queued…' : progress.job.status === 'running' ? 'Reviewing…' : 'Done.';
  }
}

export interface ReviewRunOptions {
  /** Any folder inside the working tree. */
  cwd: string;
  /** The service's client, or its promise: connecting (the bundled service's start) runs beside git's work. */
  client: DiffReviewClient | Promise<DiffReviewClient>;
  settings: ReviewRunSettings;
  signal: AbortSignal;
  log: ReviewLog;
  onProgress?: (progress: ReviewProgress) => void;
  /** The git executable (vscode's `git.path`); default `git` on the PATH. */
  git?: string;
}

/** Where a review's time went (ms), from the command to the diagnostics: the log says it, the command answers it. */
export interface ReviewTimings {
  /** Reaching the service: the bundled one's start when this review started it, and the extension's token. */
  connectMs?: number;
  /** Of connectMs: the bundled service's start (its store, workers and port), when this review started it. */
  serviceStartMs?: number;
  /** Finding the base and making the diff. */
  gitMs?: number;
  /** Sending the diff (the create request). */
  submitMs?: number;
  /** From the create to the job's end, as the client heard it (queue, review, events). */
  reviewMs?: number;
  /** Reading the review's SARIF (columns, rule help). */
  sarifMs?: number;
  /** Placing the comments on the current text and showing them. */
  placeMs?: number;
}

export type ReviewOutcome =
  | {
      kind: 'completed';
      prepared: PreparedReview;
      job: ReviewJob;
      columnsOf: ColumnsOf;
      /** Rule id → its documentation (Markdown), from the review's SARIF. */
      ruleHelp: ReadonlyMap<string, string>;
      timings: ReviewTimings;
    }
  | { kind: 'failed'; prepared: PreparedReview; job: ReviewJob; timings: ReviewTimings }
  | { kind: 'nothing-to-review'; prepared: PreparedReview; timings: ReviewTimings };

/** The repository's .diff-review.yml is not valid: `message` is the loader's `file:line: problem`. */
export class RepositoryConfigError extends Error {
  override name = 'RepositoryConfigError';
  /** The repository's root: the file named in the message is relative to it. */
  readonly root: string;

  constructor(root: string, cause: ConfigError) {
    super(cause.message, { cause });
    this.root = root;
  }
}

/** The repository's config with the user's rule settings under its own (the repository's win; overrides still win over both). */
export function withUserRules(config: ProjectConfig, rules: Record<string, RuleSetting>): ProjectConfig {
  return Object.keys(rules).length === 0 ? config : { ...config, rules: { ...rules, ...config.rules } };
}

/** The diff is over the API's limit: said before sending it, or answered 413 by the service. */
export class DiffOverLimitError extends Error {
  override name = 'DiffOverLimitError';
  readonly diffBytes: number;
  readonly limitBytes: number;

  constructor(diffBytes: number, limitBytes: number = LIMITS.diffBytes, options?: { cause?: unknown }) {
    super(`The diff is ${formatBytes(diffBytes)}; the service accepts at most ${formatBytes(limitBytes)}.`, options);
    this.diffBytes = diffBytes;
    this.limitBytes = limitBytes;
  }
}

export function formatBytes(bytes: number): string {
  const exact = `${bytes.toLocaleString('en-US')} bytes`;
  if (bytes < 10_000) return exact;
  return `${(bytes / 1_000_000).toFixed(bytes < 1_000_000 ? 2 : 1)} MB (${exact})`;
}

const filesIn = (diff: string): number => diff.match(/^diff --git /gm)?.length ?? 0;

export async function runReview(options: ReviewRunOptions): Promise<ReviewOutcome> {
  const { settings, signal, log } = options;
  const started = Date.now();
  options.onProgress?.({ step: 'git' });
  const gitSignal = AbortSignal.any([signal, AbortSignal.timeout(settings.gitTimeoutMs)]);
  let prepared: PreparedReview;
  try {
    prepared = await prepareReview({
      cwd: options.cwd,
      baseBranch: settings.baseBranch.trim() === '' ? undefined : settings.baseBranch.trim(),
      includeUncommitted: settings.includeUncommitted,
      git: options.git,
      signal: gitSignal,
    });
  } catch (error) {
    if (signal.aborted) throw new AbortError('The review was cancelled.', { cause: error });
    if (gitSignal.aborted)
      throw new Error(`Git did not finish within ${settings.gitTimeoutMs / 1000} s while preparing the diff.`, {
        cause: error,
      });
    throw error;
  }
  // The repository's .diff-review.yml, as the CLI reads it: ignored files are not sent, rule settings grade the comments.
  const config = withUserRules(await loadConfig(prepared.root), settings.rules);
  const diff = diffWithoutIgnoredFiles(prepared.diff, ignoredBy(config));
  if (diff !== prepared.diff) {
    log.info(`Left out ${filesIn(prepared.diff) - filesIn(diff)} file(s) that ${config.file} ignores.`);
    prepared = { ...prepared, diff, diffBytes: Buffer.byteLength(diff) };
  }
  const files = filesIn(prepared.diff);
  const timings: ReviewTimings = { gitMs: Date.now() - started };
  log.info(
    `Prepared ${prepared.repository}: ${prepared.baseRef} at ${prepared.baseCommit.slice(0, 12)}...HEAD ${prepared.headCommit.slice(0, 12)}` +
      `${prepared.includesUncommitted ? ' with uncommitted changes' : ''}: ${files} file(s), ${formatBytes(prepared.diffBytes)} (${timings.gitMs} ms).`,
  );
  if (prepared.diff.trim() === '') return { kind: 'nothing-to-review', prepared, timings };
  if (prepared.diffBytes > LIMITS.diffBytes) throw new DiffOverLimitError(prepared.diffBytes);

  const client = await options.client;
  options.onProgress?.({ step: 'submitting', diffBytes: prepared.diffBytes, files });
  const submitting = Date.now();
  const created = await createWithRateLimitRetries(client, options, prepared);
  timings.submitMs = Date.now() - submitting;
  log.info(`Submitted review ${created.review_id} (${Date.now() - started} ms).`);
  options.onProgress?.({ step: 'job', job: created });

  try {
    const waiting = Date.now();
    const job = await client.waitForReview(created.review_id, {
      signal,
      timeoutMs: settings.reviewTimeoutMs,
      pollIntervalMs: settings.pollIntervalMs,
      onUpdate: (update) => options.onProgress?.({ step: 'job', job: update }),
    });
    timings.reviewMs = Date.now() - waiting;
    log.info(`Review ${job.review_id} ${job.status} in ${Date.now() - started} ms.`);
    if (job.status !== 'completed') return { kind: 'failed', prepared, job, timings };
    const configured = { ...job, comments: configuredComments(job.comments ?? [], config) };
    const reading = Date.now();
    const sarif = await sarifOfReview(client, configured, signal, log);
    timings.sarifMs = Date.now() - reading;
    return { kind: 'completed', prepared, job: configured, ...sarif, timings };
  } catch (error) {
    // Cancelled or timed out: the job would still run on the service. Stop it there too, without
    // making the user wait for the service's answer (at most 3 s, in the background).
    void client.cancelReview(created.review_id, { signal: AbortSignal.timeout(3000) }).then(
      () => log.info(`Cancelled review ${created.review_id} on the service.`),
      () => {},
    );
    throw error;
  }
}

async function loadConfig(root: string): Promise<ProjectConfig> {
  try {
    return await loadProjectConfig(root, { cwd: root });
  } catch (error) {
    throw error instanceof ConfigError ? new RepositoryConfigError(root, error) : error;
  }
}

/**
 * The columns of the review's findings and its rules' documentation, from its SARIF. Without them
 * (an older service, a failed request) the comments still show, on their lines' text.
 */
async function sarifOfReview(
  client: DiffReviewClient,
  job: ReviewJob,
  signal: AbortSignal,
  log: ReviewLog,
): Promise<{ columnsOf: ColumnsOf; ruleHelp: ReadonlyMap<string, string> }> {
  if ((job.comments ?? []).length === 0) return { columnsOf: () => undefined, ruleHelp: new Map() };
  try {
    const sarif = await client.getSarif(job.review_id, { signal });
    return { columnsOf: columnsFromSarif(sarif), ruleHelp: ruleHelpFromSarif(sarif) };
  } catch (error) {
    if (signal.aborted) throw error;
    log.warn(
      `No columns for review ${job.review_id} (its SARIF: ${error instanceof Error ? error.message : String(error)}); its comments cover their lines.`,
    );
    return { columnsOf: () => undefined, ruleHelp: new Map() };
  }
}

async function createWithRateLimitRetries(
  client: DiffReviewClient,
  options: ReviewRunOptions,
  prepared: PreparedReview,
): Promise<ReviewJob> {
  const { settings, signal, log } = options;
  // One key for every attempt: a create that did get through is answered again, not repeated.
  const idempotencyKey = crypto.randomUUID();
  for (let attempt = 0; ; attempt++) {
    try {
      return await client.createReview(
        { diff: prepared.diff, repository: prepared.repository, base_commit: prepared.baseCommit },
        // The client leaves 429 to this loop: one policy, and the progress says that it waits.
        { signal, idempotencyKey, retryRateLimited: false },
      );
    } catch (error) {
      if (error instanceof ApiError && error.status === 413)
        throw new DiffOverLimitError(prepared.diffBytes, LIMITS.diffBytes, { cause: error });
      const wait = error instanceof ApiError && error.status === 429 ? (error.retryAfterSeconds ?? 1) : undefined;
      if (wait === undefined || attempt >= settings.rateLimitRetries || wait > settings.maxRetryAfterSeconds)
        throw error;
      log.warn(
        `The service is busy (${(error as ApiError).error}); trying again in ${wait} s as its Retry-After asks.`,
      );
      options.onProgress?.({ step: 'rate-limited', retryAfterSeconds: wait });
      await delay(wait * 1000, signal);
    }
  }
}

function delay(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const onAbort = () => {
      clearTimeout(timer);
      reject(new AbortError('The review was cancelled.', { cause: signal.reason }));
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    if (signal.aborted) onAbort();
    else signal.addEventListener('abort', onAbort, { once: true });
  });
}
