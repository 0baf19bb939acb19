// What `diff-review rules` prints: a table of the rules, or one rule's page; JSON in the API's
// shapes (GET /v1/rules, GET /v1/rules/{id}).
import { distance } from 'fastest-levenshtein';
import { ruleDetailOf, ruleDocOf, ruleDocs } from '../engine/rule-pages.ts';
import { EXIT } from './exit-codes.ts';

export function showRules(id: string | undefined, format: 'text' | 'json'): number {
  const docs = ruleDocs().sort((a, b) => a.id.localeCompare(b.id));
  if (id === undefined) {
    const rules = docs.map(({ id, severity, summary }) => ({ id, severity, summary }));
    if (format === 'json') process.stdout.write(`${JSON.stringify({ rules }, null, 2)}\n`);
    else {
      const width = Math.max(...rules.map((rule) => rule.id.length));
      for (const rule of rules)
        process.stdout.write(`${rule.id.padEnd(width)}  ${rule.severity.padEnd(7)}  ${rule.summary}\n`);
      process.stdout.write(
        `\n${rules.length} rules. \`diff-review rules <rule-id>\` shows one rule's documentation.\n`,
      );
    }
    return 0;
  }
  const doc = ruleDocOf(id);
  if (!doc) {
    const near = closeMatches(
      id,
      docs.map((d) => d.id),
    );
    const hint = near.length ? ` Did you mean ${near.join(', ')}?` : '';
    process.stderr.write(`diff-review: no rule "${id}".${hint} \`diff-review rules\` lists them all.\n`);
    return EXIT.usage;
  }
  const detail = ruleDetailOf(doc);
  process.stdout.write(format === 'json' ? `${JSON.stringify(detail, null, 2)}\n` : detail.markdown);
  return 0;
}

/**
 * Ids within a typo or two of the asked one (fastest-levenshtein), or that contain it, or share one
 * of its words (`debugger` → `no-debugger`).
 */
function closeMatches(asked: string, ids: readonly string[]): string[] {
  const wanted = asked.toLowerCase();
  const words = new Set(wanted.split(/[^a-z0-9]+/).filter((word) => word.length >= 3));
  const near = (id: string) =>
    distance(id, wanted) <= Math.max(1, Math.floor(wanted.length / 4)) ||
    id.includes(wanted) ||
    wanted.includes(id) ||
    id.split('-').some((word) => words.has(word) || [...words].some((w) => w.length >= 5 && distance(w, word) <= 1));
  return ids.filter(near).slice(0, 5);
}
