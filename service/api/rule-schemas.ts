// The rules' documentation in API v1 (beyond the seed, additive): GET /v1/rules and
// GET /v1/rules/{rule_id}. Made from the same data as docs/rules/ (service/engine/rule-pages.ts).
import Type, { type Static } from 'typebox';
import { Severity } from './schemas.ts';

export const RuleSummary = Type.Object(
  {
    id: Type.String({ description: 'The rule id comments start with, e.g. `no-debugger`.' }),
    severity: Severity,
    summary: Type.String({ description: 'What the rule finds, in one sentence.' }),
  },
  { additionalProperties: false },
);

export const RuleList = Type.Object({ rules: Type.Array(RuleSummary) }, { additionalProperties: false });

const RuleExample = Type.Object(
  {
    path: Type.String({ description: 'The file the change is in (rules depend on it).' }),
    lines: Type.Array(Type.String(), { description: 'The lines the change adds.' }),
  },
  { additionalProperties: false },
);

export const RuleDetail = Type.Object(
  {
    ...RuleSummary.properties,
    help: Type.String({ description: 'How to fix a finding.' }),
    why: Type.Optional(Type.String({ description: 'What goes wrong if it is merged.' })),
    reported: Type.Optional(RuleExample),
    not_reported: Type.Optional(RuleExample),
    suppress: Type.String({
      description: 'The comment that suppresses one finding, on its line or the line above it.',
      examples: ['// diff-review-ignore no-debugger (why this one is fine)'],
    }),
    markdown: Type.String({ description: "The rule's documentation page (the same as docs/rules/<id>.md)." }),
  },
  { additionalProperties: false },
);

export const RuleIdParams = Type.Object({ rule_id: Type.String() });

export type RuleSummary = Static<typeof RuleSummary>;
export type RuleDetail = Static<typeof RuleDetail>;
