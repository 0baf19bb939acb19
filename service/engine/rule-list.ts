// Every rule's metadata, for SARIF, the rule pages and GET /v1/rules.
import { TRUNCATED_RULE } from './finish.ts';
import { ALL_RULES } from './rules/index.ts';
import type { RuleInfo } from './types.ts';

export const RULES: RuleInfo[] = [
  // One entry per id: a rule may be made of several parts (`secret`: secretlint and the credential formats).
  ...new Map(ALL_RULES.map(({ id, severity, summary, help }) => [id, { id, severity, summary, help }])).values(),
  TRUNCATED_RULE,
];
