// What the user can do with one finding, from its quick fixes or the findings view: ignore it (a
// `diff-review-ignore` comment, with a reason when asked for one), turn its rule off for the
// repository (.diff-review.yml), read its rule's description.
import { existsSync } from 'node:fs';
import path from 'node:path';
import * as vscode from 'vscode';
import { CONFIG_FILE_NAMES, loadProjectConfig } from '../../service/project-config/load-config.ts';
import { splitLines } from './comment-mapping.ts';
import { ignoreComment, ignoreInsertion, reasonProblem } from './ignore-comment.ts';
import { ruleIdOf } from './finding-diagnostic.ts';
import type { ReviewDiagnostics, ShownFinding } from './review-diagnostics.ts';
import type { RuleHelp } from './rule-help.ts';
import { isConfigurableRule, withRuleOff } from './rule-off-config.ts';

/** A command's argument: a finding (a findings view item, a quick fix), or a rule id. */
export function findingOf(argument: unknown): ShownFinding | undefined {
  const given = argument as Partial<ShownFinding> | undefined;
  return given?.uri instanceof vscode.Uri && given.diagnostic instanceof vscode.Diagnostic
    ? { uri: given.uri, diagnostic: given.diagnostic }
    : undefined;
}

export class FindingActions {
  readonly #diagnostics: ReviewDiagnostics;
  readonly #ruleHelp: RuleHelp;
  readonly #log: vscode.LogOutputChannel;

  constructor(diagnostics: ReviewDiagnostics, ruleHelp: RuleHelp, log: vscode.LogOutputChannel) {
    this.#diagnostics = diagnostics;
    this.#ruleHelp = ruleHelp;
    this.#log = log;
  }

  /** The edit that writes the finding's `diff-review-ignore` comment (with its reason); undefined for a language without comments. */
  ignoreEdit(
    document: vscode.TextDocument,
    diagnostic: vscode.Diagnostic,
    reason?: string,
  ): vscode.WorkspaceEdit | undefined {
    const ruleId = ruleIdOf(diagnostic);
    if (!ruleId) return undefined;
    const insertion = ignoreInsertion(
      splitLines(document.getText()),
      diagnostic.range.start.line,
      document.languageId,
      ruleId,
      reason,
    );
    if (!insertion) return undefined;
    const edit = new vscode.WorkspaceEdit();
    edit.insert(document.uri, new vscode.Position(insertion.line, insertion.character), insertion.text);
    return edit;
  }

  /**
   * Writes the comment and hides the finding at once: the service sees the comment only once it
   * is committed (or uncommitted changes are reviewed). False when the file's language has no comments.
   */
  async ignore(finding: ShownFinding, reason?: string): Promise<boolean> {
    const document = await vscode.workspace.openTextDocument(finding.uri);
    const edit = this.ignoreEdit(document, finding.diagnostic, reason);
    const ruleId = ruleIdOf(finding.diagnostic);
    if (!edit) {
      void vscode.window.showInformationMessage(
        ignoreComment(document.languageId, 'secret') === undefined
          ? `Diff Review: ${document.languageId} files have no comments to write diff-review-ignore in. Turn the rule off for this repository instead.`
          : `Diff Review: "${ruleId}" is not a rule id a diff-review-ignore comment can name.`,
      );
      return false;
    }
    // Hidden before the edit (the edit moves the line it is tracked on), shown again if it fails.
    const showAgain = this.#diagnostics.dismiss(finding.uri, finding.diagnostic.range.start.line, ruleId);
    const applied = await Promise.resolve(vscode.workspace.applyEdit(edit)).catch(() => false);
    if (applied) this.#log.info(`Ignored ${ruleId} in ${vscode.workspace.asRelativePath(finding.uri)}.`);
    else {
      showAgain();
      void vscode.window.showWarningMessage(
        `Diff Review: the diff-review-ignore comment could not be written to ${vscode.workspace.asRelativePath(finding.uri)}.`,
      );
    }
    return applied;
  }

  /**
   * "Ignore this finding": a bare directive, unless the repository's .diff-review.yml requires
   * reasons (suppressions.require_reason), where a bare one would be a finding of its own: then
   * it asks why. `reason`: the prompt's answer, given with the command (a keybinding, a test).
   */
  async ignoreAsConfigured(finding: ShownFinding, reason?: string): Promise<boolean> {
    if (await reasonsRequired(finding.uri)) return this.suppressWithReason(finding, reason);
    return this.ignore(finding);
  }

  /**
   * Asks why the finding is fine (unless `given`: a reason passed with the command), then writes
   * the comment with the reason in parentheses. False when the user cancelled or it could not be written.
   */
  async suppressWithReason(finding: ShownFinding, given?: string): Promise<boolean> {
    const ruleId = ruleIdOf(finding.diagnostic);
    const reason =
      given ??
      (await vscode.window.showInputBox({
        title: `Suppress ${ruleId}`,
        prompt: 'Why is this finding fine? The reason goes in the diff-review-ignore comment, for the next reader.',
        placeHolder: 'e.g. the test server uses a self-signed certificate',
        ignoreFocusOut: true,
        validateInput: reasonProblem,
      }));
    if (reason === undefined) return false;
    const problem = reasonProblem(reason);
    if (problem !== undefined) {
      void vscode.window.showWarningMessage(`Diff Review: ${problem}`);
      return false;
    }
    return this.ignore(finding, reason);
  }

  /** Sets `rules.<id>: off` in the repository's config file (made when missing), and hides the rule's findings. */
  async turnOff(ruleId: string, near?: vscode.Uri): Promise<vscode.Uri | undefined> {
    if (!isConfigurableRule(ruleId)) {
      void vscode.window.showWarningMessage(`Diff Review: ${ruleId} is not a rule a configuration can turn off.`);
      return undefined;
    }
    const root = repositoryRoot(near);
    if (!root) return undefined;
    const name = CONFIG_FILE_NAMES.find((file) => existsSync(path.join(root, file))) ?? CONFIG_FILE_NAMES[0];
    const uri = vscode.Uri.file(path.join(root, name));
    const exists = existsSync(uri.fsPath);
    const document = exists ? await vscode.workspace.openTextDocument(uri) : undefined;
    let text: string;
    try {
      text = withRuleOff(document?.getText(), ruleId, name.endsWith('.json'));
    } catch (error) {
      void vscode.window.showErrorMessage(`Diff Review: ${error instanceof Error ? error.message : String(error)}`);
      return undefined;
    }
    const edit = new vscode.WorkspaceEdit();
    if (document) edit.replace(uri, new vscode.Range(0, 0, document.lineCount, 0), text);
    else edit.createFile(uri, { contents: new TextEncoder().encode(text) });
    if (!(await vscode.workspace.applyEdit(edit))) return undefined;
    await (await vscode.workspace.openTextDocument(uri)).save();
    this.#diagnostics.dismissRule(ruleId);
    this.#log.info(`Turned ${ruleId} off in ${uri.fsPath}.`);
    return uri;
  }

  showDescription(ruleId: string): Promise<void> {
    return this.#ruleHelp.show(ruleId);
  }
}

/** The repository's config asks for a reason in every diff-review-ignore (a config it cannot read asks nothing). */
async function reasonsRequired(near: vscode.Uri): Promise<boolean> {
  const root = repositoryRoot(near);
  if (!root) return false;
  const config = await loadProjectConfig(root, { cwd: root }).catch(() => undefined);
  return config?.suppressions?.require_reason === true;
}

/** The git working tree holding `near` (or the first workspace folder): where its config file goes. */
function repositoryRoot(near: vscode.Uri | undefined): string | undefined {
  const start =
    (near && near.scheme === 'file' ? path.dirname(near.fsPath) : undefined) ??
    vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
  for (let dir = start; dir; dir = path.dirname(dir)) {
    if (existsSync(path.join(dir, '.git'))) return dir;
    if (path.dirname(dir) === dir) break;
  }
  return start;
}
