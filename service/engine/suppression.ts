// Inline suppression: `diff-review-ignore` (every rule) or `diff-review-ignore rule-a, rule-b`,
// in a comment on the line itself or on the line above.

const DIRECTIVE =
  /(?:\/\/|\/\*|#|<!--|--|;|\*)\s*diff-review-ignore(?![\w-])((?:[ \t]+[a-z][\w-]*(?:[ \t]*,[ \t]*[a-z][\w-]*)*)?)/;

/** The rule ids a line's directive names: null when it has none, [] for "every rule". */
export function suppressedRules(text: string): string[] | null {
  if (!text.includes('diff-review-ignore')) return null;
  const m = DIRECTIVE.exec(text);
  if (!m) return null;
  const list = m[1]!.trim();
  return list === '' ? [] : list.split(/\s*,\s*/);
}

export function isSuppressed(ruleId: string, line: string, lineAbove: string | undefined): boolean {
  for (const text of [line, lineAbove]) {
    if (text === undefined) continue;
    const rules = suppressedRules(text);
    if (rules && (rules.length === 0 || rules.includes(ruleId))) return true;
  }
  return false;
}
