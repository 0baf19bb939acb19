// Merge-conflict markers left in a file. `=======` alone is also a Markdown/reStructuredText
// heading underline, so it counts only between a `<<<<<<<` and a `>>>>>>>` of the same hunk.
import { anyFile } from './files.ts';
import type { AddedLine, LineRule } from './rule.ts';

const OPEN = /^<{7}(?: |$)/;
const BASE = /^\|{7}(?: |$)/;
const SEPARATOR = /^={7}\s*$/;
const CLOSE = /^>{7}(?: |$)/;

/** How far a separator looks for the markers around it (lines of the hunk): a conflict region spans few lines. */
const REACH = 5000;

/** Positions in the hunk (ascending) of its conflict openers and closers, deleted lines left out. */
interface HunkMarkers {
  opens: number[];
  closes: number[];
}

/** Worked out once per hunk: a hunk of many separators looked 5,000 lines both ways from each (quadratic). */
function markersOf(line: AddedLine): HunkMarkers {
  let markers = line.hunkMemo.get(noConflictMarker) as HunkMarkers | undefined;
  if (!markers) {
    markers = { opens: [], closes: [] };
    for (let position = 0; ; position++) {
      const other = line.lineAt(position - line.indexInHunk);
      if (other === undefined) break;
      if (other.kind === '-') continue;
      if (OPEN.test(other.text)) markers.opens.push(position);
      else if (CLOSE.test(other.text)) markers.closes.push(position);
    }
    line.hunkMemo.set(noConflictMarker, markers);
  }
  return markers;
}

/** Some position of `sorted` lies in [from, to]. */
function anyBetween(sorted: readonly number[], from: number, to: number): boolean {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (sorted[mid]! < from) lo = mid + 1;
    else hi = mid;
  }
  return lo < sorted.length && sorted[lo]! <= to;
}

/** The separator has an opener within REACH lines above it and a closer within REACH lines below, in its hunk. */
function isInsideConflict(line: AddedLine): boolean {
  const { opens, closes } = markersOf(line);
  const at = line.indexInHunk;
  return anyBetween(opens, at - REACH, at - 1) && anyBetween(closes, at + 1, at + REACH);
}

export const noConflictMarker: LineRule = {
  kind: 'line',
  id: 'no-conflict-marker',
  severity: 'error',
  summary: 'A merge-conflict marker (<<<<<<<, =======, >>>>>>>) was added.',
  help: 'Resolve the merge conflict: keep the right version of the lines, delete the markers, and run the tests again.',
  message: 'Merge-conflict marker left in the file; resolve the conflict and delete the marker lines.',
  files: anyFile,
  keywords: ['<<<<<<<', '=======', '>>>>>>>', '|||||||'],
  check(line) {
    const text = line.text;
    if (OPEN.test(text) || CLOSE.test(text) || BASE.test(text)) return { column: 1, endColumn: 8 };
    if (SEPARATOR.test(text) && isInsideConflict(line)) return { column: 1, endColumn: 8 };
    return null;
  },
};

export const conflictMarkerRules = [noConflictMarker];
