// `diff-review rules [id]`: every rule, or one rule's documentation. The rule data is imported only
// when the command runs.
import { type Command, Option } from 'commander';
import { EXIT } from './exit-codes.ts';

export function addRulesCommand(program: Command): void {
  program
    .command('rules')
    .argument('[rule-id]', "a rule's id: show its documentation")
    .description("List the review engine's rules, or show one rule's documentation (the same as docs/rules/<id>.md).")
    .addOption(new Option('--format <format>', 'output format').choices(['text', 'json']).default('text'))
    .exitOverride((error) => process.exit(error.exitCode === 0 ? 0 : EXIT.usage))
    .action(async (id: string | undefined, flags: { format: 'text' | 'json' }) => {
      const { showRules } = await import('./show-rules.ts');
      process.exitCode = showRules(id, flags.format);
    });
}
