// The extension's settings (package.json "contributes.configuration"), read in one place.
import * as vscode from 'vscode';
import type { Severity } from '../../service/api/schemas.ts';
import { RULE_SETTINGS, type RuleSetting } from '../../service/project-config/config-schema.ts';
import { DEFAULT_RUN_SETTINGS, type ReviewRunSettings } from './review-runner.ts';

export const SECTION = 'diffReview';

export type EditedLineBehavior = 'drop' | 'stale';

export interface Settings {
  /** Empty: the bundled service. */
  serviceUrl: string;
  minimumSeverity: Severity;
  requestTimeoutMs: number;
  reviewOnSave: boolean;
  editedLineBehavior: EditedLineBehavior;
  run: ReviewRunSettings;
}

const SEVERITIES: readonly Severity[] = ['error', 'warning', 'info'];

export function readSettings(scope?: vscode.ConfigurationScope): Settings {
  const config = vscode.workspace.getConfiguration(SECTION, scope);
  const severity = config.get<string>('minimumSeverity', 'info');
  // Set by the user: a renamed setting's old key still counts when the new one is not set.
  const setByUser = (key: string) => {
    const inspected = config.inspect(key);
    return inspected?.workspaceFolderValue ?? inspected?.workspaceValue ?? inspected?.globalValue;
  };
  const positive = (key: string, oldKey: string, fallback: number, minimum: number) => {
    const value = setByUser(key) ?? setByUser(oldKey) ?? fallback;
    return typeof value === 'number' && Number.isFinite(value) ? Math.max(minimum, value) : fallback;
  };
  return {
    serviceUrl: config.get<string>('serviceUrl', '').trim().replace(/\/+$/, ''),
    minimumSeverity: SEVERITIES.includes(severity as Severity) ? (severity as Severity) : 'info',
    requestTimeoutMs: positive('requestTimeout', 'requestTimeoutSeconds', 30, 1) * 1000,
    reviewOnSave: config.get<boolean>('reviewOnSave', false),
    editedLineBehavior: config.get<string>('editedLineBehavior', 'drop') === 'stale' ? 'stale' : 'drop',
    run: {
      ...DEFAULT_RUN_SETTINGS,
      baseBranch: config.get<string>('baseBranch', ''),
      includeUncommitted: config.get<boolean>('includeUncommittedChanges', false),
      pollIntervalMs: positive('pollInterval', 'pollIntervalMs', 1000, 100),
      rules: ruleSettingsOf(config.get<unknown>('rules')),
    },
  };
}

/** diffReview.rules, keeping only rule ids with a valid setting (the manifest's schema says which). */
function ruleSettingsOf(value: unknown): Record<string, RuleSetting> {
  if (typeof value !== 'object' || value === null) return {};
  return Object.fromEntries(
    Object.entries(value).filter(([, setting]) => RULE_SETTINGS.includes(setting as RuleSetting)),
  ) as Record<string, RuleSetting>;
}

/** The `git.path` setting of VS Code's git extension, when it names one executable. */
export function gitPath(): string | undefined {
  const value = vscode.workspace.getConfiguration('git').get<string | string[] | null>('path');
  const first = Array.isArray(value) ? value[0] : value;
  return typeof first === 'string' && first.trim() !== '' ? first : undefined;
}

/** Opens the Settings editor on one setting (`diffReview.serviceUrl`), or on all of the extension's. */
export function openSetting(id?: string): Thenable<unknown> {
  return vscode.commands.executeCommand(
    'workbench.action.openSettings',
    id ? `@id:${id}` : `@ext:diff-review.diff-review`,
  );
}
