// The review's comments as diagnostics, in one DiagnosticCollection, kept on their lines while
// the user edits: line-tracking.ts decides where each line went, this module follows the editor.
import { readFile } from 'node:fs/promises';
import * as vscode from 'vscode';
import type { Severity } from '../../service/api/schemas.ts';
import type { PlannedDiagnostic } from './comment-mapping.ts';
import { splitLines, textSpan } from './comment-mapping.ts';
import { lineAfterChanges, reanchor, type TextChange } from './line-tracking.ts';
import type { EditedLineBehavior } from './settings.ts';

export const DIAGNOSTIC_SOURCE = 'Diff Review';

/** A comment being tracked: where its line is now, and the text it is anchored on. */
interface TrackedComment {
  planned: PlannedDiagnostic;
  line: number;
  /** Its line was edited since the review (shown only when editedLineBehavior is `stale`). */
  stale: boolean;
}

// A function, not a table: nothing of vscode is touched while the bundle loads.
function severityOf(severity: Severity): vscode.DiagnosticSeverity {
  if (severity === 'error') return vscode.DiagnosticSeverity.Error;
  return severity === 'warning' ? vscode.DiagnosticSeverity.Warning : vscode.DiagnosticSeverity.Information;
}

export class ReviewDiagnostics implements vscode.Disposable {
  private readonly collection = vscode.languages.createDiagnosticCollection('diff-review');
  private readonly tracked = new Map<string, TrackedComment[]>();
  private readonly subscriptions: vscode.Disposable[];
  private editedLineBehavior: () => EditedLineBehavior;

  constructor(editedLineBehavior: () => EditedLineBehavior) {
    this.editedLineBehavior = editedLineBehavior;
    this.subscriptions = [
      this.collection,
      vscode.workspace.onDidChangeTextDocument((event) => this.onEdit(event)),
      vscode.workspace.onDidOpenTextDocument((document) => this.reanchorFile(document.uri, splitLines(document.getText()))),
      // A closed file goes back to its text on disk (its unsaved edits may have been discarded).
      vscode.workspace.onDidCloseTextDocument((document) => void this.reanchorFromDisk(document.uri)),
    ];
  }

  /** Replaces every diagnostic of the previous review with these. */
  replace(files: ReadonlyMap<string, readonly PlannedDiagnostic[]>): number {
    this.clear();
    let count = 0;
    for (const [file, planned] of files) {
      const uri = vscode.Uri.file(file);
      this.tracked.set(uri.toString(), planned.map((entry) => ({ planned: entry, line: entry.line, stale: entry.stale === true })));
      count += planned.length;
      const open = vscode.workspace.textDocuments.find((document) => document.uri.toString() === uri.toString());
      if (open) this.reanchorFile(uri, splitLines(open.getText()));
      else this.render(uri);
    }
    return count;
  }

  clear(): void {
    this.tracked.clear();
    this.collection.clear();
  }

  /** How many diagnostics are shown. */
  get size(): number {
    let count = 0;
    this.collection.forEach((_uri, diagnostics) => (count += diagnostics.length));
    return count;
  }

  dispose(): void {
    for (const subscription of this.subscriptions) subscription.dispose();
    this.tracked.clear();
  }

  private onEdit(event: vscode.TextDocumentChangeEvent): void {
    const key = event.document.uri.toString();
    const entries = this.tracked.get(key);
    if (!entries || event.contentChanges.length === 0) return;
    const changes: TextChange[] = event.contentChanges.map((change) => ({
      startLine: change.range.start.line,
      startCharacter: change.range.start.character,
      endLine: change.range.end.line,
      endCharacter: change.range.end.character,
      text: change.text,
    }));
    const kept: TrackedComment[] = [];
    for (const entry of entries) {
      // The line's length before this edit is its anchored text's, as long as it is not stale.
      const fate = lineAfterChanges(entry.line, entry.planned.lineText.length, changes);
      if (fate.kind === 'moved') kept.push({ ...entry, line: fate.line });
      else if (this.editedLineBehavior() === 'stale') kept.push({ ...entry, line: fate.line, stale: true });
    }
    this.tracked.set(key, kept);
    this.render(event.document.uri, event.document);
  }

  private reanchorFile(uri: vscode.Uri, lines: readonly string[]): void {
    const entries = this.tracked.get(uri.toString());
    if (!entries) return;
    const kept: TrackedComment[] = [];
    for (const entry of entries) {
      const line = entry.stale ? undefined : reanchor(lines, entry.planned.lineText, entry.line);
      if (line !== undefined) kept.push({ ...entry, line });
      else if (this.editedLineBehavior() === 'stale') kept.push({ ...entry, line: Math.min(entry.line, Math.max(0, lines.length - 1)), stale: true });
    }
    this.tracked.set(uri.toString(), kept);
    this.render(uri);
  }

  private async reanchorFromDisk(uri: vscode.Uri): Promise<void> {
    if (!this.tracked.has(uri.toString()) || uri.scheme !== 'file') return;
    try {
      this.reanchorFile(uri, splitLines(await readFile(uri.fsPath, 'utf8')));
    } catch {
      // Deleted: its diagnostics stay where they were until the next review.
    }
  }

  private render(uri: vscode.Uri, document?: vscode.TextDocument): void {
    const entries = this.tracked.get(uri.toString()) ?? [];
    const diagnostics = entries.map((entry) => toDiagnostic(entry, document));
    if (diagnostics.length === 0) this.collection.delete(uri);
    else this.collection.set(uri, diagnostics);
  }
}

function toDiagnostic(entry: TrackedComment, document: vscode.TextDocument | undefined): vscode.Diagnostic {
  const { planned } = entry;
  const lineText = document && entry.line < document.lineCount ? document.lineAt(entry.line).text : !entry.stale || entry.line === planned.line ? planned.lineText : undefined;
  const span = lineText === undefined ? { startCharacter: 0, endCharacter: 0 } : textSpan(lineText);
  const range = new vscode.Range(entry.line, span.startCharacter, entry.line, span.endCharacter);
  const message = entry.stale ? `${planned.message} (this line has changed since the reviewed version)` : planned.message;
  const diagnostic = new vscode.Diagnostic(range, message, severityOf(planned.severity));
  diagnostic.source = DIAGNOSTIC_SOURCE;
  if (planned.code !== undefined) diagnostic.code = planned.code;
  return diagnostic;
}
