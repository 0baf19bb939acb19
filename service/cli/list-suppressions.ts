// `diff-review suppressions`: every diff-review-ignore directive in the repository's tracked files
// (read where the engine reads them: in a comment, in documentation an HTML comment),
// with its rules, reason, end and age (from git blame), so that a team can audit what it silenced.
import { directiveView } from '../engine/rules/suppression-directives.ts';
import { todayUtc, parseDirective } from '../engine/suppression.ts';
import { findRepositoryRoot, runGit } from '../git/index.ts';
import { formatCount } from '../format-count.ts';

export interface ListedSuppression {
  file: string;
  line: number;
  /** The rule ids it names; empty: every rule. */
  rules: string[];
  reason: string | null;
  /** The last day it holds (YYYY-MM-DD), or null for none. */
  until: string | null;
  /** Its day has passed: it suppresses nothing any more. */
  expired: boolean;
  /** What follows `until` when it is not a date (a suppression-invalid-date finding). */
  invalid_until?: string;
  /** When the line was last changed (git blame), or null for a line not committed yet. */
  added_at: string | null;
  age_days: number | null;
}

const DAY_MS = 24 * 60 * 60 * 1000;

export async function listSuppressions(cwd: string, now = Date.now()): Promise<ListedSuppression[]> {
  const root = await findRepositoryRoot(cwd);
  // -I: text files only; exit 1 is "none found".
  const { stdout } = await runGit(root, ['grep', '-n', '-I', '--full-name', '-F', '-e', 'diff-review-ignore'], {
    okExitCodes: [0, 1],
  });
  const byFile = new Map<string, { line: number; text: string }[]>();
  for (const row of stdout.split('\n')) {
    const match = /^(.+?):(\d+):(.*)$/.exec(row);
    if (!match) continue;
    const [, file = '', line = '', text = ''] = match;
    const lines = byFile.get(file) ?? [];
    lines.push({ line: Number(line), text });
    byFile.set(file, lines);
  }
  const today = todayUtc(now);
  const listed: ListedSuppression[] = [];
  for (const [file, lines] of byFile) {
    const directives = lines.flatMap(({ line, text }) => {
      const directive = parseDirective(directiveView(file, text));
      return directive ? [{ line, directive }] : [];
    });
    if (directives.length === 0) continue;
    const times = await blameTimes(
      root,
      file,
      directives.map((d) => d.line),
    );
    for (const { line, directive } of directives) {
      const time = times.get(line);
      listed.push({
        file,
        line,
        rules: directive.rules,
        reason: directive.reason ?? null,
        until: directive.until ?? null,
        expired: directive.until !== undefined && directive.until < today,
        ...(directive.invalidUntil !== undefined ? { invalid_until: directive.invalidUntil } : {}),
        added_at: time === undefined ? null : new Date(time).toISOString(),
        age_days: time === undefined ? null : Math.floor((now - time) / DAY_MS),
      });
    }
  }
  return listed.sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : a.line - b.line));
}

/** When each of the lines was last changed, by `git blame` (ms since the epoch); lines not committed are left out. */
async function blameTimes(root: string, file: string, lines: readonly number[]): Promise<Map<number, number>> {
  const ranges = lines.flatMap((line) => ['-L', `${line},${line}`]);
  const { stdout } = await runGit(root, ['blame', '--porcelain', ...ranges, '--', file]);
  const times = new Map<number, number>();
  const timeOfCommit = new Map<string, number>();
  let commit = '';
  let finalLine = 0;
  for (const row of stdout.split('\n')) {
    const header = /^([0-9a-f]{40}) \d+ (\d+)/.exec(row);
    if (header) {
      commit = header[1] ?? '';
      finalLine = Number(header[2]);
      continue;
    }
    if (row.startsWith('author-time ')) timeOfCommit.set(commit, Number(row.slice(12)) * 1000);
    else if (row.startsWith('\t') && !/^0+$/.test(commit)) {
      const time = timeOfCommit.get(commit);
      if (time !== undefined) times.set(finalLine, time);
    }
  }
  return times;
}

export function formatSuppressionsText(listed: readonly ListedSuppression[]): string {
  if (listed.length === 0) return 'No diff-review-ignore comments in this repository.\n';
  const rows = listed.map((s) => {
    const rules = s.rules.length === 0 ? 'every rule' : s.rules.join(', ');
    const reason = s.reason === null ? '(no reason)' : `(${s.reason})`;
    const end =
      s.invalid_until !== undefined
        ? `until ${s.invalid_until} (not a date)`
        : s.until === null
          ? 'no end'
          : `until ${s.until}${s.expired ? ' (expired)' : ''}`;
    const age =
      s.age_days === null ? 'not committed' : `${formatCount(s.age_days)} day${s.age_days === 1 ? '' : 's'} old`;
    return `${s.file}:${s.line}  ${rules}  ${reason}  ${end}  ${age}`;
  });
  const files = new Set(listed.map((s) => s.file)).size;
  const without = listed.filter((s) => s.reason === null).length;
  const expired = listed.filter((s) => s.expired).length;
  const everyRule = listed.filter((s) => s.rules.length === 0).length;
  const notes = [
    without > 0 ? `${without} without a reason` : '',
    everyRule > 0 ? `${everyRule} for every rule` : '',
    expired > 0 ? `${expired} expired` : '',
  ].filter(Boolean);
  const summary = `${listed.length} suppression${listed.length === 1 ? '' : 's'} in ${files} file${files === 1 ? '' : 's'}${notes.length > 0 ? `: ${notes.join(', ')}` : ''}.`;
  return `${rows.join('\n')}\n\n${summary}\n`;
}
