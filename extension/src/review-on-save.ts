// "Review on save" (off by default): a quiet review shortly after a file of the workspace is saved.
import * as vscode from 'vscode';
import { onEventDebounced } from './debounced-event.ts';
import { readSettings } from './settings.ts';

const DEBOUNCE_MS = 1500;

export function reviewOnSave(review: () => Promise<unknown>): vscode.Disposable {
  return onEventDebounced(
    vscode.workspace.onDidSaveTextDocument,
    DEBOUNCE_MS, // several saves at once: one review
    () => void review(),
    (document) =>
      document.uri.scheme === 'file' &&
      vscode.workspace.getWorkspaceFolder(document.uri) !== undefined &&
      readSettings(document.uri).reviewOnSave,
  );
}
