// Rule documentation: every rule has it, its examples do what they say (the engine reports the
// one and not the other), and docs/rules/ holds exactly the generated pages. To regenerate them:
// UPDATE_RULE_DOCS=1 npx vitest run test/service/engine/rule-docs.test.ts
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { TRUNCATED_RULE_ID } from '../../../service/engine/finish.ts';
import { ruleDocs, rulePage, rulesIndexPage } from '../../../service/engine/rule-pages.ts';
import { findings } from './review-helpers.ts';

const DOCS = new URL('../../../docs/rules/', import.meta.url).pathname;
const docs = ruleDocs();

function generatedPages(): Map<string, string> {
  return new Map([['README.md', rulesIndexPage(docs)], ...docs.map((doc) => [`${doc.id}.md`, rulePage(doc)] as const)]);
}

if (process.env.UPDATE_RULE_DOCS) {
  rmSync(DOCS, { recursive: true, force: true });
  mkdirSync(DOCS, { recursive: true });
  for (const [name, text] of generatedPages()) writeFileSync(join(DOCS, name), text);
}

describe('rule documentation', () => {
  it('has why, an example that fires and one that does not, for every rule', () => {
    for (const doc of docs) {
      if (doc.id === TRUNCATED_RULE_ID) continue;
      expect(doc.why, doc.id).toBeTruthy();
      expect(doc.fires, doc.id).toBeDefined();
      expect(doc.passes, doc.id).toBeDefined();
    }
  });

  it.each(docs.filter((doc) => doc.fires).map((doc) => [doc.id, doc] as const))(
    '%s: the examples do what they say',
    async (id, doc) => {
      const fired = await findings(doc.fires!.path, [...doc.fires!.lines], doc.config);
      expect(
        fired.map((f) => f.rule_id),
        'the example that fires',
      ).toContain(id);
      const passed = await findings(doc.passes!.path, [...doc.passes!.lines], doc.config);
      expect(
        passed.map((f) => f.rule_id),
        'the example that does not fire',
      ).not.toContain(id);
    },
  );

  it('docs/rules/ holds exactly the generated pages (UPDATE_RULE_DOCS=1 regenerates them)', () => {
    const pages = generatedPages();
    expect(readdirSync(DOCS).sort()).toEqual([...pages.keys()].sort());
    for (const [name, text] of pages) expect(readFileSync(join(DOCS, name), 'utf8'), name).toBe(text);
  });
});
