// The figures as a Markdown table (per rule and project, a row per rule, a total), and for
// --misses the cases a rule missed and the lines it reported against a peer's "must not flag".
import type { MaterialFile } from './material.ts';
import type { Miss, ReportedLine, Tally } from './score.ts';
import { sumTallies } from './score.ts';

const ratio = (part: number, whole: number): string => (whole === 0 ? '—' : (part / whole).toFixed(2));

function row(t: Tally, bold: boolean): string {
  const b = (text: string | number): string => (bold ? `**${text}**` : String(text));
  const cells = [
    t.rule,
    t.project,
    t.flag,
    t.clean,
    t.found,
    ratio(t.found, t.flag),
    t.onFlagged,
    t.onClean,
    ratio(t.onFlagged, t.onFlagged + t.onClean),
  ];
  return `| ${cells.map((c, i) => (i < 2 ? String(c) : b(c))).join(' | ')} |`;
}

/** Rows grouped by rule (in `ruleOrder`), a project's row each, then the rule's row when there are several. */
export function printTable(tallies: readonly Tally[], ruleOrder: readonly string[]): void {
  console.log(
    '| rule | project | must flag | must not flag | found | recall | findings on must-flag | on must-not-flag | precision |',
  );
  console.log('|---|---|---:|---:|---:|---:|---:|---:|---:|');
  const rules = ruleOrder.filter((rule) => tallies.some((t) => t.rule === rule));
  const ruleRows = rules.map((rule) => {
    const rows = tallies.filter((t) => t.rule === rule);
    for (const t of rows) console.log(row(t, false));
    const all = sumTallies(rule, 'all', rows);
    if (rows.length > 1) console.log(row(all, true));
    return all;
  });
  console.log(row(sumTallies('all rules', 'all', ruleRows), true));
}

const clip = (text: string): string => {
  const trimmed = text.trim();
  return trimmed.length > 120 ? `${trimmed.slice(0, 119)}…` : trimmed;
};

const where = (file: MaterialFile, line: number): string => `${file.source}:${line + file.sourceLineOffset}`;

/** A missed case's line: the labelled line, its focus, or the first line of code of a whole file. */
function missLine({ c, above }: Miss): string {
  const span = c.spans[0]!;
  let line = c.focus ?? span.from;
  if (c.focus === undefined && span.to > span.from) {
    const code = (n: number): boolean => !/^\s*(?:$|\/\/|#|---|package |import )/.test(span.file.lines[n - 1] ?? '');
    while (line < span.to && !code(line)) line++;
  }
  const near = above === undefined ? '' : `  (a finding ${above} line${above > 1 ? 's' : ''} above)`;
  return `${where(span.file, line)}  [${c.peerRule}]  ${clip(span.file.lines[line - 1] ?? '')}${near}`;
}

const reportedLine = (r: ReportedLine): string =>
  `${where(r.file, r.line)}  [${r.peerRule}]  ${clip(r.file.lines[r.line - 1] ?? '')}`;

/** For --misses: per project, what the rule missed and what it reported on "must not flag" material. */
export function printMisses(rule: string, tallies: readonly Tally[]): void {
  for (const t of tallies.filter((x) => x.rule === rule)) {
    console.log(`\n## ${rule} on ${t.project}: missed ${t.missed.length} of ${t.flag}`);
    for (const miss of t.missed) console.log(missLine(miss));
    console.log(`\n## ${rule} on ${t.project}: reported on "must not flag" material ${t.falselyReported.length}`);
    for (const r of t.falselyReported) console.log(reportedLine(r));
  }
}
