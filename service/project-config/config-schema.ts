// The JSON Schema of `.diff-review.yml`, made from the engine's rules so that it always lists
// every rule id. It is also committed as schema/diff-review-config.schema.json (for `$schema` in
// editors); a test keeps the file equal to this (write-config-schema.ts rewrites it).
import { TRUNCATED_RULE_ID } from '../engine/finish.ts';
import { RULES, type RuleInfo } from '../engine/index.ts';

export const RULE_SETTINGS = ['off', 'error', 'warning', 'info'] as const;
export type RuleSetting = (typeof RULE_SETTINGS)[number];

export const CONFIG_SCHEMA_ID =
  'https://github.com/diff-review/diff-review/raw/main/schema/diff-review-config.schema.json';

/** The keys an `overrides` entry may have. */
export const OVERRIDE_KEYS = ['files', 'rules'] as const;

export function configSchema(rules: readonly RuleInfo[]): Record<string, unknown> {
  const setting = { enum: [...RULE_SETTINGS] };
  const ruleSettings = (description: string) => ({
    description,
    type: 'object',
    additionalProperties: false,
    properties: Object.fromEntries(
      [...rules]
        .sort((a, b) => (a.id < b.id ? -1 : 1))
        .map((rule) => [rule.id, { ...setting, description: `${rule.summary} (default: ${rule.severity})` }]),
    ),
  });
  const patterns = (description: string) => ({ description, type: 'array', items: { type: 'string', minLength: 1 } });
  return {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    $id: CONFIG_SCHEMA_ID,
    title: 'diff-review project configuration (.diff-review.yml, .diff-review.yaml or .diff-review.json)',
    type: 'object',
    additionalProperties: false,
    properties: {
      $schema: { type: 'string', description: 'The schema of this file, for editors.' },
      rules: ruleSettings('Turn a rule off, or give it another severity: off, error, warning or info.'),
      ignore: patterns('Paths left out of the review: gitignore-style patterns, relative to the repository root.'),
      overrides: {
        description:
          'Rule settings for some paths only, over `rules`: where several entries match a file, the last one wins.',
        type: 'array',
        items: {
          type: 'object',
          additionalProperties: false,
          required: [...OVERRIDE_KEYS],
          properties: {
            files: {
              ...patterns('The paths it applies to: gitignore-style patterns, relative to the repository root.'),
              minItems: 1,
            },
            rules: ruleSettings('The rule settings for those paths: off, error, warning or info.'),
          },
        },
      },
      suppressions: {
        description: 'How inline suppressions are judged.',
        type: 'object',
        additionalProperties: false,
        properties: {
          require_reason: {
            type: 'boolean',
            description:
              'A diff-review-ignore comment must give its reason in parentheses; one without is a finding of its own (suppression-without-reason). Default false.',
          },
          other_tools: {
            type: 'boolean',
            description:
              "Honour other tools' markers on a finding's line: gitleaks:allow and trufflehog:ignore (secrets), nosec (security findings), nosemgrep and NOSONAR. Default true.",
          },
        },
      },
      fold: {
        type: 'integer',
        minimum: 0,
        description:
          'Where a person reads a list (the text, github and gitlab formats): a rule that fires on more than this many lines of one file shows that many and folds the rest into one entry. 0 never folds. Default 5. JSON, SARIF and the editor keep every finding.',
      },
    },
  };
}

/** Rules a config may name (the truncation notice is not a rule one can grade). */
export const CONFIGURABLE_RULES: readonly RuleInfo[] = RULES.filter((rule) => rule.id !== TRUNCATED_RULE_ID);

export const CONFIG_SCHEMA = configSchema(CONFIGURABLE_RULES);
