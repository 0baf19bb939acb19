// The quick fixes of a Diff Review diagnostic (the light bulb, Ctrl+.): ignore this finding (or
// suppress it with a reason), turn its rule off for the repository, show its rule's description.
import * as vscode from 'vscode';
import { COMMANDS } from './command-ids.ts';
import type { FindingActions } from './finding-actions.ts';
import { DIAGNOSTIC_SOURCE, ruleIdOf } from './finding-diagnostic.ts';
import { isConfigurableRule } from './rule-off-config.ts';

export class ReviewQuickFixes implements vscode.CodeActionProvider {
  // A function, not a static field: nothing of vscode is touched while the bundle loads (a
  // bundle loaded outside an extension host, as the tests' other window does, has no vscode).
  static metadata(): vscode.CodeActionProviderMetadata {
    return { providedCodeActionKinds: [vscode.CodeActionKind.QuickFix] };
  }
  readonly #actions: FindingActions;

  constructor(actions: FindingActions) {
    this.#actions = actions;
  }

  provideCodeActions(
    document: vscode.TextDocument,
    _range: vscode.Range | vscode.Selection,
    context: vscode.CodeActionContext,
  ): vscode.CodeAction[] {
    const fixes: vscode.CodeAction[] = [];
    for (const diagnostic of context.diagnostics) {
      const ruleId = ruleIdOf(diagnostic);
      if (diagnostic.source !== DIAGNOSTIC_SOURCE || !ruleId) continue;
      const finding = { uri: document.uri, diagnostic };
      if (this.#actions.ignoreEdit(document, diagnostic)) {
        fixes.push(fix('Ignore this finding', diagnostic, COMMANDS.ignoreFinding, finding, true));
        fixes.push(fix('Suppress with a reason…', diagnostic, COMMANDS.suppressWithReason, finding));
      }
      if (isConfigurableRule(ruleId))
        fixes.push(fix(`Turn off ${ruleId} for this repository`, diagnostic, COMMANDS.turnOffRule, finding));
      fixes.push(fix(`Show rule description: ${ruleId}`, diagnostic, COMMANDS.showRuleDescription, finding));
    }
    return fixes;
  }
}

/** A quick fix that runs one of the finding commands (which also hide the finding at once). */
function fix(
  title: string,
  diagnostic: vscode.Diagnostic,
  command: string,
  argument: unknown,
  preferred = false,
): vscode.CodeAction {
  const action = new vscode.CodeAction(title, vscode.CodeActionKind.QuickFix);
  action.diagnostics = [diagnostic];
  action.command = { title, command, arguments: [argument] };
  action.isPreferred = preferred;
  return action;
}
