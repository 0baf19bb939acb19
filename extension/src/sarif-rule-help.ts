// The rules' documentation a review's SARIF carries (runs[].tool.driver.rules[].help.markdown):
// the service's own words for its rules, kept for "Show Rule Description". Plain data (no vscode).

/** Rule id → its Markdown page; anything unexpected in the log is skipped, never thrown. */
export function ruleHelpFromSarif(sarif: unknown): Map<string, string> {
  const help = new Map<string, string>();
  const runs = (sarif as { runs?: unknown } | undefined)?.runs;
  for (const run of Array.isArray(runs) ? runs : []) {
    const rules = (run as { tool?: { driver?: { rules?: unknown } } }).tool?.driver?.rules;
    for (const rule of Array.isArray(rules) ? rules : []) {
      const { id, help: text } = rule as { id?: unknown; help?: { markdown?: unknown } };
      if (typeof id === 'string' && typeof text?.markdown === 'string' && text.markdown.trim() !== '')
        help.set(id, text.markdown);
    }
  }
  return help;
}
