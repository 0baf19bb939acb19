// What to say of a review's findings that are not in the files as they are now (another branch is
// checked out): they are hidden, not absent, and the words must not claim a clean review; and of a
// review whose branch has moved on since.
import type { ReviewState } from './status-bar.ts';

const findings = (n: number) => `${n.toLocaleString('en-US')} finding${n === 1 ? '' : 's'}`;

/**
 * "3 findings from the review of feature/login; none in the files as they are on main.", or
 * undefined when every finding of the review is where it was.
 */
export function hiddenFindingsText(state: Extract<ReviewState, { kind: 'done' }>): string | undefined {
  const notHere = state.notHere ?? 0;
  if (notHere === 0) return undefined;
  const review = state.reviewedOn ? `the review of ${state.reviewedOn}` : 'the last review';
  const moved = state.checkedOut !== undefined && state.checkedOut !== state.reviewedOn;
  const files = moved ? `the files as they are on ${state.checkedOut}` : 'the files as they are now';
  const back =
    moved && state.reviewedOn ? ` Check out ${state.reviewedOn} to see them, or review ${state.checkedOut}.` : '';
  if (state.findings === 0) return `${findings(notHere)} from ${review}; none in ${files}.${back}`;
  return `${findings(notHere)} more from ${review} ${notHere === 1 ? 'is' : 'are'} not in ${files}.${back}`;
}

/**
 * "The review was of feature at 1a2b3c4; feature has moved on since: review again to see where its
 * findings stand.", or undefined when the review is of the commit checked out (or of another branch).
 */
export function movedText(state: Extract<ReviewState, { kind: 'done' }>): string | undefined {
  if (!state.movedSince || !state.reviewedOn || state.checkedOut !== state.reviewedOn) return undefined;
  return `The review was of ${state.reviewedOn} at ${state.movedSince}; ${state.reviewedOn} has moved on since: review again to see where its findings stand.`;
}
