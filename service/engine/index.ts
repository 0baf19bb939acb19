// The offline review engine: a unified diff in, findings out. Runs in a worker thread; knows
// nothing of HTTP or storage.
import { reviewUnifiedDiff, RULES } from './engine.ts';
import type { SarifInput } from './sarif.ts';
import { buildSarif } from './sarif.ts';
import type { EngineConfig, ReviewResult } from './types.ts';

export type { EngineConfig, Finding, ReviewResult, RuleInfo } from './types.ts';
export { InvalidDiffError } from './types.ts';
export { severityToSarifLevel } from './sarif.ts';
export type { SarifInput, SarifLevel } from './sarif.ts';
export { parseUnifiedDiff } from './diff/parse.ts';
export type { DiffLine, FileDiff, Hunk, ParsedDiff } from './diff/parse.ts';
export { RULES };

/**
 * Reviews a unified diff (git diff, git format-patch / git show, diff -u).
 * Asynchronous because secretlint is. Rejects with InvalidDiffError when the text is not a
 * unified diff; a diff that adds no lines has no findings.
 */
export function reviewDiff(diff: string, config?: EngineConfig): Promise<ReviewResult> {
  try {
    return reviewUnifiedDiff(diff, config);
  } catch (error) {
    return Promise.reject(error);
  }
}

/** The findings of a review as a SARIF 2.1.0 log. */
export function toSarif(input: SarifInput): object {
  return buildSarif(input, RULES);
}
