// What an event stream last told of a job, so that a state heard twice (PostgreSQL mode hears a
// change from its runner and from NOTIFY) or read after a newer one was heard is not told again.
import type { StoredReview } from '../store/types.ts';

export type ToldState = Pick<StoredReview, 'status' | 'updated_at'>;

/** Whether `state` is news after `before`: a later change, or another status at the same instant. */
export function isNewerState(state: ToldState, before: ToldState | undefined): boolean {
  return (
    before === undefined ||
    state.updated_at > before.updated_at ||
    (state.updated_at === before.updated_at && state.status !== before.status)
  );
}

/** The state to remember: a copy of the two fields, not the record (lowdb's changes in place). */
export const toldStateOf = ({ status, updated_at }: ToldState): ToldState => ({ status, updated_at });
