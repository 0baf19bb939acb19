// What every output format is made from: the findings that count (after the config and the
// baseline), with what the formats need beside them.
import { parseUnifiedDiff, type Finding, type RuleInfo, type SuppressedFinding } from '../engine/index.ts';
import { MAX_LINE_READ } from '../engine/line-review.ts';
import { secretRules } from '../engine/rules/secrets.ts';
import { formatCount } from '../format-count.ts';

/** Findings of one rule in one file shown before the rest fold into one entry (`fold` in .diff-review.yml). */
export const DEFAULT_FOLD = 5;

export interface ReviewReport {
  /** The findings that count: not removed by the config, not known to the baseline. */
  findings: Finding[];
  /** Findings an inline comment suppressed: listed in JSON and SARIF, counted in text, never counted for the exit code. */
  suppressed: SuppressedFinding[];
  /** Where a person reads a list (text, github, gitlab): findings of one rule in one file shown before the rest fold; 0 never folds. */
  fold: number;
  /** Findings the baseline knows (not in `findings`). */
  hiddenByBaseline: number;
  /** Findings in paths the project config ignores (not in `findings`): those of a diff whose files could not be left out before the review. */
  ignoredByConfig: number;
  /** Files of the diff in paths the project config ignores: left out, not reviewed. */
  ignoredFiles: number;
  /** The service cut its list of findings (a `review-truncated` finding says so): the review is incomplete. */
  truncated: boolean;
  /** Files of the diff the engine could not review (outside ignored paths): every format names them. */
  notReviewed: NotReviewedFile[];
  /** Every rule of the engine, for SARIF's rule descriptions. */
  rules: readonly RuleInfo[];
  repository?: string;
  baseCommit?: string;
  /** The commit reviewed, when the diff came from commits. */
  headCommit?: string;
  /** Files in the diff and lines it adds. */
  stats: { files: number; addedLines: number };
  durationMs: number;
  toolVersion: string;
  /** The text of an added line (for code frames and byte columns), or undefined. */
  addedLineText(file: string, line: number): string | undefined;
}

export interface NotReviewedFile {
  file_path: string;
  /** For people: why, e.g. "a binary file (the diff does not carry its content)". */
  reason: string;
  /** Reviewed in part only (a line longer than the line rules read), not skipped. */
  partly?: true;
}

/** `Not reviewed: <reason>.` (or `Partly reviewed: …`), the same words in every format. */
export const notReviewedMessage = (file: NotReviewedFile) =>
  `${file.partly ? 'Partly reviewed' : 'Not reviewed'}: ${file.reason}.`;

const BINARY = /^(Binary files |GIT binary patch$)/m;
/** An added line longer than what line rules read of it (linear: each line is read once). */
const LONG_LINE = new RegExp(`^\\+[^\\n]{${MAX_LINE_READ + 1},}`, 'm');

/**
 * The files the engine cannot review: binary files, whose content a diff does not carry; and those
 * it reviews in part: an added line longer than the line rules read (secrets are searched in all of
 * it). The diff is parsed only when it has such a file at all.
 */
export function notReviewedFiles(diff: string, isIgnored: (path: string) => boolean): NotReviewedFile[] {
  const hasBinary = BINARY.test(diff);
  const hasLongLine = LONG_LINE.test(diff);
  if (!hasBinary && !hasLongLine) return [];
  const files: NotReviewedFile[] = [];
  for (const file of parseUnifiedDiff(diff).files) {
    if (file.newPath === null || isIgnored(file.newPath)) continue;
    if (file.binary) {
      files.push({ file_path: file.newPath, reason: 'a binary file (the diff does not carry its content)' });
      continue;
    }
    if (!hasLongLine) continue;
    const long = file.hunks.flatMap((hunk) =>
      hunk.lines.filter((line) => line.kind === '+' && line.text.length > MAX_LINE_READ).map((line) => line.newLine),
    );
    if (long.length > 0)
      files.push({
        file_path: file.newPath,
        partly: true,
        reason: `line${long.length === 1 ? '' : 's'} ${listed(long)} ${long.length === 1 ? 'is' : 'are'} longer than ${MAX_LINE_READ / 1024} KiB: the rules read the first ${MAX_LINE_READ / 1024} KiB of a line (secrets are searched in all of it)`,
      });
  }
  return files;
}

/** The first few line numbers, then how many more: a minified file has thousands of long lines. */
function listed(lines: readonly number[], most = 5): string {
  if (lines.length <= most) return lines.join(', ');
  return `${lines.slice(0, most).join(', ')} and ${formatCount(lines.length - most)} more`;
}

/** The message without the `rule-id: ` prefix the API puts in front of it. */
export function messageText(finding: Finding): string {
  const prefix = `${finding.rule_id}: `;
  return finding.message.startsWith(prefix) ? finding.message.slice(prefix.length) : finding.message;
}

/**
 * Looks up added lines by file and new-file line. The diff is parsed into the plain model only
 * when a format first asks (text frames, rdjsonl byte columns), and only the files with findings
 * are indexed.
 */
export function addedLineLookup(
  diff: string,
  findings: readonly Finding[],
): (file: string, line: number) => string | undefined {
  let index: Map<string, Map<number, string>> | undefined;
  return (file, line) => {
    if (index === undefined) {
      index = new Map();
      const wanted = new Set(findings.map((f) => f.file_path));
      for (const parsed of parseUnifiedDiff(diff).files) {
        if (parsed.newPath === null || !wanted.has(parsed.newPath)) continue;
        const lines = new Map<number, string>();
        for (const hunk of parsed.hunks) for (const l of hunk.lines) if (l.kind === '+') lines.set(l.newLine, l.text);
        index.set(parsed.newPath, lines);
      }
    }
    return index.get(file)?.get(line);
  };
}

const SECRET_RULE_IDS = new Set(secretRules.map((rule) => rule.id));

/**
 * Lines that hold a secret (a finding of a secret rule is on them): their text is never printed,
 * since CI keeps its logs.
 */
export function secretLines(findings: readonly Finding[]): Set<string> {
  return new Set(findings.filter((f) => SECRET_RULE_IDS.has(f.rule_id)).map((f) => lineKey(f.file_path, f.line)));
}

export const lineKey = (file: string, line: number): string => `${file}\0${line}`;

/** Findings by file, files in the order of their first finding (the engine sorts by path). */
export function findingsByFile(findings: readonly Finding[]): Map<string, Finding[]> {
  const byFile = new Map<string, Finding[]>();
  for (const finding of findings) {
    const list = byFile.get(finding.file_path);
    if (list) list.push(finding);
    else byFile.set(finding.file_path, [finding]);
  }
  return byFile;
}
