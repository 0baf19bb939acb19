// The last review's findings, kept in the workspace state so that a reload (or the next day) shows
// them again, re-placed on the text as it is then. Small: at most the service's cap of findings.
import type * as vscode from 'vscode';
import { onEventDebounced } from './debounced-event.ts';
import type { PlannedDiagnostic } from './comment-mapping.ts';
import type { ReviewDiagnostics } from './review-diagnostics.ts';
import type { ReviewState, ReviewStatusBar } from './status-bar.ts';

/** Findings change with every edit in their files; they are saved once edits pause. */
const SAVE_DELAY_MS = 1000;

const KEY = 'diffReview.lastReview';
const VERSION = 1;

export interface SavedReview {
  version: typeof VERSION;
  /** Absolute file path → its findings, as last placed. */
  files: [string, PlannedDiagnostic[]][];
  /** What the status bar said. */
  state: Extract<ReviewState, { kind: 'done' }>;
}

export class ReviewMemory {
  private readonly memento: vscode.Memento;

  constructor(memento: vscode.Memento) {
    this.memento = memento;
  }

  save(files: ReadonlyMap<string, readonly PlannedDiagnostic[]>, state: SavedReview['state']): Thenable<void> {
    const saved: SavedReview = {
      version: VERSION,
      files: [...files].map(([file, planned]) => [file, [...planned]]),
      state,
    };
    return this.memento.update(KEY, saved);
  }

  /** The saved review, or undefined when there is none (or it was saved in another shape). */
  load(): SavedReview | undefined {
    const saved = this.memento.get<Partial<SavedReview>>(KEY);
    if (saved?.version !== VERSION || !Array.isArray(saved.files) || saved.state?.kind !== 'done') return undefined;
    return saved as SavedReview;
  }

  clear(): Thenable<void> {
    return this.memento.update(KEY, undefined);
  }
}

/**
 * Shows the saved review again (at activation), then keeps the memory in step: the findings as
 * they are placed while the last review stands, nothing once it is cleared or superseded by none.
 */
export function keepLastReview(
  memory: ReviewMemory,
  diagnostics: ReviewDiagnostics,
  statusBar: ReviewStatusBar,
): vscode.Disposable {
  const saved = memory.load();
  if (saved) {
    diagnostics.restore(new Map(saved.files));
    statusBar.show({ ...saved.state, findings: diagnostics.size, bySeverity: diagnostics.counts() });
  }
  return onEventDebounced(diagnostics.onDidChange, SAVE_DELAY_MS, () => {
    const state = statusBar.state;
    if (state.kind === 'done') void memory.save(diagnostics.saved(), state);
    else if (diagnostics.size === 0) void memory.clear();
  });
}
