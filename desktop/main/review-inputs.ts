// What this app submitted in this session, kept in memory (never on disk, never logged) so that a
// failed review can run again: the service keeps no diff once a job is over. Bounded: the most
// recent reviews up to a total size, the oldest forgotten first.
import type { CreateReviewBody } from '../../service/api/schemas.ts';

const MAX_BYTES = 64 * 1024 * 1024;

export class ReviewInputs {
  readonly #byId = new Map<string, CreateReviewBody>();
  #bytes = 0;

  remember(reviewId: string, body: CreateReviewBody): void {
    this.#byId.set(reviewId, body);
    this.#bytes += body.diff.length;
    for (const [id, old] of this.#byId) {
      if (this.#bytes <= MAX_BYTES) break;
      this.#byId.delete(id);
      this.#bytes -= old.diff.length;
    }
  }

  inputOf(reviewId: string): CreateReviewBody | undefined {
    return this.#byId.get(reviewId);
  }
}
