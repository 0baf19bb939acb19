// One run of `diff-review review`: read the diff and the project config, review (in-process, or
// through the service with --service), apply the config and the baseline, print the chosen format,
// and return the exit code (exit-codes.ts).
import { writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { RULES } from '../engine/index.ts';
import { findRepositoryRoot, GitError } from '../git/index.ts';
import { VERSION } from '../version.ts';
import { newFindings, readBaseline, writeBaseline } from './baseline.ts';
import { readReviewedDiff, type DiffSourceFlags } from './diff-source.ts';
import { EXIT, failsRun, UsageError, type FailOn } from './exit-codes.ts';
import { useColour } from './formats/ansi.ts';
import { formatReport } from './formats/index.ts';
import type { FormatName } from './formats/names.ts';
import { reviewOffline, type DiffReview } from './offline-review.ts';
import { applyProjectConfig, engineConfigOf, ignoredBy } from './project-config/apply-config.ts';
import { loadProjectConfig } from './project-config/load-config.ts';
import { addedLineLookup, notReviewedFiles, type ReviewReport } from './review-report.ts';

export interface ReviewFlags extends DiffSourceFlags {
  format: FormatName;
  output?: string;
  failOn: FailOn;
  baseline?: string;
  updateBaseline?: boolean;
  config?: string;
  service?: string;
}

/** A review taking longer than this says so on stderr (stdout carries only the format). */
const PROGRESS_AFTER_MS = 1000;

/** Runs one review and returns the exit code; every error becomes a message on stderr. */
export async function runReview(flags: ReviewFlags, cwd = process.cwd()): Promise<number> {
  try {
    const report = await review(flags, cwd);
    const colour = flags.output === undefined && useColour(process.env, process.stdout.isTTY === true);
    const output = formatReport(flags.format, report, colour);
    if (flags.output !== undefined) await writeOutput(resolve(cwd, flags.output), output);
    else await writeStdout(output);
    return report.findings.some((f) => failsRun(f.severity, flags.failOn)) ? EXIT.findings : EXIT.clean;
  } catch (error) {
    process.stderr.write(`diff-review review: ${error instanceof Error ? error.message : String(error)}\n`);
    return exitCodeOf(error);
  }
}

async function review(flags: ReviewFlags, cwd: string): Promise<ReviewReport> {
  const started = performance.now();
  if (flags.updateBaseline && flags.baseline === undefined)
    throw new UsageError('--update-baseline needs --baseline <file>: the file to write.');
  const baselineFile = flags.baseline === undefined ? undefined : resolve(cwd, flags.baseline);
  const baseline =
    baselineFile === undefined || flags.updateBaseline ? new Set<string>() : await readBaseline(baselineFile);
  const source = await readReviewedDiff(flags, cwd);
  const config = await loadProjectConfig(source.root ?? (await rootOrFolder(cwd)), { explicit: flags.config, cwd });
  const reviewer: DiffReview = flags.service
    ? (await import('./service-review.ts')).serviceReviewer(flags.service, source)
    : reviewOffline;
  const progress = setTimeout(
    () =>
      process.stderr.write(
        `diff-review: reviewing ${source.label} (${Math.round(Buffer.byteLength(source.diff) / 1024)} KB)…\n`,
      ),
    PROGRESS_AFTER_MS,
  );
  try {
    const result =
      source.diff === ''
        ? { findings: [], stats: { files: 0, addedLines: 0 } }
        : await reviewer(source.diff, source.label, engineConfigOf(config));
    const configured = applyProjectConfig(result.findings, config);
    if (flags.updateBaseline) await writeBaseline(baselineFile!, configured.findings);
    const findings = flags.updateBaseline ? [] : newFindings(configured.findings, baseline);
    return {
      findings,
      hiddenByBaseline: configured.findings.length - findings.length,
      ignoredByConfig: configured.ignored,
      notReviewed: notReviewedFiles(source.diff, ignoredBy(config)),
      rules: RULES,
      ...(source.repository !== undefined ? { repository: source.repository } : {}),
      ...(source.baseCommit !== undefined ? { baseCommit: source.baseCommit } : {}),
      stats: result.stats,
      durationMs: performance.now() - started,
      toolVersion: VERSION,
      addedLineText: addedLineLookup(source.diff, findings),
    };
  } finally {
    clearTimeout(progress);
  }
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

/** Usage, configuration and repository errors are the caller's to fix (2); anything else means no review was done (3). */
function exitCodeOf(error: unknown): number {
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
