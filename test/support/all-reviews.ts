// Every review a client's owner has (or those matching a filter), page after page of the list.
import type { ListReviewsQuery, ReviewJob } from '../../service/api/schemas.ts';
import type { DiffReviewClient } from '../../service/client/index.ts';

export async function allReviews(
  client: DiffReviewClient,
  query: Omit<ListReviewsQuery, 'limit' | 'cursor'> = {},
): Promise<ReviewJob[]> {
  const jobs: ReviewJob[] = [];
  let cursor: string | undefined;
  do {
    const page = await client.listReviews({ ...query, limit: 100, ...(cursor ? { cursor } : {}) });
    jobs.push(...page.reviews);
    cursor = page.next_cursor ?? undefined;
  } while (cursor);
  return jobs;
}
