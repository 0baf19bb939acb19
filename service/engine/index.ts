// The offline review engine: a unified diff in, findings out. Runs in a worker thread; knows
// nothing of HTTP or storage.
import { createEngine } from './engine.ts';
import { RULES } from './rule-list.ts';
import type { SarifInput } from './sarif.ts';
import { buildSarif } from './sarif.ts';
import type { EngineConfig, ReviewResult } from './types.ts';

export type { EngineConfig, Finding, ReviewResult, RuleInfo, SuppressedFinding } from './types.ts';
export { InvalidDiffError, ReviewStoppedError } from './types.ts';
export { createEngine } from './engine.ts';
export { RULES };
export type { Engine } from './engine.ts';
export { severityToSarifLevel } from './sarif.ts';
export type { SarifInput } from './sarif.ts';
export { parseUnifiedDiff } from './diff/parse.ts';

/**
 * Reviews one unified diff (git diff, git format-patch / git show, diff -u) with an engine built
 * for it. To review many, build an engine once with createEngine and keep it.
 */
export function reviewDiff(diff: string, config?: EngineConfig): Promise<ReviewResult> {
  return createEngine(config).review(diff);
}

/** The findings of a review as a SARIF 2.1.0 log. */
export function toSarif(input: SarifInput): object {
  return buildSarif(input, RULES);
}
