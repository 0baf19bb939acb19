// The README's "Suppressing a finding" examples stay true: each block (its first line a comment
// naming the file) fires without its diff-review-ignore comment and is silent with it.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { reviewDiff } from '../../../service/engine/index.ts';
import { newFileDiff } from './review-helpers.ts';

const readme = readFileSync('README.md', 'utf8');
const section = readme.slice(readme.indexOf('## Suppressing a finding'), readme.indexOf('## The API in brief'));
const examples = [...section.matchAll(/```\w+\n([\s\S]*?)```/g)].map((m) => {
  const [first, ...lines] = m[1]!.trimEnd().split('\n');
  return { path: first!.replace(/^(\/\/|#|--)\s*/, ''), lines };
});

/** The lines without their diff-review-ignore comments (a line that was only that comment goes). */
function withoutSuppression(lines: string[]): string[] {
  return lines
    .filter((line) => !/^\s*(\/\/|#|--)\s*diff-review-ignore/.test(line))
    .map((line) => line.replace(/\s*(\/\/|#|--)\s*diff-review-ignore.*$/, ''));
}

describe("the README's suppression examples", () => {
  it('there are some, each naming its file', () => {
    expect(examples.length).toBeGreaterThanOrEqual(4);
    for (const { path } of examples) expect(path).toMatch(/^[\w./-]+\.\w+$/);
  });

  it.each(examples.map((e) => [e.path, e] as const))(
    '%s: fires without the comment, silent with it',
    async (_path, e) => {
      const fired = await reviewDiff(newFileDiff(e.path, withoutSuppression(e.lines)));
      expect(fired.findings.length, 'the example finds something once its comment is gone').toBeGreaterThan(0);
      const kept = await reviewDiff(newFileDiff(e.path, e.lines));
      expect(kept.findings.map((f) => `${f.rule_id}: ${f.message}`)).toEqual([]);
    },
  );
});
