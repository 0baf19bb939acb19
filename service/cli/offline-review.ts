// The in-process review: the service's engine, with the project's rule settings, on a diff of any size.
import { createEngine, InvalidDiffError, type EngineConfig, type ReviewResult } from '../engine/index.ts';
import { UsageError } from './exit-codes.ts';

/** Reviews a diff; `label` says what it is in errors ("stdin", "main...HEAD"). */
export type DiffReview = (diff: string, label: string, config: EngineConfig) => Promise<ReviewResult>;

export const reviewOffline: DiffReview = async (diff, label, config) => {
  try {
    return await createEngine(config).review(diff);
  } catch (error) {
    if (error instanceof InvalidDiffError) throw new UsageError(`${label} is not a unified diff: ${error.message}`);
    throw error;
  }
};
