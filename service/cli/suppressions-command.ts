// `diff-review suppressions`: every diff-review-ignore comment of the repository, for an audit.
// The listing code is imported only when the command runs.
import { type Command, Option } from 'commander';
import { EXIT } from './exit-codes.ts';

export function addSuppressionsCommand(program: Command): void {
  program
    .command('suppressions')
    .description(
      "List every diff-review-ignore comment in the repository's tracked files: file, line, rules, reason, end (until) and age (git blame).",
    )
    .addOption(new Option('--format <format>', 'output format').choices(['text', 'json']).default('text'))
    .exitOverride((error) => process.exit(error.exitCode === 0 ? 0 : EXIT.usage))
    .action(async (flags: { format: 'text' | 'json' }) => {
      const { listSuppressions, formatSuppressionsText } = await import('./list-suppressions.ts');
      const { GitError } = await import('../git/index.ts');
      try {
        const listed = await listSuppressions(process.cwd());
        process.stdout.write(
          flags.format === 'json'
            ? `${JSON.stringify({ suppressions: listed }, null, 2)}\n`
            : formatSuppressionsText(listed),
        );
      } catch (error) {
        if (!(error instanceof GitError)) throw error;
        process.stderr.write(`diff-review suppressions: ${error.message}\n`);
        process.exitCode = EXIT.usage;
      }
    });
}
