// The token commands: Set API Token and Sign Out, for the configured service (or the bundled one).
import * as vscode from 'vscode';
import { COMMANDS } from './command-ids.ts';
import { serviceLabel, type ServiceSession } from './session.ts';
import { SETTING } from './failure-report.ts';
import { serviceUrlProblem } from './service-url.ts';
import { openSetting, readSettings } from './settings.ts';

export function registerTokenCommands(session: ServiceSession): vscode.Disposable[] {
  return [
    vscode.commands.registerCommand(COMMANDS.setToken, (token?: unknown) => setToken(session, token)),
    vscode.commands.registerCommand(COMMANDS.signOut, () => signOut(session)),
  ];
}

/** Stores a token: the argument (from scripts and tests, stored quietly), else one the user pastes. */
async function setToken(session: ServiceSession, token?: unknown): Promise<boolean> {
  const { serviceUrl } = readSettings();
  // A token kept under a URL that is not one would never be used.
  const problem = serviceUrlProblem(serviceUrl);
  if (problem) {
    void vscode.window
      .showErrorMessage(`Diff Review: ${problem} No token was stored.`, 'Open Settings')
      .then((action) => action && openSetting(SETTING.serviceUrl));
    return false;
  }
  const target = serviceLabel(serviceUrl);
  const value =
    typeof token === 'string'
      ? token
      : await vscode.window.showInputBox({
          title: 'Diff Review: Set API Token',
          prompt: `A review API token (drv_…) for ${target}. It is kept in VS Code's secret storage.`,
          password: true,
          ignoreFocusOut: true,
          validateInput: (text) =>
            text.trim() === '' ? 'Paste a token.' : /\s/.test(text.trim()) ? 'A token has no spaces.' : undefined,
        });
  if (value === undefined || value.trim() === '') return false;
  await session.setToken(serviceUrl, value.trim());
  if (typeof token !== 'string')
    void vscode.window.showInformationMessage(`Diff Review: the API token for ${target} is stored.`);
  return true;
}

async function signOut(session: ServiceSession): Promise<void> {
  const { serviceUrl } = readSettings();
  const had = await session.signOut(serviceUrl);
  const target = serviceLabel(serviceUrl);
  void vscode.window.showInformationMessage(
    had ? `Diff Review: signed out of ${target}.` : `Diff Review: no token was stored for ${target}.`,
  );
}
