// The scopes of a review API token, apart from the token service so that `diff-review --help` shows
// them without loading it.
import type { ReviewScope } from '../api/schemas.ts';

export const REVIEW_SCOPES: ReviewScope[] = ['reviews:read', 'reviews:write'];
