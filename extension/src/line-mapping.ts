// Where a reviewed line is now. A review of HEAD names HEAD's line numbers, but the file on disk may
// have uncommitted edits (git diff <reviewed commit> -- <file>), and its open editor unsaved ones (a
// line diff of the disk's text and the editor's): each comment's line is carried through the hunks
// of both before it is placed. No vscode import: tested under vitest against real git repositories.
import path from 'node:path';
import { runGit, STABLE_DIFF_OPTIONS, type GitOptions } from '../../service/git/index.ts';
// The engine-free parser (the engine is in the bundle anyway, as the bundled service).
import { parseUnifiedDiff } from '../../service/engine/index.ts';

/** One hunk in the convention of `git diff --unified=0`: 1-based; a side with 0 lines names the line before it. */
export interface LineHunk {
  oldStart: number;
  oldLines: number;
  newStart: number;
  newLines: number;
}

/** 1-based line now: the same text (`kept`), or the place of a changed or deleted line (`changed`). */
export type MappedLine = { kind: 'kept'; line: number } | { kind: 'changed'; line: number };

/** Maps a 1-based line of the reviewed text to the current text. */
export type LineMap = (line: number) => MappedLine;

export function mapLineThroughHunks(hunks: readonly LineHunk[], line: number): MappedLine {
  let shift = 0;
  for (const hunk of hunks) {
    if (hunk.oldLines === 0) {
      if (line <= hunk.oldStart) break; // lines inserted below it
    } else {
      if (line < hunk.oldStart) break;
      if (line < hunk.oldStart + hunk.oldLines) {
        // Replaced: the matching line of the new text; deleted: the line that took its place.
        const now =
          hunk.newLines === 0 ? hunk.newStart + 1 : hunk.newStart + Math.min(line - hunk.oldStart, hunk.newLines - 1);
        return { kind: 'changed', line: now };
      }
    }
    shift += hunk.newLines - hunk.oldLines;
  }
  return { kind: 'kept', line: line + shift };
}

export const lineMapOf =
  (hunks: readonly LineHunk[]): LineMap =>
  (line) =>
    mapLineThroughHunks(hunks, line);

/** First `first`, then `second`; changed by either is changed. */
export function composeLineMaps(first: LineMap | undefined, second: LineMap | undefined): LineMap | undefined {
  if (!first || !second) return first ?? second;
  return (line) => {
    const a = first(line);
    const b = second(a.line);
    return { kind: a.kind === 'changed' || b.kind === 'changed' ? 'changed' : 'kept', line: b.line };
  };
}

/** The hunks of a one-file unified diff (made with --unified=0: no context lines), by the service's own diff parser. */
export function hunksOf(diff: string): LineHunk[] {
  if (diff.trim() === '') return [];
  return (parseUnifiedDiff(diff).files[0]?.hunks ?? []).map(({ oldStart, oldLines, newStart, newLines }) => ({
    oldStart,
    oldLines,
    newStart,
    newLines,
  }));
}

const literal = (file: string) => `:(literal)${file}`;

/**
 * The uncommitted changes of each file (paths relative to the root) against `commit`, as hunks;
 * files without changes are left out. One git call when nothing changed, then one per changed file.
 */
export async function uncommittedHunks(
  root: string,
  commit: string,
  files: readonly string[],
  options: GitOptions = {},
): Promise<Map<string, LineHunk[]>> {
  const result = new Map<string, LineHunk[]>();
  if (files.length === 0) return result;
  const { stdout } = await runGit(
    root,
    ['diff', '--no-relative', '--no-renames', '--name-only', '-z', commit, '--', ...files.map(literal)],
    options,
  );
  const changed = stdout.split('\0').filter((file) => file !== '');
  for (const file of changed) {
    const diff = await runGit(
      root,
      ['diff', ...STABLE_DIFF_OPTIONS, '--unified=0', '--no-renames', commit, '--', literal(file)],
      options,
    );
    result.set(file, hunksOf(diff.stdout));
  }
  return result;
}

/**
 * The hunks that turn `before` into `after` (Myers' O(ND) line diff, after the common start and end
 * are set aside), or undefined when they differ in more than `maxEdits` lines: then nobody maps.
 */
export function diffLineHunks(
  before: readonly string[],
  after: readonly string[],
  maxEdits = 2000,
): LineHunk[] | undefined {
  let head = 0;
  while (head < before.length && head < after.length && before[head] === after[head]) head++;
  let endA = before.length;
  let endB = after.length;
  while (endA > head && endB > head && before[endA - 1] === after[endB - 1]) {
    endA--;
    endB--;
  }
  const n = endA - head;
  const m = endB - head;
  if (n === 0 && m === 0) return [];
  const a = (i: number) => before[head + i];
  const b = (j: number) => after[head + j];

  // Forward search; trace[d] keeps V before step d, for k in [-d, d] (index k + d).
  const max = n + m;
  const offset = max + 1;
  const v = new Int32Array(2 * max + 3);
  const trace: Int32Array[] = [];
  let edits = -1;
  search: for (let d = 0; d <= max; d++) {
    if (d > maxEdits) return undefined;
    trace.push(v.slice(offset - d, offset + d + 1));
    for (let k = -d; k <= d; k += 2) {
      let x =
        k === -d || (k !== d && v[offset + k - 1]! < v[offset + k + 1]!) ? v[offset + k + 1]! : v[offset + k - 1]! + 1;
      let y = x - k;
      while (x < n && y < m && a(x) === b(y)) {
        x++;
        y++;
      }
      v[offset + k] = x;
      if (x >= n && y >= m) {
        edits = d;
        break search;
      }
    }
  }

  // Back from the end: the matched pairs (0-based, relative to `head`), last first.
  const matched: [number, number][] = [];
  let x = n;
  let y = m;
  for (let d = edits; d > 0; d--) {
    const previous = trace[d]!;
    const at = (k: number) => previous[k + d]!;
    const k = x - y;
    const fromK = k === -d || (k !== d && at(k - 1) < at(k + 1)) ? k + 1 : k - 1;
    const fromX = at(fromK);
    const fromY = fromX - fromK;
    const snakeX = fromK === k + 1 ? fromX : fromX + 1; // after the one insertion or deletion
    while (x > snakeX) matched.push([--x, --y]);
    x = fromX;
    y = fromY;
  }
  while (x > 0) matched.push([--x, --y]);
  matched.reverse();

  // Hunks between consecutive matches, in absolute 1-based lines (git's -U0 convention).
  const hunks: LineHunk[] = [];
  let lastA = -1;
  let lastB = -1;
  for (const [i, j] of [...matched, [n, m] as [number, number]]) {
    const oldLines = i - lastA - 1;
    const newLines = j - lastB - 1;
    if (oldLines > 0 || newLines > 0) {
      hunks.push({
        oldStart: head + lastA + (oldLines === 0 ? 1 : 2),
        oldLines,
        newStart: head + lastB + (newLines === 0 ? 1 : 2),
        newLines,
      });
    }
    lastA = i;
    lastB = j;
  }
  return hunks;
}

/** A commented file as it is now. */
export interface CurrentText {
  /** Its lines now: the open editor's, else the disk's. */
  lines: readonly string[];
  /** The disk's lines, when an open editor has unsaved edits. */
  diskLines?: readonly string[];
}

export interface CurrentLineMapOptions extends GitOptions {
  /** The commit reviewed, when the review was of a commit (not of the working tree): uncommitted edits are mapped through. */
  reviewedCommit?: string;
  /** Told when git fails: the comments are then placed by their reviewed line numbers. */
  warn?: (message: string) => void;
}

/**
 * For each file (absolute path) whose text now differs from the reviewed one: the map from its
 * reviewed lines to its current lines. Reviewed commit → disk through git's hunks, disk → an
 * editor's unsaved text through a line diff.
 */
export async function currentLineMaps(
  root: string,
  files: ReadonlyMap<string, CurrentText | undefined>,
  options: CurrentLineMapOptions = {},
): Promise<Map<string, LineMap>> {
  const maps = new Map<string, LineMap>();
  const present = [...files].filter((entry): entry is [string, CurrentText] => entry[1] !== undefined);
  if (options.reviewedCommit !== undefined) {
    const relative = new Map(present.map(([file]) => [path.relative(root, file).split(path.sep).join('/'), file]));
    try {
      const hunks = await uncommittedHunks(root, options.reviewedCommit, [...relative.keys()], options);
      for (const [file, fileHunks] of hunks) {
        const absolute = relative.get(file);
        if (absolute !== undefined) maps.set(absolute, lineMapOf(fileHunks));
      }
    } catch (error) {
      options.warn?.(
        `Could not compare the working tree with the reviewed commit (${error instanceof Error ? error.message : String(error)}); comments are placed by the commit's line numbers.`,
      );
    }
  }
  for (const [file, text] of present) {
    if (text.diskLines === undefined) continue;
    const hunks = diffLineHunks(text.diskLines, text.lines);
    if (hunks === undefined) {
      options.warn?.(
        `${path.relative(root, file)} has too many unsaved edits to follow; its comments are placed by the saved file's lines.`,
      );
      continue;
    }
    if (hunks.length > 0) {
      const map = composeLineMaps(maps.get(file), lineMapOf(hunks));
      if (map) maps.set(file, map);
    }
  }
  return maps;
}
