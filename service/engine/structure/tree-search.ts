// A parsed hunk searched for its rules' sinks and queries, and each hit placed on the added line it
// belongs to (the sink's, else the one that built its value); nothing on a statement the diff did
// not touch.
import type { Node, Query } from '@vscode/tree-sitter-wasm';
import type { RawFinding } from '../finish.ts';
import type { LineRule } from '../rules/rule.ts';
import type { LoadedGrammar } from './grammars.ts';
import type { HunkSource } from './hunk-source.ts';
import type { TreeLanguage } from './languages.ts';
import { PROFILES } from './languages.ts';
import type { SyntaxHit } from './sinks.ts';
import { dangerous, sinkHits } from './sinks.ts';
import { Bindings } from './string-parts.ts';

/** A hunk's source and the rules that read it. */
export interface SearchedHunk extends HunkSource {
  rules: readonly LineRule[];
}

/** The rules' findings in one parsed hunk, into `raw`. */
export function findInTree(
  root: Node,
  path: string,
  language: TreeLanguage,
  hunk: SearchedHunk,
  grammar: LoadedGrammar,
  raw: RawFinding[],
): void {
  const profile = PROFILES[language];
  const calls = query(grammar, profile.calls)
    .captures(root)
    .filter((capture) => capture.name === 'call')
    .map((capture) => capture.node);
  const bindings = new Bindings(root, query(grammar, profile.assignments), profile);
  for (const rule of hunk.rules) {
    const syntax = rule.syntax?.languages[language];
    if (!syntax) continue;
    const hits: SyntaxHit[] = syntax.sinks ? sinkHits(calls, syntax.sinks, profile, bindings, root) : [];
    if (syntax.query)
      for (const match of query(grammar, syntax.query).matches(root)) {
        const finding = match.captures.find((capture) => capture.name === 'finding')?.node;
        if (!finding) continue;
        const value = match.captures.find((capture) => capture.name === 'value')?.node;
        const builtAt = value
          ? dangerous(syntax.queryDanger ?? 'not-constant', value, finding, profile, bindings, root)
          : [];
        if (builtAt)
          hits.push({ rows: [finding.startPosition.row, ...builtAt], node: finding, message: syntax.queryMessage });
      }
    for (const hit of hits) {
      const finding = placed(hit, hunk, rule, path);
      if (finding) raw.push(finding);
    }
  }
}

/** The finding on the first of the hit's rows the diff added, or null. */
export function placed(hit: SyntaxHit, hunk: HunkSource, rule: LineRule, path: string): RawFinding | null {
  const row = hit.rows.map((r) => r - hunk.preludeRows).find((r) => r >= 0 && hunk.added[r] === 1);
  if (row === undefined) return null;
  const text = hunk.rows[row]!;
  const start = hit.node.startPosition;
  const onNodeRow = start.row - hunk.preludeRows === row;
  const column = onNodeRow ? start.column + hunk.dedent : text.search(/\S|$/);
  const end = hit.node.endPosition;
  // 0-based, exclusive: the node's end on its row, else the row's
  const endColumn = onNodeRow && end.row === start.row ? end.column + hunk.dedent : text.trimEnd().length;
  return {
    rule,
    file: path,
    line: hunk.lines[row]!,
    column: column + 1,
    endColumn: Math.max(endColumn, column + 1) + 1,
    message: hit.message ?? rule.message,
    text,
    above: row > 0 ? hunk.rows[row - 1] : undefined,
  };
}

const queries = new WeakMap<LoadedGrammar, Map<string, Query>>();

/** The query compiled for the grammar, once. */
function query(grammar: LoadedGrammar, source: string): Query {
  let compiled = queries.get(grammar);
  if (!compiled) queries.set(grammar, (compiled = new Map()));
  let q = compiled.get(source);
  if (!q) compiled.set(source, (q = new grammar.treeSitter.Query(grammar.language, source)));
  return q;
}
