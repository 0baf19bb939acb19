// How a finding looks as a vscode.Diagnostic (source, severity, the rule id linked to its page),
// and what the other parts read back from one.
import * as vscode from 'vscode';
import type { Severity } from '../../service/api/schemas.ts';
import { type PlannedDiagnostic, type SeverityCounts, textSpan } from './comment-mapping.ts';
import { ruleDocsUri } from './rule-help.ts';

export const DIAGNOSTIC_SOURCE = 'Diff Review';

// A function, not a table: nothing of vscode is touched while the bundle loads.
function severityOf(severity: Severity): vscode.DiagnosticSeverity {
  if (severity === 'error') return vscode.DiagnosticSeverity.Error;
  return severity === 'warning' ? vscode.DiagnosticSeverity.Warning : vscode.DiagnosticSeverity.Information;
}

/** A finding placed on `entry.line` as the diagnostic shown; `edited`: its line no longer holds its text. */
export function toDiagnostic(
  entry: { planned: PlannedDiagnostic; line: number; edited: boolean },
  document: vscode.TextDocument | undefined,
): vscode.Diagnostic {
  const { planned } = entry;
  const span = entry.edited
    ? document && entry.line < document.lineCount
      ? textSpan(document.lineAt(entry.line).text)
      : { startCharacter: 0, endCharacter: 0 }
    : { startCharacter: planned.startCharacter, endCharacter: planned.endCharacter };
  const range = new vscode.Range(entry.line, span.startCharacter, entry.line, span.endCharacter);
  const stale = entry.edited || planned.stale === true;
  const message = stale ? `${planned.message} (this line has changed since the reviewed version)` : planned.message;
  const diagnostic = new vscode.Diagnostic(range, message, severityOf(planned.severity));
  diagnostic.source = DIAGNOSTIC_SOURCE;
  // The rule id links to its page; "Show Rule Description" (a quick fix) opens it in the editor.
  if (planned.code !== undefined) diagnostic.code = { value: planned.code, target: ruleDocsUri(planned.code) };
  return diagnostic;
}

/** A diagnostic's rule id: its code's value. */
export function ruleIdOf(diagnostic: vscode.Diagnostic): string | undefined {
  const code = typeof diagnostic.code === 'object' ? diagnostic.code.value : diagnostic.code;
  return code === undefined ? undefined : String(code);
}

export function severityName(severity: vscode.DiagnosticSeverity): keyof SeverityCounts {
  if (severity === vscode.DiagnosticSeverity.Error) return 'error';
  return severity === vscode.DiagnosticSeverity.Warning ? 'warning' : 'info';
}
