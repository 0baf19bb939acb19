// `diff-review review`: reviews a diff in-process (the same engine and results as the service) for
// CI and git hooks, prints it in the chosen format, and exits 0/1/2/3 (exit-codes.ts).
import { writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { type Command, Option } from 'commander';
import { createEngine, InvalidDiffError, RULES } from '../engine/index.ts';
import { GitError } from '../git/index.ts';
import { VERSION } from '../version.ts';
import { newFindings, readBaseline, writeBaseline } from './baseline.ts';
import { readReviewedDiff, type DiffSourceFlags } from './diff-source.ts';
import { EXIT, FAIL_ON, failsRun, UsageError, type FailOn } from './exit-codes.ts';
import { useColour } from './formats/ansi.ts';
import { FORMATS, formatReport, type FormatName } from './formats/index.ts';
import { addedLineLookup, type ReviewReport } from './review-report.ts';

export interface ReviewFlags extends DiffSourceFlags {
  format: FormatName;
  output?: string;
  failOn: FailOn;
  baseline?: string;
  updateBaseline?: boolean;
}

/** A review taking longer than this says so on stderr (stdout carries only the format). */
const PROGRESS_AFTER_MS = 1000;

export function addReviewCommand(program: Command): void {
  program
    .command('review')
    .description(
      'Review a diff in-process and print the findings: the current branch against its base (three-dot) by default.',
    )
    .addOption(
      new Option('--base <ref>', "compare against this branch or commit instead of the remote's default branch"),
    )
    .addOption(
      new Option('--staged', 'review the staged changes (the index), for pre-commit hooks').conflicts([
        'base',
        'uncommitted',
        'diff',
      ]),
    )
    .addOption(
      new Option('--uncommitted', "include the working tree's uncommitted changes to tracked files").conflicts([
        'diff',
      ]),
    )
    .addOption(
      new Option('--diff <file>', 'review a unified diff from a file, or from stdin with "-"').conflicts(['base']),
    )
    .addOption(new Option('--format <format>', 'output format').choices(FORMATS).default('text'))
    .addOption(new Option('--output <file>', 'write the output to a file instead of stdout'))
    .addOption(
      new Option(
        '--baseline <file>',
        'hide the findings recorded in this baseline file (only new ones are reported and counted)',
      ),
    )
    .addOption(new Option('--update-baseline', 'record every finding of this review in the --baseline file'))
    .addOption(
      new Option('--fail-on <severity>', 'exit 1 when a finding is at or above this severity')
        .choices(FAIL_ON)
        .default('error'),
    )
    .addHelpText(
      'after',
      '\nExit codes: 0 nothing at or above --fail-on; 1 something is; 2 a usage or configuration error; 3 the review could not be done.',
    )
    // Usage errors exit 2 (commander's own exit 1 is what a finding means here).
    .exitOverride((error) => process.exit(error.exitCode === 0 ? 0 : EXIT.usage))
    .action(async (flags: ReviewFlags) => {
      process.exitCode = await runReview(flags);
    });
}

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
        : await reviewOrExplain(source.diff, source.label);
    if (flags.updateBaseline) await writeBaseline(baselineFile!, result.findings);
    const findings = flags.updateBaseline ? [] : newFindings(result.findings, baseline);
    return {
      findings,
      hiddenByBaseline: result.findings.length - findings.length,
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

async function reviewOrExplain(diff: string, label: string) {
  try {
    return await createEngine().review(diff);
  } catch (error) {
    if (error instanceof InvalidDiffError) throw new UsageError(`${label} is not a unified diff: ${error.message}`);
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
