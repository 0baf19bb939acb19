// Checks a parsed project config against its JSON Schema (config-schema.ts) by hand: the schema is
// small, and loading a general validator slowed every configured review (test/bench/README.md). A test keeps the
// two in agreement (project-config.test.ts runs Ajv on the shipped schema beside this).
import { CONFIG_SCHEMA, CONFIGURABLE_RULES, OVERRIDE_KEYS, RULE_SETTINGS } from './config-schema.ts';

export interface ConfigProblem {
  /** Where in the document: keys and list indexes. */
  path: string[];
  /** The unknown key of the mapping at `path`, when that is the problem (its line is the key's). */
  key?: string;
  message: string;
}

const TOP_LEVEL_KEYS = Object.keys(CONFIG_SCHEMA['properties'] as object);
const RULE_IDS = new Set(CONFIGURABLE_RULES.map((rule) => rule.id));
const SETTINGS: ReadonlySet<unknown> = new Set(RULE_SETTINGS);

/** The problem to report, or undefined for a valid config: an unknown key first (a misspelt key is also what is missing). */
export function checkConfig(value: unknown): ConfigProblem | undefined {
  const problems: ConfigProblem[] = [];
  if (!isMapping(value))
    return { path: [], message: 'the file must be a mapping of keys (rules, ignore), not a list or a single value.' };
  unknownKeys(
    value,
    [],
    TOP_LEVEL_KEYS,
    (key) => `unknown key "${key}". Valid keys: ${TOP_LEVEL_KEYS.join(', ')}.`,
    problems,
  );
  if ('$schema' in value && typeof value['$schema'] !== 'string') problems.push(typeProblem(['$schema'], 'a string'));
  if ('rules' in value) checkRules(value['rules'], ['rules'], problems);
  if ('ignore' in value) checkPatterns(value['ignore'], ['ignore'], problems);
  if ('overrides' in value) checkOverrides(value['overrides'], problems);
  if ('suppressions' in value) checkSuppressions(value['suppressions'], problems);
  if ('fold' in value && !(Number.isSafeInteger(value['fold']) && (value['fold'] as number) >= 0))
    problems.push(typeProblem(['fold'], 'a whole number, 0 or more'));
  return problems.find((problem) => problem.key !== undefined) ?? problems[0];
}

const SUPPRESSION_KEYS = ['require_reason', 'other_tools'];

function checkSuppressions(suppressions: unknown, problems: ConfigProblem[]): void {
  if (!isMapping(suppressions)) {
    problems.push(typeProblem(['suppressions'], 'a mapping (require_reason, other_tools)'));
    return;
  }
  unknownKeys(
    suppressions,
    ['suppressions'],
    SUPPRESSION_KEYS,
    (key) => `unknown key "${key}" in suppressions. Valid keys: ${SUPPRESSION_KEYS.join(', ')}.`,
    problems,
  );
  for (const key of SUPPRESSION_KEYS)
    if (key in suppressions && typeof suppressions[key] !== 'boolean')
      problems.push(typeProblem(['suppressions', key], 'true or false'));
}

function checkOverrides(overrides: unknown, problems: ConfigProblem[]): void {
  if (!Array.isArray(overrides)) {
    problems.push(typeProblem(['overrides'], 'a list'));
    return;
  }
  for (const [i, override] of (overrides as unknown[]).entries()) {
    const path = ['overrides', String(i)];
    if (!isMapping(override)) {
      problems.push(typeProblem(path, 'a mapping'));
      continue;
    }
    unknownKeys(
      override,
      path,
      OVERRIDE_KEYS,
      (key) => `unknown key "${key}" in ${where(path)}. Valid keys: ${OVERRIDE_KEYS.join(', ')}.`,
      problems,
    );
    const missing = OVERRIDE_KEYS.filter((key) => !(key in override));
    if (missing.length > 0) problems.push({ path, message: `${where(path)} needs ${missing.join(' and ')}.` });
    if ('files' in override) {
      checkPatterns(override['files'], [...path, 'files'], problems);
      if (Array.isArray(override['files']) && override['files'].length === 0)
        problems.push({ path: [...path, 'files'], message: `${where([...path, 'files'])} must not be empty.` });
    }
    if ('rules' in override) checkRules(override['rules'], [...path, 'rules'], problems);
  }
}

function checkRules(rules: unknown, path: string[], problems: ConfigProblem[]): void {
  if (!isMapping(rules)) {
    problems.push(typeProblem(path, 'a mapping'));
    return;
  }
  const ids = [...RULE_IDS].sort();
  unknownKeys(rules, path, ids, (key) => `unknown rule "${key}". Valid rule ids: ${ids.join(', ')}.`, problems);
  for (const [id, setting] of Object.entries(rules))
    if (RULE_IDS.has(id) && !SETTINGS.has(setting))
      problems.push({
        path: [...path, id],
        message: `${where([...path, id])} must be one of ${RULE_SETTINGS.join(', ')}.`,
      });
}

function checkPatterns(patterns: unknown, path: string[], problems: ConfigProblem[]): void {
  if (!Array.isArray(patterns)) {
    problems.push(typeProblem(path, 'a list'));
    return;
  }
  for (const [i, pattern] of (patterns as unknown[]).entries()) {
    const at = [...path, String(i)];
    if (typeof pattern !== 'string') problems.push(typeProblem(at, 'a string'));
    else if (pattern === '') problems.push({ path: at, message: `${where(at)} must not be empty.` });
  }
}

function unknownKeys(
  mapping: Record<string, unknown>,
  path: string[],
  known: readonly string[],
  message: (key: string) => string,
  problems: ConfigProblem[],
): void {
  for (const key of Object.keys(mapping)) if (!known.includes(key)) problems.push({ path, key, message: message(key) });
}

const typeProblem = (path: string[], expected: string): ConfigProblem => ({
  path,
  message: `${where(path)} must be ${expected}.`,
});

/** `overrides[0].rules.secret`, as people write it. */
const where = (path: string[]) => path.map((p, i) => (/^\d+$/.test(p) ? `[${p}]` : i === 0 ? p : `.${p}`)).join('');

const isMapping = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
