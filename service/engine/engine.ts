// The review pipeline over plain values, as stages: parse the diff → plan each file's rules →
// file rules → candidate lines (keyword pre-filter) → line review → structural stage (the hunks of
// files in languages we parse, by tree-sitter: structure/) → scan rules (secretlint) → finish
// (dedupe, suppress, fingerprint, cap).
//
// Cost: the diff is parsed into offsets (no object per line), the hunks of all files are read once
// by one regular expression of the rules' keywords (about one line in a hundred has a keyword),
// and only those lines are lexed and checked, by the rules whose keywords they contain. See
// test/bench/engine.ts.
import type { DiffIndex, IndexedFile, LineTable } from './diff/line-table.ts';
import { ADDED } from './diff/line-table.ts';
import { indexUnifiedDiff } from './diff/parse.ts';
import { candidateLines, MatcherCache } from './candidates.ts';
import type { RawFinding } from './finish.ts';
import { finish } from './finish.ts';
import type { ScanInput } from './line-review.ts';
import { lineAbove, lineText, reviewLines } from './line-review.ts';
import type { ActiveRules, FilePlan } from './plan.ts';
import { activateRules, Planner } from './plan.ts';
import { reviewedFile } from './reviewed-file.ts';
import type { SyntaxTarget } from './structure/stage.ts';
import { reviewSyntax, syntaxTarget } from './structure/stage.ts';
import { todayUtc } from './suppression.ts';
import { ALL_RULES, concernOf } from './rules/index.ts';
import type { Rule, ScanRule } from './rules/rule.ts';
import type { EngineConfig, ReviewResult } from './types.ts';
import { ReviewStoppedError } from './types.ts';

export interface EngineOptions {
  /** The rules to run (default: every rule of the engine). */
  rules?: readonly Rule[];
  /**
   * false: no keyword pre-filter; every rule reads every added line and secretlint every added
   * line. The reference the pre-filter is tested against; slow.
   */
  prefilter?: boolean;
}

/** Reviews diffs under one configuration. Build one and keep it: its plans, keyword matchers and tables are reused. */
export interface Engine {
  /** Rejects with InvalidDiffError when the text is not a unified diff; a diff that adds no lines has no findings. */
  review(diff: string, control?: ReviewControl): Promise<ReviewResult>;
}

export interface ReviewControl {
  /**
   * Asked between stages and files; when it says true the review ends with ReviewStoppedError.
   * Lets a worker thread stop on its own instead of being terminated (see service/jobs/in-process-runner.ts).
   */
  stopped?: () => boolean;
  /** Filled in by the review: time spent in tree-sitter's parser (benchmarks). */
  timings?: { parseMs: number };
}

/** Tables larger than this (in lines) are not kept for reuse. */
const MAX_SPARE_LINES = 1 << 20;

export function createEngine(config?: EngineConfig, options?: EngineOptions): Engine {
  const rules = activateRules(options?.rules ?? ALL_RULES, config);
  const prefilter = options?.prefilter ?? true;
  const planner = new Planner(rules, prefilter);
  const matchers = new MatcherCache();
  /**
   * Line tables of earlier reviews: a big diff's table is a large set of typed arrays, and allocating
   * it for every review cost as much as filling it (test/bench/README.md). A table returns here as soon as the
   * synchronous pass is done (concurrent reviews each take their own).
   */
  const spareTables: LineTable[] = [];

  return {
    async review(text, control) {
      const check = () => {
        if (control?.stopped?.()) throw new ReviewStoppedError();
      };
      const spare = spareTables.pop();
      let collected: Collected;
      try {
        const diff = indexUnifiedDiff(text, spare);
        check();
        collected = collect(diff, rules, planner, matchers, prefilter, check);
        if (diff.lines.start.length <= MAX_SPARE_LINES) spareTables.push(diff.lines);
      } catch (error) {
        if (spare) spareTables.push(spare);
        throw error;
      }
      check();
      const { notAnalysed, parseMs } =
        collected.syntax.length > 0
          ? await reviewSyntax(collected.syntax, collected.raw, check)
          : { notAnalysed: [], parseMs: 0 };
      check();
      await runScanRules(collected);
      check();
      const suppression = {
        today: config?.today ?? todayUtc(),
        otherTools: config?.suppressions?.otherTools ?? true,
        concernOf,
      };
      const { findings, suppressed } = finish(collected.raw, rules.severity, config?.maxFindings, suppression);
      if (control?.timings) control.timings.parseMs = parseMs;
      return { findings, suppressed, stats: collected.stats, ...(notAnalysed.length > 0 ? { notAnalysed } : {}) };
    },
  };
}

/** What the synchronous pass over the diff leaves: plain values only, no reference to the diff's line table. */
interface Collected {
  raw: RawFinding[];
  /** Per scan rule: the lines it will scan, with what a finding on them needs. */
  scanInputs: Map<ScanRule, ScanInput[]>;
  /** The hunks the structural stage parses (copied out of the diff). */
  syntax: SyntaxTarget[];
  stats: ReviewResult['stats'];
}

/** Runs the file and line rules, and gathers the lines of the scan rules. */
function collect(
  diff: DiffIndex,
  rules: ActiveRules,
  planner: Planner,
  matchers: MatcherCache,
  prefilter: boolean,
  check: () => void,
): Collected {
  const raw: RawFinding[] = [];
  const scanInputs = new Map<ScanRule, ScanInput[]>(rules.scan.map((rule) => [rule, []]));
  let addedLines = 0;
  const reviewed: { file: IndexedFile; path: string; plan: FilePlan }[] = [];
  const syntax: SyntaxTarget[] = [];

  const views = rules.file.length > 0 ? diff.files.map((file) => reviewedFile(diff, file)) : [];
  for (const [i, file] of diff.files.entries()) {
    check();
    addedLines += file.addedLines;
    const path = file.newPath;
    if (path === null || file.addedLines === 0) continue;
    for (const rule of rules.file) {
      const found = rule.check(views[i]!, views);
      if (found) {
        const k = lineIndexOf(diff, file, found.line);
        const text = k < 0 ? '' : lineText(diff, k);
        const above = k < 0 ? undefined : lineAbove(diff, file, k);
        raw.push({
          rule,
          file: path,
          line: found.line,
          message: found.message ?? rule.message,
          text,
          above,
          ...(found.secretLine ? { secret: { start: 0, end: text.length } } : {}),
        });
      }
    }
    const plan = planner.planFor(path);
    if (plan.line.length > 0 || plan.scan.length > 0) reviewed.push({ file, path, plan });
    const target = syntaxTarget(diff, file, path, plan);
    if (target) syntax.push(target);
  }
  const candidates = candidateLines(diff, reviewed, matchers);
  reviewed.forEach(({ file, path, plan }, i) => {
    check();
    reviewLines(diff, file, path, plan, prefilter, candidates[i]!, raw, scanInputs);
  });
  return { raw, scanInputs, syntax, stats: { files: diff.files.length, addedLines } };
}

/** Runs the scan rules (asynchronous: secretlint) over the lines gathered for them. */
async function runScanRules({ raw, scanInputs }: Collected): Promise<void> {
  await Promise.all(
    [...scanInputs].map(async ([rule, inputs]) => {
      if (inputs.length === 0) return;
      for (const f of await rule.scan(inputs)) {
        // Columns of a piece of a long line are columns of the line.
        const { path: file, offset, line: text, newLine, above } = inputs[f.index]!;
        const secret = f.secret ? { secret: { start: offset + f.secret.start, end: offset + f.secret.end } } : {};
        raw.push({
          rule,
          file,
          line: newLine,
          column: offset + f.column,
          endColumn: offset + f.endColumn,
          message: f.message,
          text,
          above,
          ...secret,
        });
      }
    }),
  );
}

/** The table index of the added line of `file` at new-file line `newLine`, or -1. */
function lineIndexOf(diff: DiffIndex, file: IndexedFile, newLine: number): number {
  const { kind, newLine: lines } = diff.lines;
  for (const hunk of file.hunks) {
    for (let k = hunk.first; k < hunk.first + hunk.count; k++) if (kind[k] === ADDED && lines[k] === newLine) return k;
  }
  return -1;
}
