// Leaves the files a project config ignores out of a diff, so that they are not reviewed at all:
// by the CLI (in-process or through --service) and by the clients that send a diff to a service
// (the extension, the desktop app).
import { parseUnifiedDiff } from '../engine/index.ts';

/** The diff without the `diff --git` sections of the files `isIgnored` names (by new path, or old path for a deletion). */
export function diffWithoutIgnoredFiles(diff: string, isIgnored: (path: string) => boolean): string {
  return withoutIgnoredFiles(diff, isIgnored).diff;
}

/** diffWithoutIgnoredFiles, and how many files it left out. */
export function withoutIgnoredFiles(
  diff: string,
  isIgnored: (path: string) => boolean,
): { diff: string; ignoredFiles: number } {
  const sections = diff.split(/^(?=diff --git )/m);
  const kept = sections.filter((section) => {
    if (!section.startsWith('diff --git ')) return true;
    const file = parseUnifiedDiff(section).files[0];
    const path = file?.newPath ?? file?.oldPath;
    return path === undefined || path === null || !isIgnored(path);
  });
  const ignoredFiles = sections.length - kept.length;
  return { diff: ignoredFiles === 0 ? diff : kept.join(''), ignoredFiles };
}
