// Planning: which rules are on (the configuration), and for each file which of them read its
// lines and which of them each keyword calls. Most diffs have a handful of kinds of file, so
// plans are made once per kind and looked up by a trie of the rules' answers for the file.
import type { Severity } from '../api/schemas.ts';
import type { FileRule, LineRule, Rule, ScanRule } from './rules/rule.ts';
import type { SyntaxLanguage } from './structure/languages.ts';
import { SYNTAX_LANGUAGES, syntaxLanguageOf } from './structure/languages.ts';
import type { EngineConfig } from './types.ts';

/** The rules a configuration leaves on, by kind, with their configured severities. */
export interface ActiveRules {
  line: LineRule[];
  file: FileRule[];
  scan: ScanRule[];
  severity: Map<string, Severity>;
}

export function activateRules(rules: readonly Rule[], config: EngineConfig | undefined): ActiveRules {
  const overrides = config?.rules ?? {};
  const active: ActiveRules = { line: [], file: [], scan: [], severity: new Map() };
  for (const rule of rules) {
    const override = overrides[rule.id];
    if (override === 'off' || rule.enabled?.(config) === false) continue;
    active.severity.set(rule.id, override ?? rule.severity);
    if (rule.kind === 'line') active.line.push(rule);
    else if (rule.kind === 'file') active.file.push(rule);
    else active.scan.push(rule);
  }
  return active;
}

/** What runs on the lines of one file: its line and scan rules, and which of them each keyword calls. */
export interface FilePlan {
  /** Distinct per planner: keyword matchers are cached by the set of plans they serve. */
  id: number;
  line: LineRule[];
  scan: ScanRule[];
  /** The file's language, when the structural stage parses it. */
  language: SyntaxLanguage | null;
  /** The rules that read the file's syntax tree (their line part does not read this file). */
  syntax: LineRule[];
  /** No pre-filter (some rule has no keywords, or none is wanted): every rule reads every added line. */
  everyLine: boolean;
  /** For each keyword of the plan's rules: the line rules and scan rules (indexes) that have it. */
  rulesOf: Map<string, { line: number[]; scan: number[] }>;
}

/**
 * One level per rule, after one for the file's syntax language: the branch is the rule's answer
 * for the file (0: does not apply; 1: applies; READ_AS_SYNTAX: reads its syntax tree;
 * READ_AS_SYNTAX + 1 + n: applies with the n-th keyword list its keywordsFor has returned).
 */
interface PlanNode {
  branches: (PlanNode | undefined)[];
  plan?: FilePlan;
}

const READ_AS_SYNTAX = 2;

/** Paths whose plans a planner keeps (a path and a reference each: well under 1 MB). */
const MAX_CACHED_PATHS = 4096;

export class Planner {
  readonly #rules: ActiveRules;
  readonly #prefilter: boolean;
  readonly #root: PlanNode = { branches: [] };
  /** Per rule with keywordsFor: the distinct keyword lists it has returned (one per language). */
  readonly #keywordLists = new Map<LineRule, (readonly string[])[]>();
  #nextPlanId = 0;
  /**
   * Plans by path: asking every rule about a path means every rule's path patterns,
   * and a worker reviews the same repositories' paths again and again. Bounded; the rules'
   * answers depend on the path alone, so a cached plan is the plan.
   */
  readonly #byPath = new Map<string, FilePlan>();

  /** `prefilter` false: no keyword pre-filter, every rule reads every added line (the tests' reference). */
  constructor(rules: ActiveRules, prefilter: boolean) {
    this.#rules = rules;
    this.#prefilter = prefilter;
  }

  planFor(path: string): FilePlan {
    const known = this.#byPath.get(path);
    if (known) return known;
    if (this.#byPath.size >= MAX_CACHED_PATHS) this.#byPath.clear();
    const plan = this.#planOf(path);
    this.#byPath.set(path, plan);
    return plan;
  }

  #planOf(path: string): FilePlan {
    const language = syntaxLanguageOf(path);
    // The first level is the language the structural stage parses the file as (0: none).
    let node = this.#branch(this.#root, language ? 1 + SYNTAX_LANGUAGES.indexOf(language) : 0);
    const lineKeywords: (readonly string[] | null)[] = [];
    /** The rules that read the file's syntax tree. */
    const syntax: LineRule[] = [];
    for (const rule of this.#rules.line) {
      if (language && rule.syntax?.languages[language] && rule.files(path)) {
        syntax.push(rule);
        if (!rule.syntax.linesToo) {
          lineKeywords.push(null);
          node = this.#branch(node, READ_AS_SYNTAX);
          continue;
        }
      }
      const keywords = rule.files(path) ? (rule.keywordsFor?.(path) ?? rule.keywords) : null;
      lineKeywords.push(keywords);
      node = this.#branch(
        node,
        keywords === null ? 0 : rule.keywordsFor ? READ_AS_SYNTAX + 1 + this.#keywordListId(rule, keywords) : 1,
      );
    }
    for (const rule of this.#rules.scan) node = this.#branch(node, rule.files(path) ? 1 : 0);
    node.plan ??= this.#makePlan(path, lineKeywords, language, syntax);
    return node.plan;
  }

  #branch(node: PlanNode, answer: number): PlanNode {
    let next = node.branches[answer];
    if (!next) node.branches[answer] = next = { branches: [] };
    return next;
  }

  /** A small number for the keyword list a rule returned, the same for the same list. */
  #keywordListId(rule: LineRule, list: readonly string[]): number {
    let lists = this.#keywordLists.get(rule);
    if (!lists) this.#keywordLists.set(rule, (lists = []));
    let id = lists.indexOf(list);
    if (id < 0)
      id = lists.findIndex((known) => known.length === list.length && known.every((keyword, i) => keyword === list[i]));
    if (id < 0) id = lists.push(list) - 1;
    return id;
  }

  #makePlan(
    path: string,
    lineKeywords: readonly (readonly string[] | null)[],
    language: SyntaxLanguage | null,
    syntax: LineRule[],
  ): FilePlan {
    const line = this.#rules.line.filter((_, i) => lineKeywords[i] !== null);
    const keywordsOfLine = lineKeywords.filter((keywords) => keywords !== null);
    const scan = this.#rules.scan.filter((rule) => rule.files(path));
    const everyLine =
      !this.#prefilter ||
      keywordsOfLine.some((keywords) => keywords.length === 0) ||
      scan.some((rule) => rule.keywords.length === 0);
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
    return { id: this.#nextPlanId++, line, scan, language, syntax, everyLine, rulesOf };
  }
}
