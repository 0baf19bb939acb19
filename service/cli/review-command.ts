// `diff-review review`: its flags and help. The review itself (run-review.ts) is imported only when
// the command runs, so `--help` and the other subcommands do not load the engine.
import { type Command, Option } from 'commander';
import { DIFF_LIMIT_TEXT } from '../api/errors.ts';
import { DEFAULT_MAX_FINDINGS } from '../engine/finish.ts';
import { MAX_DIFF_TEXT } from './diff-limit.ts';
import { EXIT, FAIL_ON } from './exit-codes.ts';
import { FORMATS } from './formats/names.ts';
import type { ReviewFlags } from './run-review.ts';

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
      new Option(
        '--head <ref>',
        'review this branch or commit against the base (three-dot) instead of HEAD, e.g. a pushed range',
      ),
    )
    .addOption(
      new Option('--staged', 'review the staged changes (the index), for pre-commit hooks').conflicts([
        'base',
        'head',
        'uncommitted',
        'diff',
      ]),
    )
    .addOption(
      new Option('--uncommitted', "include the working tree's uncommitted changes to tracked files").conflicts([
        'diff',
        'head',
      ]),
    )
    .addOption(
      new Option('--diff <file>', 'review a unified diff from a file, or from stdin with "-"').conflicts([
        'base',
        'head',
      ]),
    )
    .addOption(
      new Option(
        '--config <file>',
        'the project config (rules, ignore) to use instead of .diff-review.yml/.yaml/.json at the repository root',
      ),
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
    .addOption(
      new Option(
        '--service <url>',
        'review through a running service (its API, with the token in DIFF_REVIEW_TOKEN) instead of in-process',
      ).env('DIFF_REVIEW_URL'),
    )
    .addHelpText(
      'after',
      [
        '',
        'Exit codes: 0 nothing at or above --fail-on; 1 something is; 2 a usage or configuration error; 3 the review could not be done (also, with --service, when the service cut its findings short).',
        '',
        `In-process, diffs up to ${MAX_DIFF_TEXT} are reviewed, with every finding (the service takes at most ${DIFF_LIMIT_TEXT} and reports at most ${DEFAULT_MAX_FINDINGS} findings); a larger diff exits 3.`,
      ].join('\n'),
    )
    // Usage errors exit 2 (commander's own exit 1 is what a finding means here).
    .exitOverride((error) => process.exit(error.exitCode === 0 ? 0 : EXIT.usage))
    .action(async (flags: ReviewFlags) => {
      try {
        const { runReview } = await import('./run-review.ts');
        process.exitCode = await runReview(flags);
      } catch (error) {
        // A crash before the review could start (the review's code failed to load): no review was
        // done, which is 3; 1 would say "findings", and a gate on --fail-on none would pass it.
        process.stderr.write(`diff-review review: ${error instanceof Error ? error.message : String(error)}\n`);
        process.exitCode = EXIT.reviewFailed;
      }
    });
}
