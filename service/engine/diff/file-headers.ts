// File headers: `diff --git` lines, git's extended headers (modes, renames, copies, similarity),
// `---`/`+++` pairs and "Binary files ... differ", and what they say about a file's paths and status.
import type { IndexedFile } from './line-table.ts';
import { readPathToken } from './quoted-path.ts';

const DEV_NULL = '/dev/null';

export interface FileState {
  file: IndexedFile;
  /** Came from a `diff --git` line. */
  git: boolean;
  /** The `diff --git` line used a/ b/ prefixes, which must be removed from ---/+++ paths. */
  gitPrefixes: boolean;
  /** `---`/`+++` already seen: another pair starts a new file. */
  sawFileHeader: boolean;
}

function newFile(): IndexedFile {
  return { oldPath: null, newPath: null, status: 'modified', binary: false, hunks: [], addedLines: 0, hunkChars: 0 };
}

export function startPlainFile(): FileState {
  return { file: newFile(), git: false, gitPrefixes: false, sawFileHeader: false };
}

/** `diff --git a/x b/y`: paths are only a fallback, for files without ---/+++ (binary, mode-only, pure renames). */
export function startGitFile(rest: string): FileState {
  const file = newFile();
  const [a, b] = splitGitPaths(rest);
  const gitPrefixes = a.startsWith('a/') && b.startsWith('b/');
  file.oldPath = gitPrefixes ? a.slice(2) : a;
  file.newPath = gitPrefixes ? b.slice(2) : b;
  return { file, git: true, gitPrefixes, sawFileHeader: false };
}

/** Splits the two paths of a `diff --git` line. Unquoted paths may contain spaces, so when ambiguous prefer the split where both sides name the same file. */
function splitGitPaths(rest: string): [string, string] {
  if (rest.startsWith('"')) {
    const first = readPathToken(rest);
    const second = readPathToken(first.rest.replace(/^ /, ''));
    return [first.path, second.path];
  }
  if (rest.endsWith('"')) {
    const quoteStart = rest.lastIndexOf(' "');
    if (quoteStart > 0) return [rest.slice(0, quoteStart), readPathToken(rest.slice(quoteStart + 1)).path];
  }
  const candidates: number[] = [];
  for (let at = rest.indexOf(' '); at >= 0; at = rest.indexOf(' ', at + 1)) candidates.push(at);
  for (const at of candidates) {
    const a = rest.slice(0, at);
    const b = rest.slice(at + 1);
    if (a.slice(prefixLength(a)) === b.slice(prefixLength(b))) return [a, b];
  }
  const bAt = rest.indexOf(' b/');
  const at = bAt >= 0 ? bAt : (candidates[0] ?? -1);
  return at < 0 ? [rest, rest] : [rest.slice(0, at), rest.slice(at + 1)];
}

/** 2 for a path that starts with a one-letter prefix ("a/", "b/", "i/", "w/"...), else 0. */
function prefixLength(path: string): number {
  const letter = path.charCodeAt(0);
  return letter >= 97 && letter <= 122 && path.charCodeAt(1) === 47 ? 2 : 0;
}

/** Path of a ---/+++ line: quoted, or up to a tab (git adds one after paths with spaces; diff -u puts the timestamp there). */
function headerPath(rest: string): string {
  return readPathToken(rest, '\t').path;
}

export function applyFileHeader(state: FileState, oldRaw: string, newRaw: string): void {
  state.sawFileHeader = true;
  const file = state.file;
  let oldPath: string | null = headerPath(oldRaw);
  let newPath: string | null = headerPath(newRaw);
  if (oldPath === DEV_NULL) oldPath = null;
  if (newPath === DEV_NULL) newPath = null;
  // Plain `diff -ru a b` names files a/x and b/x too: strip only when both sides agree.
  const prefixed = state.git
    ? state.gitPrefixes
    : (oldPath === null || oldPath.startsWith('a/')) && (newPath === null || newPath.startsWith('b/'));
  if (prefixed) {
    if (oldPath?.startsWith('a/')) oldPath = oldPath.slice(2);
    if (newPath?.startsWith('b/')) newPath = newPath.slice(2);
  }
  file.oldPath = oldPath;
  file.newPath = newPath;
  if (oldPath === null) file.status = 'added';
  else if (newPath === null) file.status = 'deleted';
}

/** git's extended header lines between `diff --git` and the first hunk. Returns false for any other line. */
export function applyExtendedHeader(state: FileState, line: string): boolean {
  const file = state.file;
  const space = line.indexOf(' ');
  if (space < 0) return false;
  if (line.startsWith('index ')) return true;
  if (line.startsWith('old mode ')) file.oldMode = line.slice(9);
  else if (line.startsWith('new mode ')) file.newMode = line.slice(9);
  else if (line.startsWith('new file mode ')) {
    file.status = 'added';
    file.newMode = line.slice(14);
    file.oldPath = null;
  } else if (line.startsWith('deleted file mode ')) {
    file.status = 'deleted';
    file.oldMode = line.slice(18);
    file.newPath = null;
  } else if (line.startsWith('similarity index ')) file.similarity = parseInt(line.slice(17), 10);
  else if (line.startsWith('dissimilarity index ')) return true;
  else if (line.startsWith('rename from ')) {
    file.status = 'renamed';
    file.oldPath = readPathToken(line.slice(12)).path;
  } else if (line.startsWith('rename to ')) {
    file.status = 'renamed';
    file.newPath = readPathToken(line.slice(10)).path;
  } else if (line.startsWith('copy from ')) {
    file.status = 'copied';
    file.oldPath = readPathToken(line.slice(10)).path;
  } else if (line.startsWith('copy to ')) {
    file.status = 'copied';
    file.newPath = readPathToken(line.slice(8)).path;
  } else return false;
  return true;
}

/** Plain `diff`: "Binary files old and new differ". */
export function applyBinaryFilesLine(state: FileState, line: string): void {
  const body = line.slice('Binary files '.length, -' differ'.length);
  const and = body.lastIndexOf(' and ');
  if (and < 0) return;
  const oldPath = readPathToken(body.slice(0, and)).path;
  const newPath = readPathToken(body.slice(and + 5)).path;
  state.file.oldPath = oldPath === DEV_NULL ? null : oldPath.replace(/^a\//, '');
  state.file.newPath = newPath === DEV_NULL ? null : newPath.replace(/^b\//, '');
  if (state.file.oldPath === null) state.file.status = 'added';
  else if (state.file.newPath === null) state.file.status = 'deleted';
}

/** A file's status once all its headers and hunks are read. */
export function finishFile(file: IndexedFile, plain: boolean): void {
  // `diff -N` compares a missing file as an empty one, with a timestamp instead of /dev/null.
  const only = file.hunks.length === 1 ? file.hunks[0]! : undefined;
  if (plain && file.status === 'modified' && only) {
    if (only.oldStart === 0 && only.oldLines === 0) {
      file.status = 'added';
      file.oldPath = null;
      return;
    }
    if (only.newStart === 0 && only.newLines === 0) {
      file.status = 'deleted';
      file.newPath = null;
      return;
    }
  }
  if (file.status === 'modified' && file.oldPath !== null && file.newPath !== null && file.oldPath !== file.newPath) {
    file.status = 'renamed';
  }
}
