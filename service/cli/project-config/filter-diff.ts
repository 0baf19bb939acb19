// Leaves the files a project config ignores out of a diff, so that a client sending the diff to a
// service (the extension, the desktop app) does not have them reviewed at all.
import { parseUnifiedDiff } from '../../engine/index.ts';

/** The diff without the `diff --git` sections of the files `isIgnored` names (by new path, or old path for a deletion). */
export function diffWithoutIgnoredFiles(diff: string, isIgnored: (path: string) => boolean): string {
  const sections = diff.split(/^(?=diff --git )/m);
  const kept = sections.filter((section) => {
    if (!section.startsWith('diff --git ')) return true;
    const file = parseUnifiedDiff(section).files[0];
    const path = file?.newPath ?? file?.oldPath;
    return path === undefined || path === null || !isIgnored(path);
  });
  return kept.length === sections.length ? diff : kept.join('');
}
