// "Turn off <rule> for this repository": `rules.<id>: off` in the repository's .diff-review.yml
// (made when there is none), edited through yaml's Document API so that its comments and layout
// stay. Plain data (no vscode import), tested under vitest.
import { isMap, isScalar, parseDocument } from 'yaml';
import { CONFIGURABLE_RULES } from '../../service/project-config/config-schema.ts';

/** Whether a rule id may be set in a config file (the truncation notice, or another version's rule, may not). */
export const isConfigurableRule = (ruleId: string): boolean => CONFIGURABLE_RULES.some((rule) => rule.id === ruleId);

/**
 * The config file's text with `ruleId` off. `text` undefined: a new file. `json`: the file is
 * .diff-review.json (written back as JSON). Throws when the file is not a mapping.
 */
export function withRuleOff(text: string | undefined, ruleId: string, json = false): string {
  if (json) {
    const value = text === undefined || text.trim() === '' ? {} : (JSON.parse(text) as Record<string, unknown>);
    if (typeof value !== 'object' || value === null || Array.isArray(value))
      throw new Error('.diff-review.json must hold an object.');
    const rules = (value['rules'] ?? {}) as Record<string, unknown>;
    return `${JSON.stringify({ ...value, rules: { ...rules, [ruleId]: 'off' } }, null, 2)}\n`;
  }
  const document = parseDocument(text ?? '');
  if (document.errors.length > 0) throw new Error(`.diff-review.yml cannot be read: ${document.errors[0]!.message}`);
  if (document.contents !== null && !isMap(document.contents))
    throw new Error('.diff-review.yml must be a mapping of keys (rules, ignore).');
  const rules = document.get('rules', true);
  if (isScalar(rules) && rules.value === null)
    document.delete('rules'); // `rules:` with nothing under it
  else if (rules !== undefined && rules !== null && !isMap(rules))
    throw new Error('.diff-review.yml: rules must be a mapping.');
  document.setIn(['rules', ruleId], 'off');
  return document.toString();
}
