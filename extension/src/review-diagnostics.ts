// The review's comments as diagnostics, in one DiagnosticCollection, kept on their lines while
// the user edits: line-tracking.ts decides where each line went, this module follows the editor.
import { readFile } from 'node:fs/promises';
import * as vscode from 'vscode';
import type { PlannedDiagnostic, SeverityCounts } from './comment-mapping.ts';
import { splitLines } from './comment-mapping.ts';
import { lineAfterChanges, reanchor, type TextChange } from './line-tracking.ts';
import { severityName, toDiagnostic } from './finding-diagnostic.ts';
import type { EditedLineBehavior } from './settings.ts';

/** A comment being tracked: where its line is now, and the text it is anchored on. */
interface TrackedComment {
  planned: PlannedDiagnostic;
  /** 0-based line where its text is, or was last seen; -1 while its file is deleted. */
  line: number;
  /**
   * Its line no longer holds the text it was anchored on (edited, deleted, changed on disk): hidden,
   * or shown marked when editedLineBehavior is `stale`. Kept, so that undo or a switch back restores it.
   */
  edited: boolean;
  /** Its text is gone from the file on disk (a branch switch, a checkout): hidden, whatever editedLineBehavior says. */
  gone?: boolean;
  /** Ignored or its rule turned off by the user: hidden until the next review. */
  dismissed?: boolean;
}

/** A diagnostic shown, with its file: what the findings view and the commands work on. */
export interface ShownFinding {
  uri: vscode.Uri;
  diagnostic: vscode.Diagnostic;
}

/** How far from where line tracking puts it a comment's text is looked for after an edit (undo of a deleted line). */
const NEAR = 1;
/** How long after an edit a document is looked at again, for whether it is back to its file's text. */
const CLEAN_RECHECK_MS = 100;

export class ReviewDiagnostics implements vscode.Disposable {
  readonly #collection = vscode.languages.createDiagnosticCollection('diff-review');
  readonly #tracked = new Map<string, TrackedComment[]>();
  readonly #changed = new vscode.EventEmitter<SeverityCounts>();
  readonly #rechecks = new Map<string, NodeJS.Timeout>();
  readonly #subscriptions: vscode.Disposable[];
  #editedLineBehavior: () => EditedLineBehavior;
  /** Fires with the diagnostics shown by severity, whenever an edit or a change on disk may have changed them. */
  readonly onDidChange = this.#changed.event;

  constructor(editedLineBehavior: () => EditedLineBehavior) {
    this.#editedLineBehavior = editedLineBehavior;
    // Files without an editor change on disk too (a branch switch, a stash): their comments follow.
    const watcher = vscode.workspace.createFileSystemWatcher('**/*');
    this.#subscriptions = [
      this.#collection,
      this.#changed,
      watcher,
      watcher.onDidChange((uri) => void this.#onDiskChange(uri)),
      watcher.onDidCreate((uri) => void this.#onDiskChange(uri)),
      watcher.onDidDelete((uri) => void this.#onDiskChange(uri)),
      vscode.workspace.onDidChangeTextDocument((event) => this.#onEdit(event)),
      vscode.workspace.onDidOpenTextDocument((document) =>
        this.#reanchorFile(document.uri, splitLines(document.getText()), true),
      ),
      // A closed file goes back to its text on disk (its unsaved edits may have been discarded).
      vscode.workspace.onDidCloseTextDocument((document) => void this.#reanchorFromDisk(document.uri)),
    ];
  }

  /** Replaces every diagnostic of the previous review with these. Returns how many are shown. */
  replace(files: ReadonlyMap<string, readonly PlannedDiagnostic[]>): number {
    this.clear();
    for (const [file, planned] of files) {
      const uri = vscode.Uri.file(file);
      this.#tracked.set(
        uri.toString(),
        planned.map((entry) => ({ planned: entry, line: entry.line, edited: false })),
      );
      const open = openDocument(uri);
      if (open) this.#reanchorFile(uri, splitLines(open.getText()), !open.isDirty);
      else this.#render(uri);
    }
    return this.size;
  }

  /**
   * The findings as they are placed now: what a reload restores. Hidden ones too (an unsaved edit,
   * a branch switch): the next session looks for their text again, and undo can still bring them back.
   */
  saved(): Map<string, PlannedDiagnostic[]> {
    const files = new Map<string, PlannedDiagnostic[]>();
    for (const [key, entries] of this.#tracked) {
      const kept = entries
        .filter((entry) => !entry.dismissed)
        .map((entry) => ({ ...entry.planned, line: entry.line < 0 ? entry.planned.line : entry.line }));
      if (kept.length > 0) files.set(vscode.Uri.parse(key).fsPath, kept);
    }
    return files;
  }

  /** Shows saved findings again, each looked for in its file's current text (it may have changed since). */
  restore(files: ReadonlyMap<string, readonly PlannedDiagnostic[]>): void {
    this.replace(files);
    for (const file of files.keys()) {
      const uri = vscode.Uri.file(file);
      if (!openDocument(uri)?.isDirty) void this.#reanchorFromDisk(uri);
    }
  }

  clear(): void {
    this.#tracked.clear();
    this.#collection.clear();
    this.#changed.fire(this.counts());
  }

  /**
   * Hides one finding (ignored by the user) until the next review: the one of `ruleId` on `line`.
   * Returns what shows it again (the edit that was to ignore it failed).
   */
  dismiss(uri: vscode.Uri, line: number, ruleId: string | undefined): () => void {
    const entries = this.#tracked.get(uri.toString());
    const entry = entries?.find((e) => e.line === line && e.planned.code === ruleId && !e.dismissed);
    if (!entry) return () => {};
    entry.dismissed = true;
    this.#render(uri);
    return () => {
      entry.dismissed = false;
      this.#render(uri);
    };
  }

  /** Hides every finding of a rule (turned off by the user) until the next review. */
  dismissRule(ruleId: string): void {
    for (const [key, entries] of this.#tracked) {
      if (!entries.some((entry) => entry.planned.code === ruleId)) continue;
      for (const entry of entries) if (entry.planned.code === ruleId) entry.dismissed = true;
      this.#render(vscode.Uri.parse(key));
    }
  }

  /** The diagnostics shown now, file by file. */
  shown(): ShownFinding[] {
    const found: ShownFinding[] = [];
    this.#collection.forEach((uri, diagnostics) => {
      for (const diagnostic of diagnostics) found.push({ uri, diagnostic });
    });
    return found;
  }

  /** How many diagnostics are shown, by severity. */
  counts(): SeverityCounts {
    const counts: SeverityCounts = { error: 0, warning: 0, info: 0 };
    this.#collection.forEach((_uri, diagnostics) => {
      for (const diagnostic of diagnostics) counts[severityName(diagnostic.severity)]++;
    });
    return counts;
  }

  /** How many findings are hidden because their text is gone from their files on disk (a branch switch). */
  goneCount(): number {
    let count = 0;
    for (const entries of this.#tracked.values())
      for (const entry of entries) if (entry.gone && !entry.dismissed) count++;
    return count;
  }

  /** How many diagnostics are shown. */
  get size(): number {
    let count = 0;
    this.#collection.forEach((_uri, diagnostics) => {
      count += diagnostics.length;
    });
    return count;
  }

  dispose(): void {
    for (const timer of this.#rechecks.values()) clearTimeout(timer);
    for (const subscription of this.#subscriptions) subscription.dispose();
    this.#tracked.clear();
  }

  #onEdit(event: vscode.TextDocumentChangeEvent): void {
    const { document } = event;
    const key = document.uri.toString();
    const entries = this.#tracked.get(key);
    if (!entries) return;
    if (event.contentChanges.length === 0) {
      // Only its dirty flag changed: clean again (reverted, undone to its saved text), its text is the file's.
      if (!document.isDirty) this.#reanchorFile(document.uri, splitLines(document.getText()), true);
      return;
    }
    const changes: TextChange[] = event.contentChanges.map((change) => ({
      startLine: change.range.start.line,
      startCharacter: change.range.start.character,
      endLine: change.range.end.line,
      endCharacter: change.range.end.character,
      text: change.text,
    }));
    this.#tracked.set(
      key,
      entries.map((entry) => {
        if (entry.line < 0) return entry;
        const guess = lineAfterChanges(entry.line, entry.planned.lineText.length, changes).line;
        const line = anchoredNear(document, entry.planned.lineText, guess);
        return line === undefined
          ? { ...entry, line: guess, edited: true }
          : { ...entry, line, edited: false, gone: false };
      }),
    );
    this.#render(document.uri, document);
    if (this.#tracked.get(key)?.some((entry) => entry.edited)) this.#recheckWhenClean(document);
  }

  /**
   * A document whose text is its file's again (reloaded after a branch switch, reverted, undone to
   * its saved text) may hold lost lines further away than edits can tell: look for them in the
   * whole text. Its dirty flag is settled only after the change event, hence the short wait.
   */
  #recheckWhenClean(document: vscode.TextDocument): void {
    const key = document.uri.toString();
    clearTimeout(this.#rechecks.get(key));
    this.#rechecks.set(
      key,
      setTimeout(() => {
        this.#rechecks.delete(key);
        if (!document.isDirty && !document.isClosed)
          this.#reanchorFile(document.uri, splitLines(document.getText()), true);
      }, CLEAN_RECHECK_MS),
    );
  }

  /** `onDisk`: the lines are the file's on disk, so a text not found there is gone (not edited by the user). */
  #reanchorFile(uri: vscode.Uri, lines: readonly string[], onDisk: boolean): void {
    const entries = this.#tracked.get(uri.toString());
    if (!entries) return;
    // A text ending in a line break has no line after it to show a comment on.
    const lastLine = Math.max(0, lines.at(-1) === '' ? lines.length - 2 : lines.length - 1);
    this.#tracked.set(
      uri.toString(),
      entries.map((entry) => {
        const guess = entry.line < 0 ? entry.planned.line : entry.line;
        const line = reanchor(lines, entry.planned.lineText, guess);
        return line === undefined
          ? { ...entry, line: Math.min(guess, lastLine), edited: true, gone: onDisk }
          : { ...entry, line, edited: false, gone: false };
      }),
    );
    this.#render(uri);
  }

  async #onDiskChange(uri: vscode.Uri): Promise<void> {
    // A file with unsaved edits follows its editor. Any other follows the disk: a document VS Code
    // holds without an editor is not always reloaded, and one whose file is deleted keeps its text.
    if (!this.#tracked.has(uri.toString()) || openDocument(uri)?.isDirty) return;
    await this.#reanchorFromDisk(uri);
  }

  async #reanchorFromDisk(uri: vscode.Uri): Promise<void> {
    if (!this.#tracked.has(uri.toString()) || uri.scheme !== 'file') return;
    let text: string;
    try {
      text = await readFile(uri.fsPath, 'utf8');
    } catch {
      // Deleted (or unreadable): nothing to show them on until it is back.
      const entries = this.#tracked.get(uri.toString());
      if (entries)
        this.#tracked.set(
          uri.toString(),
          entries.map((entry) => ({ ...entry, line: -1, edited: true, gone: true })),
        );
      return this.#render(uri);
    }
    this.#reanchorFile(uri, splitLines(text), true);
  }

  #render(uri: vscode.Uri, document?: vscode.TextDocument): void {
    const keepEdited = this.#editedLineBehavior() === 'stale';
    const entries = (this.#tracked.get(uri.toString()) ?? []).filter(
      (entry) => entry.line >= 0 && !entry.dismissed && !entry.gone && (!entry.edited || keepEdited),
    );
    const diagnostics = entries.map((entry) => toDiagnostic(entry, document));
    if (diagnostics.length === 0) this.#collection.delete(uri);
    else this.#collection.set(uri, diagnostics);
    this.#changed.fire(this.counts());
  }
}

const openDocument = (uri: vscode.Uri): vscode.TextDocument | undefined =>
  vscode.workspace.textDocuments.find((document) => document.uri.toString() === uri.toString());

/** The line at or next to `guess` whose text is `expected`: `guess` first. */
function anchoredNear(document: vscode.TextDocument, expected: string, guess: number): number | undefined {
  for (const line of [guess, guess - NEAR, guess + NEAR]) {
    if (line >= 0 && line < document.lineCount && document.lineAt(line).text === expected) return line;
  }
  return undefined;
}
