// The structural stage: the hunks of files in a language we parse, whose text has a keyword of the
// file's syntax rules, are parsed by tree-sitter and searched for the rules' sinks and queries
// (tree-search.ts); YAML files go to the yaml package instead (yaml-stage.ts). A grammar that
// cannot be loaded, or a hunk that takes too long to parse, leaves the file not analysed (named in
// the result), never the review.
import type { DiffIndex, IndexedFile } from '../diff/line-table.ts';
import { ADDED } from '../diff/line-table.ts';
import type { RawFinding } from '../finish.ts';
import type { FilePlan } from '../plan.ts';
import { isDockerfile } from '../rules/files.ts';
import type { LineRule } from '../rules/rule.ts';
import type { LoadedGrammar } from './grammars.ts';
import { grammarFor, HUNK_PARSE_BUDGET_MS } from './grammars.ts';
import { readsHunk } from './hunk-keywords.ts';
import type { HunkSource } from './hunk-source.ts';
import { hunkSource, MAX_PARSED_ROW } from './hunk-source.ts';
import type { SyntaxLanguage } from './languages.ts';
import { PROFILES } from './languages.ts';
import { findInTree } from './tree-search.ts';
import { reviewYaml } from './yaml-stage.ts';

/** The hunks of one file the stage parses, each with the rules that read it. */
export interface SyntaxTarget {
  path: string;
  language: SyntaxLanguage;
  hunks: TargetHunk[];
  /** YAML: the new side of every hunk of the file, for facts about the whole file (a workflow's trigger); made when asked. */
  fileRows?: () => string[][];
}

export interface TargetHunk extends HunkSource {
  rules: readonly LineRule[];
  /** A Dockerfile: what is parsed is the shell its instructions run (dockerfile-shell.ts). */
  dockerfile: boolean;
}

/** A file the stage could not analyse, and why (the review goes on without it). */
export interface NotAnalysed {
  path: string;
  reason: string;
}

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
  const fileRows = () => file.hunks.map((hunk) => hunkSource(diff, hunk, {}).text.split('\n'));
  return { path, language, hunks, fileRows };
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
        findInTree(tree.rootNode, target.path, language, hunk, grammar, raw);
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
