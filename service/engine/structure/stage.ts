// The structural stage: the hunks of files in a language we parse, whose text has a keyword of the
// file's syntax rules, are parsed by tree-sitter and searched for the rules' sinks and queries.
// A finding is placed on an added line (the sink's, else the one that built its value); nothing is
// reported on a statement the diff did not touch. A grammar that cannot be loaded, or a hunk that
// takes too long to parse, leaves the file not analysed (named in the result), never the review.
import type { Node, Query } from '@vscode/tree-sitter-wasm';
import type { DiffIndex, IndexedFile } from '../diff/line-table.ts';
import { ADDED } from '../diff/line-table.ts';
import type { RawFinding } from '../finish.ts';
import type { FilePlan } from '../plan.ts';
import { isDockerfile } from '../rules/files.ts';
import type { LineRule } from '../rules/rule.ts';
import type { LoadedGrammar } from './grammars.ts';
import { grammarFor } from './grammars.ts';
import type { HunkSource } from './hunk-source.ts';
import { hunkSource, MAX_PARSED_ROW } from './hunk-source.ts';
import type { SyntaxLanguage, TreeLanguage } from './languages.ts';
import { PROFILES } from './languages.ts';
import type { SyntaxHit } from './sinks.ts';
import { dangerous, sinkHits } from './sinks.ts';
import { Bindings } from './string-parts.ts';
import type { YamlDocument, YamlFound } from './yaml-tree.ts';

/** The hunks of one file the stage parses, each with the rules that read it. */
export interface SyntaxTarget {
  path: string;
  language: SyntaxLanguage;
  hunks: TargetHunk[];
  /** YAML: the new side of every hunk of the file, for facts about the whole file (a workflow's trigger). */
  fileRows?: string[][];
}

interface TargetHunk extends HunkSource {
  rules: readonly LineRule[];
  /** A Dockerfile: what is parsed is the shell its instructions run (dockerfile-shell.ts). */
  dockerfile: boolean;
}

/** A file the stage could not analyse, and why (the review goes on without it). */
export interface NotAnalysed {
  path: string;
  reason: string;
}

/** A hunk taking longer than this to parse is left: far past what a megabyte of code takes (test/bench/README.md). */
const HUNK_PARSE_BUDGET_MS = 5000;
/** Parsing stops for the rest of a review after this much time in all (its other stages go on). */
const REVIEW_PARSE_BUDGET_MS = 15_000;

/**
 * The file's hunks that the plan's syntax rules read: those with an added line and a keyword of
 * one of the rules (in the language). Each hunk keeps the rules whose keywords it has: the
 * others are not run on it, and a diff with none is not parsed at all (no grammar is loaded).
 */
export function syntaxTarget(diff: DiffIndex, file: IndexedFile, path: string, plan: FilePlan): SyntaxTarget | null {
  const language = plan.language;
  if (!language || plan.syntax.length === 0) return null;
  // YAML's documents are made from the hunk's rows as they are (yaml-documents.ts)
  const profile = language === 'yaml' ? {} : PROFILES[language];
  const hunks: SyntaxTarget['hunks'] = [];
  const { start, end, kind } = diff.lines;
  for (const hunk of file.hunks) {
    let added = false;
    for (let k = hunk.first; k < hunk.first + hunk.count && !added; k++) added = kind[k] === ADDED;
    if (!added) continue;
    const text = diff.text.slice(start[hunk.first]!, end[hunk.first + hunk.count - 1]!);
    const rules = plan.syntax.filter((rule) => readsHunk(rule, language, text));
    if (rules.length > 0) hunks.push({ ...hunkSource(diff, hunk, profile), rules, dockerfile: isDockerfile(path) });
  }
  if (hunks.length === 0) return null;
  if (language !== 'yaml') return { path, language, hunks };
  const fileRows = file.hunks.map((hunk) => hunkSource(diff, hunk, {}).text.split('\n'));
  return { path, language, hunks, fileRows };
}

const hunkTests = new WeakMap<LineRule, Map<SyntaxLanguage, (text: string) => boolean>>();

/**
 * Whether a hunk's text has one of the rule's keywords or its language's (a keyword that begins
 * with a letter begins a word: `Function(` is not in `isFunction(`), or matches its hunkPattern.
 */
function readsHunk(rule: LineRule, language: SyntaxLanguage, text: string): boolean {
  let byLanguage = hunkTests.get(rule);
  if (!byLanguage) hunkTests.set(rule, (byLanguage = new Map()));
  let test = byLanguage.get(language);
  if (!test) {
    const words = [...(rule.syntax?.keywords ?? []), ...(rule.syntax?.languages[language]?.keywords ?? [])];
    const keywords = new RegExp(
      words
        .map((word) => (/^[\w$]/.test(word) ? '(?<![\\w$])' : '') + word.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
        .join('|'),
    );
    const pattern = rule.syntax?.hunkPattern;
    test = (hunk) => keywords.test(hunk) || pattern?.test(hunk) === true;
    byLanguage.set(language, test);
  }
  return test(text);
}

export interface SyntaxOutcome {
  notAnalysed: NotAnalysed[];
  /** Time spent in tree-sitter's parser (for benchmarks and logs). */
  parseMs: number;
}

/** Parses the targets' hunks and runs their rules; findings go to `raw`. */
export async function reviewSyntax(
  targets: readonly SyntaxTarget[],
  raw: RawFinding[],
  check: () => void,
): Promise<SyntaxOutcome> {
  const notAnalysed: NotAnalysed[] = [];
  let parseMs = 0;
  const reviewDeadline = performance.now() + REVIEW_PARSE_BUDGET_MS;
  for (const target of targets) {
    check();
    if (target.language === 'yaml') {
      await reviewYaml(target, raw, notAnalysed);
      continue;
    }
    const language = target.language;
    let grammar: LoadedGrammar;
    try {
      grammar = await grammarFor(language);
    } catch (error) {
      notAnalysed.push({ path: target.path, reason: `the ${target.language} grammar did not load (${String(error)})` });
      continue;
    }
    const longRows = target.hunks.reduce((sum, hunk) => sum + hunk.longRows, 0);
    if (longRows > 0)
      notAnalysed.push({
        path: target.path,
        reason: `${longRows === 1 ? 'a line' : `${longRows} lines`} longer than ${MAX_PARSED_ROW.toLocaleString('en')} characters (minified or generated code) ${longRows === 1 ? 'was' : 'were'} not parsed`,
      });
    for (const hunk of target.hunks) {
      const started = performance.now();
      const deadline = Math.min(started + HUNK_PARSE_BUDGET_MS, reviewDeadline);
      // loaded with the first Dockerfile reviewed
      const text = hunk.dockerfile ? (await import('./dockerfile-shell.ts')).shellOfDockerfile(hunk.text) : hunk.text;
      const tree = grammar.parser.parse(text, null, { progressCallback: () => performance.now() > deadline });
      parseMs += performance.now() - started;
      if (!tree) {
        notAnalysed.push({ path: target.path, reason: 'parsing took longer than its time budget' });
        continue;
      }
      try {
        findInTree(tree.rootNode, target, language, hunk, grammar, raw);
      } catch (error) {
        // a query the grammar rejects is our bug: the file is named, the review goes on
        notAnalysed.push({ path: target.path, reason: `its syntax could not be searched (${String(error)})` });
      } finally {
        tree.delete();
      }
    }
  }
  return { notAnalysed, parseMs };
}

/**
 * A YAML file's hunks, parsed by the yaml package (loaded with the first one), and its rules'
 * findings placed as the tree-sitter stage places them.
 */
async function reviewYaml(target: SyntaxTarget, raw: RawFinding[], notAnalysed: NotAnalysed[]): Promise<void> {
  const { yamlDocuments } = await import('./yaml-documents.ts');
  let fileDocuments: YamlDocument[] | undefined;
  const file = () => (fileDocuments ??= (target.fileRows ?? []).flatMap((rows) => yamlDocuments(rows)));
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
  const kept: string[][] = rows.map((row) => row.split('').map((char) => (char === '\t' ? char : ' ')));
  for (const { start, end } of scripts)
    for (let row = start.row; row <= end.row && row < rows.length; row++) {
      const from = row === start.row ? start.column : 0;
      const to = row === end.row ? end.column : rows[row]!.length;
      for (let column = from; column < to; column++) kept[row]![column] = rows[row]![column]!;
    }
  let grammar: LoadedGrammar;
  try {
    grammar = await grammarFor('bash');
  } catch (error) {
    notAnalysed.push({ path: target.path, reason: `the bash grammar did not load (${String(error)})` });
    return;
  }
  const deadline = performance.now() + HUNK_PARSE_BUDGET_MS;
  const text = kept.map((chars) => chars.join('')).join('\n');
  const tree = grammar.parser.parse(text, null, { progressCallback: () => performance.now() > deadline });
  if (!tree) {
    notAnalysed.push({ path: target.path, reason: 'parsing took longer than its time budget' });
    return;
  }
  try {
    const rules = [...new Set(scripts.map((script) => script.rule))];
    findInTree(tree.rootNode, { ...target, language: 'bash' }, 'bash', { ...hunk, rules }, grammar, raw);
  } finally {
    tree.delete();
  }
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

/** Where each line of a text starts. */
function lineStartsOf(text: string): number[] {
  const starts = [0];
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) starts.push(i + 1);
  return starts;
}

/** A place in a YAML document as a row and column of the hunk; `starts`: its text's line starts. */
function positionOf(found: YamlFound, offset: number, starts: readonly number[]): { row: number; column: number } {
  // the last line that starts at or before the offset
  let low = 0;
  let high = starts.length - 1;
  while (low < high) {
    const middle = (low + high + 1) >> 1;
    if (starts[middle]! <= offset) low = middle;
    else high = middle - 1;
  }
  return { row: found.document.firstRow + low, column: offset - starts[low]! + found.document.dedent };
}

function findInTree(
  root: Node,
  target: SyntaxTarget,
  language: TreeLanguage,
  hunk: TargetHunk,
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
      const finding = placed(hit, hunk, rule, target.path);
      if (finding) raw.push(finding);
    }
  }
}

/** The finding on the first of the hit's rows the diff added, or null. */
function placed(hit: SyntaxHit, hunk: HunkSource, rule: LineRule, path: string): RawFinding | null {
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
