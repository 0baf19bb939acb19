// The findings of the last review of each branch, kept in the workspace state: a reload (or the
// next day) shows them again, and so does checking that branch out again (branch-reviews.ts),
// re-placed on the text as it is then. Small: at most the service's cap of findings a review, and
// the most recent MAX_KEPT reviews.
import type * as vscode from 'vscode';
import type { PlannedDiagnostic } from './comment-mapping.ts';
import type { ReviewState } from './status-bar.ts';

const KEY = 'diffReview.reviews';
const VERSION = 2;
/** The first version kept one review, of whichever branch. Read once, as the current one. */
const V1_KEY = 'diffReview.lastReview';
/** Reviews of this many branches are kept; the least recently saved go first. */
const MAX_KEPT = 20;

/** Which review: of the repository at `root`, of `branch` (or of `headCommit` when HEAD was detached). */
export interface ReviewPlace {
  root: string;
  branch: string | undefined;
  /** The commit HEAD was at when it was reviewed. */
  headCommit: string;
}

export interface SavedReview extends ReviewPlace {
  /** Absolute file path → its findings, as last placed. */
  files: [string, PlannedDiagnostic[]][];
  /** What the status bar said. */
  state: Extract<ReviewState, { kind: 'done' }>;
  savedAt: number;
}

interface SavedReviews {
  version: typeof VERSION;
  /** The review shown last (what a reload shows first). */
  current?: string;
  reviews: Record<string, SavedReview>;
}

/** The one key of a branch's review in a repository (a detached HEAD: its commit). */
export const placeKey = (place: Pick<ReviewPlace, 'root' | 'branch' | 'headCommit'>): string =>
  `${place.root}\n${place.branch ?? `@${place.headCommit}`}`;

export class ReviewMemory {
  readonly #memento: vscode.Memento;

  constructor(memento: vscode.Memento) {
    this.#memento = memento;
  }

  /** Keeps the review of its branch (replacing the branch's earlier one) as the current one. */
  save(place: ReviewPlace, files: ReadonlyMap<string, readonly PlannedDiagnostic[]>, state: SavedReview['state']) {
    const all = this.#all();
    const key = placeKey(place);
    delete all.reviews[key]; // saved last: at the end of the keys' order
    all.reviews[key] = {
      root: place.root,
      branch: place.branch,
      headCommit: place.headCommit,
      files: [...files].map(([file, planned]) => [file, [...planned]]),
      state,
      savedAt: Date.now(),
    };
    all.current = key;
    // Keys keep the order they were saved in (review ids and paths are no integers): the first are the oldest.
    const keys = Object.keys(all.reviews);
    for (const gone of keys.slice(0, Math.max(0, keys.length - MAX_KEPT))) delete all.reviews[gone];
    return this.#write(all);
  }

  /** The review shown last, or undefined when there is none. */
  load(): SavedReview | undefined {
    const all = this.#all();
    return all.current === undefined ? undefined : all.reviews[all.current];
  }

  /** The saved review of a branch (a detached HEAD: of its commit). */
  forPlace(place: Pick<ReviewPlace, 'root' | 'branch' | 'headCommit'>): SavedReview | undefined {
    return this.#all().reviews[placeKey(place)];
  }

  /** Makes this saved review the current one (a reload shows it first); undefined: none. */
  makeCurrent(place: ReviewPlace | undefined) {
    const all = this.#all();
    all.current = place && placeKey(place);
    return this.#write(all);
  }

  /** Forgets a branch's review (cleared, or the branch has nothing to review any more). */
  forget(place: Pick<ReviewPlace, 'root' | 'branch' | 'headCommit'> | undefined) {
    const all = this.#all();
    const key = place && placeKey(place);
    if (key !== undefined) delete all.reviews[key];
    if (key === undefined || all.current === key) all.current = undefined;
    return this.#write(all);
  }

  #all(): SavedReviews {
    const saved = this.#memento.get<Partial<SavedReviews>>(KEY);
    if (saved?.version === VERSION && typeof saved.reviews === 'object' && saved.reviews !== null) {
      const reviews = Object.fromEntries(Object.entries(saved.reviews).filter(([, review]) => isSavedReview(review)));
      return { version: VERSION, current: saved.current, reviews };
    }
    return fromVersion1(this.#memento.get(V1_KEY));
  }

  #write(all: SavedReviews): Thenable<void> {
    return this.#memento.update(KEY, all);
  }
}

function isSavedReview(value: unknown): value is SavedReview {
  const review = value as Partial<SavedReview> | undefined;
  return (
    typeof review?.root === 'string' &&
    typeof review.headCommit === 'string' &&
    Array.isArray(review.files) &&
    review.state?.kind === 'done'
  );
}

/** The first version's one review (no branch was kept then): current, of no branch. */
function fromVersion1(value: unknown): SavedReviews {
  const old = value as { version?: number; files?: unknown; state?: { kind?: string } } | undefined;
  if (old?.version !== 1 || !Array.isArray(old.files) || old.state?.kind !== 'done')
    return { version: VERSION, reviews: {} };
  const review = {
    root: '',
    branch: undefined,
    headCommit: '',
    files: old.files,
    state: old.state,
    savedAt: 0,
  };
  if (!isSavedReview(review)) return { version: VERSION, reviews: {} };
  const key = placeKey(review);
  return { version: VERSION, current: key, reviews: { [key]: review } };
}
