// The in-process review: the service's engine, with the project's rule settings, on a diff of any
// size up to the CLI's limit (diff-source.ts), and with no cap on findings: a cut list could hide
// the one finding that fails the run.
import type { ReviewControl } from '../engine/engine.ts';
import { createEngine, InvalidDiffError, type EngineConfig, type ReviewResult } from '../engine/index.ts';
import { UsageError } from './exit-codes.ts';

/** Reviews a diff; `label` says what it is in errors ("stdin", "main...HEAD"); `control.stopped` is asked between stages and files. */
export type DiffReview = (
  diff: string,
  label: string,
  config: EngineConfig,
  control?: ReviewControl,
) => Promise<ReviewResult>;

export const reviewOffline: DiffReview = async (diff, label, config, control) => {
  try {
    return await createEngine({ ...config, maxFindings: Number.POSITIVE_INFINITY }).review(diff, control);
  } catch (error) {
    if (error instanceof InvalidDiffError) throw new UsageError(`${label} is not a unified diff: ${error.message}`);
    throw error;
  }
};
