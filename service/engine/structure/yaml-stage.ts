// The structural stage for YAML: a file's hunks parsed by the yaml package (loaded with the first
// one), each `---` document only when a rule's keyword is in it, its rules' findings placed as the
// tree-sitter stage places them; and the shell scripts CI configuration holds, parsed by the bash
// grammar where they stand.
import type { RawFinding } from '../finish.ts';
import { lineIndexAt, lineStartsOf } from '../line-starts.ts';
import type { LineRule } from '../rules/rule.ts';
import type { LoadedGrammar } from './grammars.ts';
import { grammarFor, HUNK_PARSE_BUDGET_MS } from './grammars.ts';
import { readsHunk } from './hunk-keywords.ts';
import type { NotAnalysed, SyntaxTarget, TargetHunk } from './stage.ts';
import { findInTree, placed } from './tree-search.ts';
import type { YamlDocument, YamlFound } from './yaml-tree.ts';

/**
 * A YAML file's hunks, parsed by the yaml package (loaded with the first one), and its rules'
 * findings placed as the tree-sitter stage places them.
 */
export async function reviewYaml(target: SyntaxTarget, raw: RawFinding[], notAnalysed: NotAnalysed[]): Promise<void> {
  const { yamlDocuments } = await import('./yaml-documents.ts');
  let fileDocuments: YamlDocument[] | undefined;
  const file = () => (fileDocuments ??= (target.fileRows?.() ?? []).flatMap((rows) => yamlDocuments(rows)));
  for (const hunk of target.hunks) {
    const rows = hunk.text.split('\n');
    // the documents of one piece share its text: its line starts are found once
    const starts = new Map<string, number[]>();
    // Each `---` document is parsed only when a rule of the hunk has a keyword in it: a megabyte
    // of manifests holds a few Secrets, and the yaml package reads ~2 MB/s (test/bench/README.md).
    const scripts: Script[] = [];
    for (const [first, end] of documentRuns(rows)) {
      const piece = rows.slice(first, end);
      const text = piece.join('\n');
      const rules = hunk.rules.filter((rule) => readsHunk(rule, 'yaml', text));
      if (rules.length === 0) continue;
      const documents = yamlDocuments(piece).map((document) => ({ ...document, firstRow: document.firstRow + first }));
      for (const rule of rules) {
        findInYaml(rule, documents, hunk, target, file, starts, raw);
        for (const found of rule.syntax?.languages.yaml?.scripts?.(documents, target.path) ?? []) {
          const lines = linesOf(found.document.text, starts);
          scripts.push({
            rule,
            start: positionOf(found, found.start, lines),
            end: positionOf(found, found.end, lines),
          });
        }
      }
    }
    if (scripts.length > 0) await reviewScripts(scripts, rows, hunk, target, raw, notAnalysed);
  }
}

/** A shell script in a YAML hunk, by rows and columns of the hunk, and the rule that reads it. */
interface Script {
  rule: LineRule;
  start: { row: number; column: number };
  end: { row: number; column: number };
}

/**
 * The scripts of a YAML hunk (a workflow's run:), parsed by the bash grammar where they stand: the
 * hunk's text with everything else blanked, so that rows and columns stay the hunk's. The rules
 * that asked run their bash syntax on it, as on a shell script.
 */
async function reviewScripts(
  scripts: readonly Script[],
  rows: readonly string[],
  hunk: TargetHunk,
  target: SyntaxTarget,
  raw: RawFinding[],
  notAnalysed: NotAnalysed[],
): Promise<void> {
  let grammar: LoadedGrammar;
  try {
    grammar = await grammarFor('bash');
  } catch (error) {
    notAnalysed.push({ path: target.path, reason: `the bash grammar did not load (${String(error)})` });
    return;
  }
  const deadline = performance.now() + HUNK_PARSE_BUDGET_MS;
  const text = onlyScripts(rows, scripts);
  const tree = grammar.parser.parse(text, null, { progressCallback: () => performance.now() > deadline });
  if (!tree) {
    notAnalysed.push({ path: target.path, reason: 'parsing took longer than its time budget' });
    return;
  }
  try {
    const rules = [...new Set(scripts.map((script) => script.rule))];
    findInTree(tree.rootNode, target.path, 'bash', { ...hunk, rules }, grammar, raw);
  } finally {
    tree.delete();
  }
}

/** The rows with only the scripts' text kept and every other character a space: rows and columns stay the hunk's. */
function onlyScripts(rows: readonly string[], scripts: readonly Script[]): string {
  const kept = rows.map((row) => ' '.repeat(row.length));
  for (const { start, end } of scripts)
    for (let row = start.row; row <= end.row && row < rows.length; row++) {
      const from = row === start.row ? start.column : 0;
      const to = row === end.row ? end.column : rows[row]!.length;
      kept[row] = kept[row]!.slice(0, from) + rows[row]!.slice(from, to) + kept[row]!.slice(to);
    }
  return kept.join('\n');
}

/** The line starts of a piece's text, found once per text. */
function linesOf(text: string, starts: Map<string, number[]>): number[] {
  let lines = starts.get(text);
  if (!lines) starts.set(text, (lines = lineStartsOf(text)));
  return lines;
}

/** The `---`-separated runs of a hunk's rows, as [first, end) (a marker starts its run). */
function documentRuns(rows: readonly string[]): [number, number][] {
  const runs: [number, number][] = [];
  let first = 0;
  rows.forEach((row, i) => {
    if (i > first && /^---(?:\s|$)/.test(row)) {
      runs.push([first, i]);
      first = i;
    }
  });
  runs.push([first, rows.length]);
  return runs;
}

/** One rule's findings in a piece's documents, placed as the tree-sitter stage places them. */
function findInYaml(
  rule: LineRule,
  documents: readonly YamlDocument[],
  hunk: TargetHunk,
  target: SyntaxTarget,
  file: () => readonly YamlDocument[],
  starts: Map<string, number[]>,
  raw: RawFinding[],
): void {
  for (const found of rule.syntax?.languages.yaml?.yaml?.(documents, target.path, file) ?? []) {
    const lines = linesOf(found.document.text, starts);
    const node = {
      startPosition: positionOf(found, found.start, lines),
      endPosition: positionOf(found, found.end, lines),
    };
    const hit = { rows: [node.startPosition.row], node, ...(found.message ? { message: found.message } : {}) };
    const finding = placed(hit, hunk, rule, target.path);
    if (finding && found.secret)
      finding.secret = { start: finding.column! - 1, end: Math.min(finding.endColumn! - 1, finding.text.length) };
    if (finding) raw.push(finding);
  }
}

/** A place in a YAML document as a row and column of the hunk; `starts`: its text's line starts. */
function positionOf(found: YamlFound, offset: number, starts: readonly number[]): { row: number; column: number } {
  const row = lineIndexAt(starts, offset);
  return { row: found.document.firstRow + row, column: offset - starts[row]! + found.document.dedent };
}
