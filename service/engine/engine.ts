// The review pipeline over plain values: parsed diff → rules over added lines → findings
// (suppressed, re-configured, de-duplicated, sorted, fingerprinted, capped).
//
// Cost: the diff is parsed into offsets (no object per line), the hunks of all files are read once
// by a keyword sieve (about one line in a hundred has a keyword), and only those lines are lexed
// and checked, by the rules whose keywords they contain. See test/bench/engine.ts.
import type { Severity } from '../api/schemas.ts';
import type { DiffIndex, DiffLine, IndexedFile, IndexedHunk, LineTable } from './diff/parse.ts';
import { ADDED, DELETED, diffLines, indexUnifiedDiff } from './diff/parse.ts';
import { findingFingerprint } from './fingerprint.ts';
import { KeywordSieve } from './keyword-sieve.ts';
import { ALL_RULES } from './rules/index.ts';
import { commentSyntaxOf, lexLine } from './rules/lexer.ts';
import type { AddedLine, FileRule, LineRule, ReviewedFile, Rule, ScanRule } from './rules/rule.ts';
import { isSuppressed } from './suppression.ts';
import type { EngineConfig, Finding, ReviewResult, RuleInfo } from './types.ts';

export const DEFAULT_MAX_FINDINGS = 500;
export const TRUNCATED_RULE_ID = 'review-truncated';

const TRUNCATED_RULE: RuleInfo = {
  id: TRUNCATED_RULE_ID,
  severity: 'info',
  summary: 'The review found more than the configured maximum of findings; the rest were not reported.',
  help: 'Fix the reported findings and review again, or raise the maximum.',
};

export const RULES: RuleInfo[] = [
  ...ALL_RULES.map(({ id, severity, summary, help }) => ({ id, severity, summary, help })),
  TRUNCATED_RULE,
];

/** A finding before configuration, de-duplication and fingerprinting; keeps the line's text. */
interface RawFinding {
  rule: Rule;
  file: string;
  line: number;
  column?: number;
  endColumn?: number;
  message: string;
  text: string;
  above: string | undefined;
}

interface ActiveRules {
  line: LineRule[];
  file: FileRule[];
  scan: ScanRule[];
  severity: Map<string, Severity>;
  /** Rules and sieve by the set of rules that apply to a file (most diffs have a handful of kinds). */
  plans: Map<number, FilePlan>;
}

/** What runs on the lines of one file: its line and scan rules, and which of them each keyword calls. */
interface FilePlan {
  id: number;
  line: LineRule[];
  scan: ScanRule[];
  /** No pre-filter (some rule has no keywords, or none is wanted): every rule reads every added line. */
  everyLine: boolean;
  /** For each keyword of the plan's rules: the line rules and scan rules (indexes) that have it. */
  rulesOf: Map<string, { line: number[]; scan: number[] }>;
}

export interface EngineOptions {
  /**
   * false: no keyword pre-filter; every rule reads every added line and secretlint every added
   * line. The reference the pre-filter is tested against; slow.
   */
  prefilter?: boolean;
}

/** Per rule with keywordsFor: the distinct keyword lists it has returned (one per language). */
const keywordLists = new Map<LineRule, (readonly string[])[]>();

/** A small number for the keyword list a rule returned, the same for the same list. */
function keywordListId(rule: LineRule, list: readonly string[]): number {
  let lists = keywordLists.get(rule);
  if (!lists) keywordLists.set(rule, (lists = []));
  let id = lists.indexOf(list);
  if (id < 0) id = lists.findIndex((known) => known.length === list.length && known.every((keyword, i) => keyword === list[i]));
  if (id < 0) {
    if (lists.length >= 63) throw new Error(`Rule ${rule.id}: keywordsFor returned more than 63 different keyword lists.`);
    lists.push(list);
    id = lists.length - 1;
  }
  return id;
}

/** Sieves are costly to build (tens of thousands of table entries) and the same for every review. */
const sieves = new Map<string, KeywordSieve>();
let nextPlanId = 0;

/** One sieve for the keywords of all these plans: a review reads the diff's text once. */
function sieveFor(plans: readonly FilePlan[]): KeywordSieve {
  const key = plans.map((plan) => plan.id).sort((a, b) => a - b).join(' ');
  let sieve = sieves.get(key);
  if (!sieve) {
    if (sieves.size >= 64) sieves.clear();
    sieve = new KeywordSieve(plans.flatMap((plan) => [...plan.rulesOf.keys()]));
    sieves.set(key, sieve);
  }
  return sieve;
}

/** Active rules (and their plans) by configuration: the service has one or a few. */
const activeByConfig = new Map<string, ActiveRules>();

function activeRules(config: EngineConfig | undefined): ActiveRules {
  const key = JSON.stringify(config?.rules ?? {});
  let active = activeByConfig.get(key);
  if (!active) {
    if (activeByConfig.size >= 32) activeByConfig.clear();
    active = configureRules(config);
    activeByConfig.set(key, active);
  }
  return active;
}

function configureRules(config: EngineConfig | undefined): ActiveRules {
  const overrides = config?.rules ?? {};
  const active: ActiveRules = { line: [], file: [], scan: [], severity: new Map(), plans: new Map() };
  for (const rule of ALL_RULES) {
    const override = overrides[rule.id];
    if (override === 'off') continue;
    active.severity.set(rule.id, override ?? rule.severity);
    if (rule.kind === 'line') active.line.push(rule);
    else if (rule.kind === 'file') active.file.push(rule);
    else active.scan.push(rule);
  }
  const keyBits = 1 + active.line.length + 6 * active.line.filter((rule) => rule.keywordsFor).length + active.scan.length;
  if (keyBits > 52) throw new Error(`Too many rules for a numeric plan key (${keyBits} bits); planFor needs another key.`);
  return active;
}

function planFor(rules: ActiveRules, path: string, prefilter: boolean): FilePlan {
  // The key: which rules apply and which keyword list each uses. A number (a string per file adds
  // up); exact below 2^53, which 20-odd rules and a few language-dependent lists stay far from.
  let key = prefilter ? 1 : 0;
  const lineKeywords: (readonly string[] | null)[] = [];
  for (const rule of rules.line) {
    const applies = rule.files(path);
    const keywords = applies ? (rule.keywordsFor?.(path) ?? rule.keywords) : null;
    lineKeywords.push(keywords);
    key = key * 2 + (applies ? 1 : 0);
    if (rule.keywordsFor) key = key * 64 + (keywords === null ? 0 : 1 + keywordListId(rule, keywords));
  }
  for (const rule of rules.scan) key = key * 2 + (rule.files(path) ? 1 : 0);
  let plan = rules.plans.get(key);
  if (!plan) {
    const line = rules.line.filter((_, i) => lineKeywords[i] !== null);
    const keywordsOfLine = lineKeywords.filter((keywords) => keywords !== null);
    const scan = rules.scan.filter((rule) => rule.files(path));
    const everyLine = !prefilter || keywordsOfLine.some((keywords) => keywords.length === 0) || scan.some((rule) => rule.keywords.length === 0);
    const rulesOf = new Map<string, { line: number[]; scan: number[] }>();
    const entry = (keyword: string) => {
      let rulesOfKeyword = rulesOf.get(keyword);
      if (!rulesOfKeyword) rulesOf.set(keyword, (rulesOfKeyword = { line: [], scan: [] }));
      return rulesOfKeyword;
    };
    keywordsOfLine.forEach((keywords, i) => {
      for (const keyword of new Set(keywords)) entry(keyword).line.push(i);
    });
    scan.forEach((rule, i) => {
      for (const keyword of new Set(rule.keywords)) entry(keyword).scan.push(i);
    });
    plan = { id: nextPlanId++, line, scan, everyLine, rulesOf };
    rules.plans.set(key, plan);
  }
  return plan;
}

/** Reviews a parsed diff. */
export async function reviewDiffIndex(diff: DiffIndex, config?: EngineConfig, options?: EngineOptions): Promise<ReviewResult> {
  const rules = activeRules(config);
  return complete(collect(diff, rules, options?.prefilter ?? true), rules, config);
}

/** What the synchronous pass over the diff leaves: plain values only, no reference to the diff's line table. */
interface Collected {
  raw: RawFinding[];
  /** Per scan rule: the lines it will scan, with what a finding on them needs. */
  scanInputs: Map<ScanRule, ScanInput[]>;
  stats: ReviewResult['stats'];
}

/** Runs the file and line rules, and gathers the lines of the scan rules. */
function collect(diff: DiffIndex, rules: ActiveRules, prefilter: boolean): Collected {
  const raw: RawFinding[] = [];
  const scanInputs = new Map<ScanRule, ScanInput[]>(rules.scan.map((rule) => [rule, []]));
  let addedLines = 0;
  const reviewed: { file: IndexedFile; path: string; plan: FilePlan }[] = [];

  for (const file of diff.files) {
    addedLines += file.addedLines;
    const path = file.newPath;
    if (path === null || file.addedLines === 0) continue;
    const view = reviewedFile(diff, file);
    for (const rule of rules.file) {
      const found = rule.check(view, diff.files);
      if (found) {
        const k = lineIndexOf(diff, file, found.line);
        raw.push({ rule, file: path, line: found.line, message: found.message ?? rule.message, text: k < 0 ? '' : lineText(diff, k), above: k < 0 ? undefined : lineAbove(diff, file, k) });
      }
    }
    const plan = planFor(rules, path, prefilter);
    if (plan.line.length > 0 || plan.scan.length > 0) reviewed.push({ file, path, plan });
  }
  const candidates = candidateLines(diff, reviewed);
  reviewed.forEach(({ file, path, plan }, i) => reviewLines(diff, file, path, plan, prefilter, candidates[i]!, raw, scanInputs));
  return { raw, scanInputs, stats: { files: diff.files.length, addedLines } };
}

/** Runs the scan rules (asynchronous: secretlint) and finishes the findings. */
async function complete({ raw, scanInputs, stats }: Collected, rules: ActiveRules, config: EngineConfig | undefined): Promise<ReviewResult> {
  await Promise.all(
    [...scanInputs].map(async ([rule, inputs]) => {
      if (inputs.length === 0) return;
      for (const f of await rule.scan(inputs)) {
        const line = inputs[f.index]!;
        raw.push({ rule, file: line.path, line: line.newLine, column: f.column, endColumn: f.endColumn, message: f.message, text: line.text, above: line.above });
      }
    }),
  );
  return { findings: finish(raw, rules, config), stats };
}

/** The file as file rules see it. */
function reviewedFile(diff: DiffIndex, file: IndexedFile): ReviewedFile {
  let firstAddedLine: number | null = null;
  const { kind, newLine } = diff.lines;
  for (const hunk of file.hunks) {
    for (let k = hunk.first; k < hunk.first + hunk.count && firstAddedLine === null; k++) if (kind[k] === ADDED) firstAddedLine = newLine[k]!;
    if (firstAddedLine !== null) break;
  }
  const head = file.hunks[0];
  return {
    ...file,
    firstAddedLine,
    headText(count) {
      if (!head) return '';
      const stop = Math.min(head.first + count, head.first + head.count);
      let plain = true;
      for (let k = head.first; k < stop; k++) if (kind[k] === DELETED) plain = false;
      // Usually one slice of the diff: the lines follow each other there (with their markers).
      if (plain && stop > head.first) return diff.text.slice(diff.lines.start[head.first], diff.lines.end[stop - 1]).replace(/\r?\n[+ ]/g, '\n');
      return diffLines(diff, head.first, stop - head.first).filter((line) => line.kind !== '-').map((line) => line.text).join('\n');
    },
  };
}

function lineText(diff: DiffIndex, k: number): string {
  return diff.text.slice(diff.lines.start[k], diff.lines.end[k]);
}

/** The hunk of `file` that holds table line `k`. */
function hunkOf(file: IndexedFile, k: number): IndexedHunk {
  let lo = 0;
  let hi = file.hunks.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (file.hunks[mid]!.first <= k) lo = mid;
    else hi = mid - 1;
  }
  return file.hunks[lo]!;
}

/** The text of the line above table line `k` in its hunk (context or added), for suppression comments. */
function lineAbove(diff: DiffIndex, file: IndexedFile, k: number): string | undefined {
  const hunk = hunkOf(file, k);
  for (let i = k - 1; i >= hunk.first; i--) if (diff.lines.kind[i] !== DELETED) return lineText(diff, i);
  return undefined;
}

/** How far up a hunk to look for the start of a block comment. */
const BLOCK_COMMENT_REACH = 1000;

/**
 * Table line `k` is inside a block comment that opened on an earlier line of its hunk: a line
 * above starts with "/*" and no line between closes it. The lexer reads one line at a time and
 * takes the lines of a JSDoc example without leading "*" (console.log(x) in an @example) for code.
 * Conservative: any "*\/" above (even in a string) ends the search with "no".
 */
function insideBlockComment(diff: DiffIndex, file: IndexedFile, k: number): boolean {
  const hunk = hunkOf(file, k);
  const stop = Math.max(hunk.first, k - BLOCK_COMMENT_REACH);
  for (let i = k - 1; i >= stop; i--) {
    if (diff.lines.kind[i] === DELETED) continue;
    const text = lineText(diff, i);
    if (text.includes('*/')) return false;
    if (text.trimStart().startsWith('/*')) return true;
  }
  return false;
}

/** The table index of the added line of `file` at new-file line `newLine`, or -1. */
function lineIndexOf(diff: DiffIndex, file: IndexedFile, newLine: number): number {
  const { kind, newLine: lines } = diff.lines;
  for (const hunk of file.hunks) {
    for (let k = hunk.first; k < hunk.first + hunk.count; k++) if (kind[k] === ADDED && lines[k] === newLine) return k;
  }
  return -1;
}

/** An added line worth reading (table index `k`) and the keywords found on it (none: read by every rule). */
interface Candidate {
  k: number;
  keywords: string[];
}

/**
 * For each file: its added lines that contain a keyword of its rules, with the keywords found.
 * One sieve over the hunks of all files at once; a file whose plan has no pre-filter gets all
 * its added lines.
 */
function candidateLines(diff: DiffIndex, files: readonly { file: IndexedFile; plan: FilePlan }[]): Candidate[][] {
  const { start, end, kind } = diff.lines;
  const out = files.map((): Candidate[] => []);
  const sieved: number[] = [];
  files.forEach(({ file, plan }, f) => {
    const first = file.hunks[0]!.first;
    const last = file.hunks[file.hunks.length - 1]!;
    if (!plan.everyLine) sieved.push(f);
    else for (let k = first; k < last.first + last.count; k++) if (kind[k] === ADDED) out[f]!.push({ k, keywords: [] });
  });
  if (sieved.length === 0) return out;

  const sieve = sieveFor([...new Set(sieved.map((f) => files[f]!.plan))]);
  const firstLine = files[sieved[0]!]!.file.hunks[0]!.first;
  const tableEnd = lineEndOf(files[sieved[sieved.length - 1]!]!.file);
  const found = sieve.scan(diff.text, start[firstLine]!, end[tableEnd - 1]!);
  if (found.length === 0) return out;

  // Occurrences come nearly in text order: sort them by offset, then sweep lines and files once.
  const order = Array.from({ length: found.length / 2 }, (_, i) => i);
  if (!order.every((i) => i === 0 || found[2 * i]! >= found[2 * i - 2]!)) order.sort((x, y) => found[2 * x]! - found[2 * y]!);
  let k = firstLine;
  let s = 0;
  for (const i of order) {
    const at = found[2 * i]!;
    while (k < tableEnd && end[k]! < at) k++;
    // Keywords lie inside a line's text: an occurrence that starts before it (in a header) is none.
    if (k >= tableEnd || kind[k] !== ADDED || start[k]! > at) continue;
    while (s < sieved.length && lineEndOf(files[sieved[s]!]!.file) <= k) s++;
    const { file, plan } = files[sieved[s]!]!;
    // A line of a file that is not sieved (no rules, or every line read anyway).
    if (file.hunks[0]!.first > k) continue;
    const keyword = sieve.keywords[found[2 * i + 1]!]!;
    if (!plan.rulesOf.has(keyword)) continue;
    const lines = out[sieved[s]!]!;
    const previous = lines[lines.length - 1];
    if (previous && previous.k === k) previous.keywords.push(keyword);
    else lines.push({ k, keywords: [keyword] });
  }
  return out;
}

/** One past the table index of the last line of `file`. */
function lineEndOf(file: IndexedFile): number {
  const last = file.hunks[file.hunks.length - 1]!;
  return last.first + last.count;
}

interface ScanInput {
  path: string;
  text: string;
  newLine: number;
  above: string | undefined;
}

function reviewLines(
  diff: DiffIndex,
  file: IndexedFile,
  path: string,
  plan: FilePlan,
  prefilter: boolean,
  candidates: readonly Candidate[],
  raw: RawFinding[],
  scanInputs: Map<ScanRule, ScanInput[]>,
): void {
  const syntax = commentSyntaxOf(path);
  const blockComments = syntax === 'js' || syntax === 'slash' || syntax === 'both';
  const { kind, newLine } = diff.lines;

  const allLine = plan.line.map((_, i) => i);
  const allScan = plan.scan.map((_, i) => i);
  for (const { k, keywords } of candidates) {
    const text = lineText(diff, k);
    // The rules that have a keyword found on the line (every rule without a pre-filter), in rule order.
    let lineRules = allLine;
    let scanRules = allScan;
    if (!plan.everyLine) {
      const first = plan.rulesOf.get(keywords[0]!)!;
      lineRules = first.line;
      scanRules = first.scan;
      if (keywords.length > 1) {
        lineRules = [...new Set(keywords.flatMap((keyword) => plan.rulesOf.get(keyword)!.line))].sort((a, b) => a - b);
        scanRules = [...new Set(keywords.flatMap((keyword) => plan.rulesOf.get(keyword)!.scan))].sort((a, b) => a - b);
      }
    }
    for (const s of scanRules) {
      const rule = plan.scan[s]!;
      // The rule's own keywords found on the line.
      const found = plan.everyLine ? rule.keywords : keywords.filter((keyword) => plan.rulesOf.get(keyword)!.scan.includes(s));
      if (!prefilter || rule.accepts(text, found)) {
        scanInputs.get(rule)!.push({ path, text, newLine: newLine[k]!, above: lineAbove(diff, file, k) });
      }
    }
    if (lineRules.length === 0) continue;
    const lexed = lexLine(text, syntax);
    let hunk: IndexedHunk | null = null;
    const line: AddedLine = {
      text,
      path,
      code: lexed.code,
      comment: lexed.comment,
      lineAt(offset) {
        hunk ??= hunkOf(file, k);
        const i = k + offset;
        if (i < hunk.first || i >= hunk.first + hunk.count) return undefined;
        return { kind: String.fromCharCode(kind[i]!) as DiffLine['kind'], text: lineText(diff, i), newLine: newLine[i]! };
      },
    };
    for (const r of lineRules) {
      const rule = plan.line[r]!;
      const match = rule.check(line);
      if (match && (rule.reads ?? 'code') === 'code' && blockComments && insideBlockComment(diff, file, k)) continue;
      if (match) {
        raw.push({
          rule,
          file: path,
          line: newLine[k]!,
          column: match.column,
          endColumn: match.endColumn,
          message: match.message ?? rule.message,
          text,
          above: lineAbove(diff, file, k),
        });
      }
    }
  }
}

function finish(raw: RawFinding[], rules: ActiveRules, config: EngineConfig | undefined): Finding[] {
  raw.sort((a, b) => compare(a.file, b.file) || a.line - b.line || compare(a.rule.id, b.rule.id) || (a.column ?? 0) - (b.column ?? 0));
  const findings: Finding[] = [];
  const seen = new Set<string>();
  const occurrences = new Map<string, number>();
  for (const f of raw) {
    const key = `${f.rule.id}\0${f.file}\0${f.line}`;
    if (seen.has(key)) continue;
    seen.add(key);
    if (isSuppressed(f.rule.id, f.text, f.above)) continue;
    const textKey = `${f.rule.id}\0${f.file}\0${f.text.trim()}`;
    const occurrence = occurrences.get(textKey) ?? 0;
    occurrences.set(textKey, occurrence + 1);
    const finding: Finding = {
      rule_id: f.rule.id,
      severity: rules.severity.get(f.rule.id) ?? f.rule.severity,
      file_path: f.file,
      line: f.line,
      message: `${f.rule.id}: ${f.message}`,
      fingerprint: findingFingerprint(f.rule.id, f.file, f.text, occurrence),
    };
    if (f.column !== undefined) finding.start_column = f.column;
    if (f.endColumn !== undefined) finding.end_column = f.endColumn;
    findings.push(finding);
  }
  const max = Math.max(0, Math.floor(config?.maxFindings ?? DEFAULT_MAX_FINDINGS));
  if (findings.length <= max) return findings;
  const cut = findings.length - max;
  const firstCut = findings[max]!;
  const kept = findings.slice(0, max);
  kept.push({
    rule_id: TRUNCATED_RULE_ID,
    severity: 'info',
    file_path: firstCut.file_path,
    line: firstCut.line,
    message: `${TRUNCATED_RULE_ID}: ${cut} more finding${cut === 1 ? ' was' : 's were'} not reported (the limit is ${max}); fix the findings above and review again.`,
    fingerprint: findingFingerprint(TRUNCATED_RULE_ID, firstCut.file_path, String(cut), 0),
  });
  return kept;
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * Line tables of earlier reviews, for reuse: a 1 MB diff's table is ~400 KB of typed arrays,
 * and allocating it for every review costs as much as filling it. A table returns here as soon
 * as the synchronous pass is done (concurrent reviews in one thread each take their own).
 */
const spareTables: LineTable[] = [];
/** Tables larger than this (in lines) are not kept. */
const MAX_SPARE_LINES = 1 << 20;

export async function reviewUnifiedDiff(text: string, config?: EngineConfig, options?: EngineOptions): Promise<ReviewResult> {
  const rules = activeRules(config);
  const spare = spareTables.pop();
  let collected: Collected;
  try {
    const diff = indexUnifiedDiff(text, spare);
    collected = collect(diff, rules, options?.prefilter ?? true);
    if (diff.lines.start.length <= MAX_SPARE_LINES) spareTables.push(diff.lines);
  } catch (error) {
    if (spare) spareTables.push(spare);
    throw error;
  }
  return complete(collected, rules, config);
}
