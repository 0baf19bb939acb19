// Runs in a worker thread (piscina): the CPU work of a review, off the HTTP event loop.
// Expected failures come back as values; errors only cross the thread boundary as plain Errors.
import { reviewDiff } from '../review/index.ts';
import { InvalidDiffError, type EngineConfig, type Finding } from '../review/types.ts';

export interface ReviewTask {
  diff: string;
  engine?: EngineConfig;
}

export type ReviewTaskResult =
  | { ok: true; findings: Finding[]; stats: { files: number; addedLines: number } }
  | { ok: false; code: 'invalid_diff'; message: string };

export default async function runReviewTask(task: ReviewTask): Promise<ReviewTaskResult> {
  try {
    const { findings, stats } = await reviewDiff(task.diff, task.engine);
    return { ok: true, findings, stats };
  } catch (error) {
    if (error instanceof InvalidDiffError) return { ok: false, code: 'invalid_diff', message: error.message };
    throw error;
  }
}
