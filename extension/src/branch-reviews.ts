// Each branch's last review, followed across checkouts and reloads: the findings shown are saved
// for the branch they are of (review-memory.ts); checking out a branch with a saved review shows
// it again, and at startup the review of the branch checked out comes back. While another branch
// is checked out, the status bar and the findings view say where the findings went
// (hidden-findings.ts).
import type * as vscode from 'vscode';
import { onEventDebounced } from './debounced-event.ts';
import { type GitHead, headLabel } from './git-head.ts';
import type { HeadWatcher } from './head-watcher.ts';
import type { ReviewDiagnostics } from './review-diagnostics.ts';
import { placeKey, type ReviewMemory, type ReviewPlace, type SavedReview } from './review-memory.ts';
import type { ReviewRecord } from './review-outcome.ts';
import type { ReviewStatusBar } from './status-bar.ts';

/** Findings change with every edit in their files; they are saved once edits pause. */
const SAVE_DELAY_MS = 1000;

export class BranchReviews implements ReviewRecord, vscode.Disposable {
  readonly #memory: ReviewMemory;
  readonly #diagnostics: ReviewDiagnostics;
  readonly #statusBar: ReviewStatusBar;
  readonly #head: HeadWatcher;
  /** Where the findings shown now come from. */
  #shown: ReviewPlace | undefined;
  readonly #subscriptions: vscode.Disposable[];

  constructor(parts: {
    memory: ReviewMemory;
    diagnostics: ReviewDiagnostics;
    statusBar: ReviewStatusBar;
    head: HeadWatcher;
  }) {
    this.#memory = parts.memory;
    this.#diagnostics = parts.diagnostics;
    this.#statusBar = parts.statusBar;
    this.#head = parts.head;
    this.#subscriptions = [
      this.#head.onDidChange((head) => this.#checkedOut(head)),
      onEventDebounced(this.#diagnostics.onDidChange, SAVE_DELAY_MS, () => void this.#save()),
      // Files the findings are on changed on disk: perhaps a checkout (HEAD's own file is watched too).
      this.#diagnostics.onDidChange(() => this.#head.checkSoon()),
    ];
  }

  /**
   * At activation: the review shown last comes back at once, then the one of the branch checked
   * out, if that is another. `folder`: the repository to follow when no review was saved.
   */
  start(folder: string | undefined): void {
    const saved = this.#memory.load();
    if (saved) this.#show(saved, undefined);
    const root = saved?.root || folder;
    if (root)
      void this.#head.follow(root).then((head) => {
        if (head) this.#checkedOut(head);
      });
  }

  async completed(review: { root: string; headCommit: string }): Promise<void> {
    const head = await this.#head.follow(review.root);
    // HEAD may have moved while the service worked: the branch is the one of the reviewed commit.
    this.#shown = {
      root: review.root,
      branch: head?.commit === review.headCommit ? head.branch : undefined,
      headCommit: review.headCommit,
    };
    const state = this.#statusBar.state;
    const label = headLabel(this.#shown.branch, this.#shown.headCommit);
    if (state.kind === 'done')
      this.#statusBar.show({
        ...state,
        reviewedOn: label,
        checkedOut: head ? headLabel(head.branch, head.commit) : label,
      });
    await this.#save();
  }

  async nothingToReview(review: { root: string; headCommit: string }): Promise<void> {
    const head = await this.#head.follow(review.root);
    const branch = head?.commit === review.headCommit ? head.branch : undefined;
    this.#shown = undefined;
    await this.#memory.forget({ root: review.root, branch, headCommit: review.headCommit });
    // The window shows no review now; a reload shows the review of the branch checked out then.
    await this.#memory.makeCurrent(undefined);
  }

  cleared(): void {
    void this.#memory.forget(this.#shown);
    this.#shown = undefined;
  }

  dispose(): void {
    for (const subscription of this.#subscriptions) subscription.dispose();
  }

  /** Saves the findings shown, as they are placed now, for the branch they are of. */
  async #save(): Promise<void> {
    const state = this.#statusBar.state;
    if (state.kind !== 'done' || !this.#shown) return;
    await this.#memory.save(this.#shown, this.#diagnostics.saved(), state);
  }

  /** Another branch (or commit) is checked out: its own saved review, if any, is shown instead. */
  #checkedOut(head: GitHead): void {
    const state = this.#statusBar.state;
    if (state.kind === 'running') return; // the review's end decides what shows
    const saved = this.#memory.forPlace({ root: head.root, branch: head.branch, headCommit: head.commit });
    if (saved && (!this.#shown || placeKey(saved) !== placeKey(this.#shown))) {
      void this.#save().then(() => this.#memory.makeCurrent(saved));
      this.#show(saved, head);
    } else if (state.kind === 'done')
      this.#statusBar.show({
        ...state,
        checkedOut: headLabel(head.branch, head.commit),
        movedSince: movedSince(this.#shown, head),
      });
  }

  /** Shows a saved review, each finding looked for in its file's current text. */
  #show(saved: SavedReview, head: GitHead | undefined): void {
    this.#shown = { root: saved.root, branch: saved.branch, headCommit: saved.headCommit };
    this.#diagnostics.restore(new Map(saved.files));
    this.#statusBar.show({
      ...saved.state,
      findings: this.#diagnostics.size,
      bySeverity: this.#diagnostics.counts(),
      notHere: this.#diagnostics.goneCount(),
      reviewedOn: headLabel(saved.branch, saved.headCommit),
      checkedOut: head ? headLabel(head.branch, head.commit) : saved.state.checkedOut,
      movedSince: head ? movedSince(saved, head) : saved.state.movedSince,
    });
  }
}

/** The reviewed commit (short), when the branch it was of is checked out at another commit. */
function movedSince(reviewed: ReviewPlace | undefined, head: GitHead): string | undefined {
  if (!reviewed?.branch || reviewed.branch !== head.branch || reviewed.headCommit === head.commit) return undefined;
  return reviewed.headCommit.slice(0, 7);
}
