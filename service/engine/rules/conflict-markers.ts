// Merge-conflict markers left in a file. `=======` alone is also a Markdown/reStructuredText
// heading underline, so it counts only between a `<<<<<<<` and a `>>>>>>>` of the same hunk.
import { anyFile } from './files.ts';
import type { AddedLine, LineRule } from './rule.ts';

const OPEN = /^<{7}(?: |$)/;
const BASE = /^\|{7}(?: |$)/;
const SEPARATOR = /^={7}\s*$/;
const CLOSE = /^>{7}(?: |$)/;

/** The hunk has `marker` somewhere in `direction` from this line (a conflict region spans few lines). */
function hasNearby(line: AddedLine, marker: RegExp, direction: -1 | 1): boolean {
  const limit = 5000;
  for (let offset = direction; Math.abs(offset) <= limit; offset += direction) {
    const other = line.lineAt(offset);
    if (other === undefined) return false;
    if (other.kind !== '-' && marker.test(other.text)) return true;
  }
  return false;
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
    if (SEPARATOR.test(text) && hasNearby(line, OPEN, -1) && hasNearby(line, CLOSE, 1)) return { column: 1, endColumn: 8 };
    return null;
  },
};

export const conflictMarkerRules = [noConflictMarker];
