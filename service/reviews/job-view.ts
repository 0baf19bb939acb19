// The one place a stored job becomes the API's ReviewJob: fields that do not apply are absent.
import type { ReviewComment, ReviewJob } from '../api/schemas.ts';
import type { Finding } from '../engine/types.ts';
import type { StoredReview } from '../store/types.ts';

export function toReviewJob(review: StoredReview, findings?: readonly Finding[]): ReviewJob {
  const job: ReviewJob = {
    review_id: review.review_id,
    status: review.status,
    repository: review.repository,
    created_at: review.created_at,
    updated_at: review.updated_at,
  };
  if (review.base_commit !== undefined) job.base_commit = review.base_commit;
  if (review.status !== 'queued' && review.started_at !== undefined) job.started_at = review.started_at;
  if (review.status === 'completed') {
    job.completed_at = review.completed_at!;
    job.comments = (findings ?? []).map(toReviewComment);
  }
  if (review.status === 'failed' && review.error)
    job.error = { code: review.error.code, message: review.error.message };
  return job;
}

/** The create response: the job as it was made (an idempotent replay answers the same). */
export function toCreatedJob(review: StoredReview): ReviewJob {
  const job: ReviewJob = {
    review_id: review.review_id,
    status: 'queued',
    repository: review.repository,
    created_at: review.created_at,
    updated_at: review.created_at,
  };
  if (review.base_commit !== undefined) job.base_commit = review.base_commit;
  return job;
}

export const toReviewComment = (f: Finding): ReviewComment => ({
  file_path: f.file_path,
  line: f.line,
  message: f.message,
  severity: f.severity,
});
