// The one settable clock of the tests (the service takes any Clock). Real time by default, moved
// by `offset`; frozen at one instant while `fixed` is set.
import type { Clock } from '../../service/clock.ts';

export class TestClock implements Clock {
  /** The instant `now()` answers while set. */
  fixed: number | undefined;
  /** Added to real time while `fixed` is not set. */
  offset = 0;

  /** `at`: start frozen at this instant (else real time). */
  constructor(at?: number) {
    this.fixed = at;
  }

  now(): number {
    return this.fixed ?? Date.now() + this.offset;
  }

  /** Moves time on (frozen or not). */
  advance(ms: number): void {
    if (this.fixed === undefined) this.offset += ms;
    else this.fixed += ms;
  }

  /** Back to real time. */
  reset(): void {
    this.fixed = undefined;
    this.offset = 0;
  }
}
