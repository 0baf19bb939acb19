// "Choose Base Branch": when no base branch is found (no origin, no main), the user picks one of
// the repository's branches instead of reading advice about `git remote set-head`.
import * as vscode from 'vscode';
import { runGit } from '../../service/git/index.ts';
import { gitPath, SECTION } from './settings.ts';

/** The repository's branches, local ones first, without the one checked out. */
async function branchesOf(cwd: string): Promise<string[]> {
  const options = { git: gitPath(), signal: AbortSignal.timeout(10_000) };
  const [listed, head] = await Promise.all([
    runGit(cwd, ['for-each-ref', '--format=%(refname:short)', 'refs/heads', 'refs/remotes'], options),
    runGit(cwd, ['rev-parse', '--abbrev-ref', 'HEAD'], options),
  ]);
  const current = head.stdout.trim();
  return listed.stdout
    .split('\n')
    .map((name) => name.trim())
    .filter((name) => name !== '' && name !== current && !name.endsWith('/HEAD'));
}

/**
 * Asks for the base branch of the repository at `folder` and keeps it in the `baseBranch` setting:
 * the workspace folder's when the repository is in one, else the user's. Undefined when dismissed.
 */
export async function chooseBaseBranch(folder: vscode.Uri): Promise<string | undefined> {
  const branches = await branchesOf(folder.fsPath);
  if (branches.length === 0) {
    void vscode.window.showInformationMessage(
      'Diff Review: this repository has no other branch to compare with. Create or fetch one, then review again.',
    );
    return undefined;
  }
  const picked = await vscode.window.showQuickPick(branches, {
    title: 'Diff Review: Base Branch',
    placeHolder: 'The branch your work is compared against',
    ignoreFocusOut: true,
  });
  if (picked === undefined) return undefined;
  const inWorkspace = vscode.workspace.getWorkspaceFolder(folder) !== undefined;
  await vscode.workspace
    .getConfiguration(SECTION, folder)
    .update(
      'baseBranch',
      picked,
      inWorkspace ? vscode.ConfigurationTarget.WorkspaceFolder : vscode.ConfigurationTarget.Global,
    );
  return picked;
}
