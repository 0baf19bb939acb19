// A review as the store keeps it, for tests that write a store directly. One fixture, so that a
// field added to StoredReview is added here once, not in every test that builds one by hand.
import type { StoredReview } from '../../service/store/types.ts';

const DEFAULT_AT = '2026-11-20T00:00:00.000Z';

/** The id of a test's i-th review: ids of this shape sort as their numbers do. */
export const reviewIdOf = (i: number): string => `rev_${String(i).padStart(26, '0')}`;

/**
 * A plausible StoredReview: created and updated `at` (epoch ms or ISO text), queued with no
 * attempt, or picked up once when it has another status; a completed one has its completed_at.
 * `fields` override any of it.
 */
export function storedReview({
  at = DEFAULT_AT,
  ...fields
}: Partial<StoredReview> & { at?: number | string } = {}): StoredReview {
  const when = typeof at === 'number' ? new Date(at).toISOString() : at;
  const status = fields.status ?? 'queued';
  return {
    review_id: reviewIdOf(0),
    owner: 'local',
    status,
    repository: 'r',
    created_at: when,
    updated_at: when,
    ...(status === 'completed' ? { completed_at: when } : {}),
    attempts: status === 'queued' ? 0 : 1,
    ...fields,
  };
}
