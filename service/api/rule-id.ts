// Every comment's message begins with its rule id (`no-debugger: Remove …`): the contract says so,
// and the clients read the id back from it (for the Problems panel's code, the dashboard's rule
// filter, a project's rule settings).

const RULE_PREFIX = /^([A-Za-z0-9@][\w@/.-]*): /;

/** `no-debugger: Remove …` → { ruleId: 'no-debugger', text: 'Remove …' }; a message without one → { text }. */
export function splitRuleId(message: string): { ruleId?: string; text: string } {
  const match = RULE_PREFIX.exec(message);
  return match ? { ruleId: match[1]!, text: message.slice(match[0].length) } : { text: message };
}
