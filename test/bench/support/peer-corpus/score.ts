// Our findings against the peers' labels, per rule and project: a "must flag" case is found when a
// finding of the rule lies in one of its spans; a finding in a "must flag" span counts for
// precision, one in a "must not flag" span against it, one elsewhere is not judged.
import type { Finding } from '../../../../service/engine/index.ts';
import type { MaterialFile, OurRule, PeerCase, PeerMaterial, Span } from './material.ts';

/**
 * Rules that claim the same danger: a finding of either finds the other's cases (a private key
 * reported as a secret, a yaml.load in a file about unsafe deserialisation).
 */
const SAME_DANGER: readonly ReadonlySet<string>[] = [
  new Set(['secret', 'no-private-key']),
  new Set(['no-pickle-loads', 'no-unsafe-yaml-load']),
];

/** The rule ids whose findings count for a row. */
function acceptedIds(rule: OurRule): ReadonlySet<string> {
  return SAME_DANGER.find((ids) => ids.has(rule)) ?? new Set([rule]);
}

export interface ReportedLine {
  file: MaterialFile;
  line: number;
  peerRule: string;
}

/** A "must flag" case the rule missed; `above`: an unlabelled finding of the rule that many lines before it (up to 10). */
export interface Miss {
  c: PeerCase;
  above?: number;
}

export interface Tally {
  /** Our rule id (or a label for a total row). */
  rule: string;
  project: string;
  flag: number;
  clean: number;
  found: number;
  /** Findings in "must flag" spans, in "must not flag" spans, and elsewhere in the material. */
  onFlagged: number;
  onClean: number;
  unjudged: number;
  missed: Miss[];
  falselyReported: ReportedLine[];
}

const inSpan = (span: Span, line: number): boolean => line >= span.from && line <= span.to;

/** How far above a span the nearest of `lines` is, when within 10 lines (a value built before its sink). */
function distanceAbove(span: Span, lines: readonly number[]): number | undefined {
  const before = lines.filter((line) => line < span.from && line >= span.from - 10);
  return before.length > 0 ? span.from - Math.max(...before) : undefined;
}

/** One row per rule the project's material has cases of. */
export function tallyProject(material: PeerMaterial, findings: readonly Finding[]): Tally[] {
  const byPath = new Map<string, Finding[]>();
  for (const finding of findings) byPath.set(finding.file_path, [...(byPath.get(finding.file_path) ?? []), finding]);
  const rules = [...new Set(material.cases.map((c) => c.rule))];
  return rules.map((rule) => {
    const accepted = acceptedIds(rule);
    const linesOf = (file: MaterialFile): number[] =>
      (byPath.get(file.diffPath) ?? []).filter((f) => accepted.has(f.rule_id)).map((f) => f.line);
    return tallyRule(
      material.project,
      rule,
      material.cases.filter((c) => c.rule === rule),
      linesOf,
    );
  });
}

type Labelled = { span: Span; c: PeerCase };

function tallyRule(
  project: string,
  rule: OurRule,
  cases: readonly PeerCase[],
  linesOf: (file: MaterialFile) => number[],
): Tally {
  const tally: Tally = {
    rule,
    project,
    flag: cases.filter((c) => c.kind === 'flag').length,
    clean: cases.filter((c) => c.kind === 'clean').length,
    found: 0,
    onFlagged: 0,
    onClean: 0,
    unjudged: 0,
    missed: [],
    falselyReported: [],
  };
  const labelled = new Map<MaterialFile, Labelled[]>();
  for (const c of cases)
    for (const span of c.spans) labelled.set(span.file, [...(labelled.get(span.file) ?? []), { span, c }]);
  const unlabelled = new Map<MaterialFile, number[]>();
  for (const [file, spans] of labelled) {
    for (const line of linesOf(file)) {
      const hits = spans.filter(({ span }) => inSpan(span, line));
      const clean = hits.find(({ c }) => c.kind === 'clean');
      if (hits.some(({ c }) => c.kind === 'flag')) tally.onFlagged++;
      else if (clean) {
        tally.onClean++;
        tally.falselyReported.push({ file, line, peerRule: clean.c.peerRule });
      } else {
        tally.unjudged++;
        unlabelled.set(file, [...(unlabelled.get(file) ?? []), line]);
      }
    }
  }
  for (const c of cases.filter((x) => x.kind === 'flag')) {
    if (c.spans.some((span) => linesOf(span.file).some((line) => inSpan(span, line)))) tally.found++;
    else tally.missed.push({ c, above: distanceAbove(c.spans[0]!, unlabelled.get(c.spans[0]!.file) ?? []) });
  }
  return tally;
}

/** Several tallies of one rule as one (a rule's "all" row, or every rule's total). */
export function sumTallies(rule: string, project: string, tallies: readonly Tally[]): Tally {
  const sum = (key: 'flag' | 'clean' | 'found' | 'onFlagged' | 'onClean' | 'unjudged'): number =>
    tallies.reduce((total, t) => total + t[key], 0);
  return {
    rule,
    project,
    flag: sum('flag'),
    clean: sum('clean'),
    found: sum('found'),
    onFlagged: sum('onFlagged'),
    onClean: sum('onClean'),
    unjudged: sum('unjudged'),
    missed: tallies.flatMap((t) => t.missed),
    falselyReported: tallies.flatMap((t) => t.falselyReported),
  };
}
