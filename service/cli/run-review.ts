// One run of `diff-review review`: read the diff and the project config, leave the ignored files
// out, review (in-process, or through the service with --service), apply the rule settings and the
// baseline, print the chosen format, and return the exit code (exit-codes.ts).
import { writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { RULES } from '../engine/index.ts';
import { TRUNCATED_RULE_ID } from '../engine/finish.ts';
import { findRepositoryRoot, GitError } from '../git/index.ts';
import { VERSION } from '../version.ts';
import { newFindings, readBaseline, writeBaseline } from './baseline.ts';
import { readReviewedDiff, sourceName, type DiffSourceFlags } from './diff-source.ts';
import { EXIT, failsRun, ReviewFailedError, UsageError, type FailOn } from './exit-codes.ts';
import { useColour } from './formats/ansi.ts';
import { formatReport } from './formats/index.ts';
import type { FormatName } from './formats/names.ts';
import { reviewOffline, type DiffReview } from './offline-review.ts';
import { Progress, progressAfterMs } from './progress.ts';
import { applyProjectConfig, engineConfigOf, ignoredBy } from '../project-config/apply-config.ts';
import { withoutIgnoredFiles } from '../project-config/filter-diff.ts';
import { loadProjectConfig } from '../project-config/load-config.ts';
import { addedLineLookup, DEFAULT_FOLD, notReviewedFiles, type ReviewReport } from './review-report.ts';

export interface ReviewFlags extends DiffSourceFlags {
  format: FormatName;
  output?: string;
  failOn: FailOn;
  baseline?: string;
  updateBaseline?: boolean;
  config?: string;
  service?: string;
}

/** Runs one review and returns the exit code; every error becomes a message on stderr. */
export async function runReview(flags: ReviewFlags, cwd = process.cwd()): Promise<number> {
  const progress = new Progress({ afterMs: progressAfterMs(process.env) });
  try {
    const report = await review(flags, cwd, progress);
    const colour = flags.output === undefined && useColour(process.env, process.stdout.isTTY === true);
    const output = formatReport(flags.format, report, colour);
    if (flags.output !== undefined) await writeOutput(resolve(cwd, flags.output), output);
    else await writeStdout(output);
    if (report.findings.some((f) => failsRun(f.severity, flags.failOn))) return EXIT.findings;
    if (report.truncated) {
      // What was cut may hold what fails the run: an incomplete review is never an all-clear.
      fail(
        'the review is incomplete: the service reported only its first findings (see the review-truncated finding). Review in-process, without --service, to see them all.',
      );
      return EXIT.reviewFailed;
    }
    return EXIT.clean;
  } catch (error) {
    fail(error instanceof Error ? error.message : String(error));
    return exitCodeOf(error);
  } finally {
    progress.end();
  }
}

async function review(flags: ReviewFlags, cwd: string, progress: Progress): Promise<ReviewReport> {
  const started = performance.now();
  if (flags.updateBaseline && flags.baseline === undefined)
    throw new UsageError('--update-baseline needs --baseline <file>: the file to write.');
  const baselineFile = flags.baseline === undefined ? undefined : resolve(cwd, flags.baseline);
  const baseline =
    baselineFile === undefined || flags.updateBaseline ? new Set<string>() : await readBaseline(baselineFile);
  progress.stage(`reading ${sourceName(flags)}`);
  const source = await readReviewedDiff(flags, cwd);
  const config = await loadProjectConfig(source.root ?? (await rootOrFolder(cwd)), { explicit: flags.config, cwd });
  const isIgnored = ignoredBy(config);
  // Ignored files are not reviewed at all, so they cannot crowd the service's cap on findings.
  const { diff, ignoredFiles } =
    config.ignore.length === 0 ? { diff: source.diff, ignoredFiles: 0 } : withoutIgnoredFiles(source.diff, isIgnored);
  const reviewer: DiffReview = flags.service
    ? (await import('./service-review.ts')).serviceReviewer(flags.service, source)
    : reviewOffline;
  progress.stage(
    `reviewing ${source.label} (${Math.round(Buffer.byteLength(diff) / 1024)} KB)${flags.service ? ' through the service' : ''}`,
  );
  const result =
    diff === ''
      ? { findings: [], suppressed: [], stats: { files: 0, addedLines: 0 } }
      : await reviewer(diff, source.label, engineConfigOf(config), { stopped: progress.tick });
  // The service's notice that it cut the list: kept whatever the config and the baseline say.
  const truncated = result.findings.filter((f) => f.rule_id === TRUNCATED_RULE_ID);
  const configured = applyProjectConfig(
    result.findings.filter((f) => f.rule_id !== TRUNCATED_RULE_ID),
    config,
  );
  if (flags.updateBaseline) {
    if (truncated.length > 0)
      throw new ReviewFailedError(
        `--update-baseline: the service reported only its first findings, so ${flags.baseline} was not written. Record it in-process, without --service.`,
      );
    await writeBaseline(baselineFile!, configured.findings);
  }
  const fresh = flags.updateBaseline ? [] : newFindings(configured.findings, baseline);
  const findings = [...fresh, ...truncated];
  return {
    findings,
    // what an inline comment suppressed, under the same rule settings and ignored paths
    suppressed: applyProjectConfig(result.suppressed, config).findings,
    fold: config.fold ?? DEFAULT_FOLD,
    truncated: truncated.length > 0,
    hiddenByBaseline: configured.findings.length - fresh.length,
    ignoredByConfig: configured.ignored,
    ignoredFiles,
    notReviewed: [
      ...notReviewedFiles(diff, isIgnored),
      // the structural stage's: the security rules that read syntax did not run on these
      ...(result.notAnalysed ?? [])
        .filter((file) => !isIgnored(file.path))
        .map((file) => ({
          file_path: file.path,
          partly: true as const,
          reason: `the rules that read its syntax did not run on all of it: ${file.reason}`,
        })),
    ],
    rules: RULES,
    ...(source.repository !== undefined ? { repository: source.repository } : {}),
    ...(source.baseCommit !== undefined ? { baseCommit: source.baseCommit } : {}),
    ...(source.headCommit !== undefined ? { headCommit: source.headCommit } : {}),
    stats: result.stats,
    durationMs: performance.now() - started,
    toolVersion: VERSION,
    addedLineText: addedLineLookup(diff, findings),
  };
}

/** The repository's top folder, or the folder itself outside a repository (a --diff file). */
async function rootOrFolder(cwd: string): Promise<string> {
  try {
    return await findRepositoryRoot(cwd);
  } catch (error) {
    if (error instanceof GitError) return cwd;
    throw error;
  }
}

const fail = (message: string) => process.stderr.write(`diff-review review: ${message}\n`);

/** Usage, configuration and repository errors are the caller's to fix (2); anything else means no review was done (3). */
function exitCodeOf(error: unknown): number {
  if (error instanceof ReviewFailedError) return EXIT.reviewFailed;
  return error instanceof UsageError || error instanceof GitError ? EXIT.usage : EXIT.reviewFailed;
}

async function writeOutput(file: string, output: string): Promise<void> {
  try {
    await writeFile(file, output);
  } catch (error) {
    throw new UsageError(`--output ${file}: ${(error as Error).message}.`);
  }
}

/** Resolves once stdout has taken the text, so a large output is not cut short by the exit. */
function writeStdout(output: string): Promise<void> {
  return new Promise((done, fail) => process.stdout.write(output, (error) => (error ? fail(error) : done())));
}
