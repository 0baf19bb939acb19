// Every rule of the engine, family by family.
import { conflictMarkerRules } from './conflict-markers.ts';
import { debuggingRules } from './debugging.ts';
import { disabledCheckRules } from './disabled-checks.ts';
import { fileHygieneRules } from './file-hygiene.ts';
import { misconfigurationRules } from './misconfig/index.ts';
import { riskyApiRules } from './risky-apis.ts';
import type { Rule } from './rule.ts';
import type { Concern } from '../suppression.ts';
import { suppressionRules } from './suppression-directives.ts';
import { secretRules } from './secrets.ts';
import { testHygieneRules } from './test-hygiene.ts';
import { todoRules } from './todo.ts';
import { weakCryptoRules } from './weak-crypto.ts';

export const ALL_RULES: readonly Rule[] = [
  ...secretRules,
  ...conflictMarkerRules,
  ...testHygieneRules,
  ...debuggingRules,
  ...disabledCheckRules,
  ...riskyApiRules,
  ...misconfigurationRules,
  ...weakCryptoRules,
  ...todoRules,
  ...fileHygieneRules,
  ...suppressionRules,
];

/** What each rule's findings are about, where other tools' suppression markers need to know (suppression.ts). */
const CONCERNS = new Map<string, Concern>([
  ...[...riskyApiRules, ...misconfigurationRules, ...weakCryptoRules].map((rule) => [rule.id, 'security'] as const),
  ...secretRules.map((rule) => [rule.id, 'secret'] as const),
]);

export const concernOf = (ruleId: string): Concern | undefined => CONCERNS.get(ruleId);
