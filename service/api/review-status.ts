// Which job states are final, for the service and its clients alike.
import type { ReviewStatus } from './schemas.ts';

/** `completed` and `failed` are final: the job never changes again. */
export function isTerminalStatus(status: ReviewStatus): boolean {
  return status === 'completed' || status === 'failed';
}

/** A job (stored or as the API shows it) in a final state. */
export function isTerminal(job: { status: ReviewStatus }): boolean {
  return isTerminalStatus(job.status);
}
