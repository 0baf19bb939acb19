// Who may see a review: the owner of the token that created it, through any of their review tokens.
// Everyone else is told it does not exist (404, never 403), so ids leak nothing.
import type { StoredReview } from '../store/types.ts';

export const ownedBy = (review: Pick<StoredReview, 'owner'>, owner: string): boolean => review.owner === owner;
