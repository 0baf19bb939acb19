import type { ReviewJob, ReviewStatus } from '../api/schemas.ts';

/** `completed` and `failed` are final: the job never changes again. */
export function isTerminalStatus(status: ReviewStatus): boolean {
  return status === 'completed' || status === 'failed';
}

export function isTerminal(job: ReviewJob): boolean {
  return isTerminalStatus(job.status);
}
