// What to say of a review's findings that are not in the files as they are now (another branch is
// checked out): they are hidden, not absent, and the words must not claim a clean review.
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
