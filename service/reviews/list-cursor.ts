// The list's cursor: the last review id of a page, opaque to clients (base64url), checked when it comes back.
import { InvalidRequestError } from '../api/errors.ts';
import { REVIEW_ID } from '../api/schemas.ts';

export const encodeCursor = (reviewId: string) => Buffer.from(reviewId, 'utf8').toString('base64url');

export function decodeCursor(cursor: string): string {
  const id = Buffer.from(cursor, 'base64url').toString('utf8');
  if (!REVIEW_ID.test(id))
    throw new InvalidRequestError('cursor is not valid: pass the next_cursor of the previous page unchanged.');
  return id;
}
