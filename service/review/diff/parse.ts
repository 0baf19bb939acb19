// Unified diff → plain data. Reads `git diff` (also the three-dot form), `git format-patch` /
// `git show` output and plain `diff -u`. New-file line numbers are computed here and only here.
import { InvalidDiffError } from '../types.ts';
import { readPathToken } from './quoted-path.ts';

export type FileStatus = 'added' | 'deleted' | 'modified' | 'renamed' | 'copied';

export interface DiffLine {
  /** '+' added, '-' deleted, ' ' context. */
  kind: '+' | '-' | ' ';
  /** The line without its diff marker and without a trailing CR. */
  text: string;
  /** 1-based line in the new file for added and context lines; 0 for deleted lines. */
  newLine: number;
}

export interface Hunk {
  oldStart: number;
  oldLines: number;
  newStart: number;
  newLines: number;
  lines: DiffLine[];
}

export interface FileDiff {
  /** Old path without a/ prefix; null when the file is new (/dev/null). */
  oldPath: string | null;
  /** New path without b/ prefix; null when the file was deleted (/dev/null). */
  newPath: string | null;
  status: FileStatus;
  binary: boolean;
  oldMode?: string;
  newMode?: string;
  /** Percent, from `similarity index` of renames and copies. */
  similarity?: number;
  hunks: Hunk[];
  /** Number of '+' lines over all hunks. */
  addedLines: number;
}

export interface ParsedDiff {
  files: FileDiff[];
}

const HUNK_HEADER = /^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@/;
const DEV_NULL = '/dev/null';
/** A commit header of `git format-patch` (mbox "From <sha> ...") or `git show` ("commit <sha>"). */
const COMMIT_HEADER = /^(?:From [0-9a-f]{7,64} |commit [0-9a-f]{7,64}\b)/;

interface FileState {
  file: FileDiff;
  /** Came from a `diff --git` line. */
  git: boolean;
  /** The `diff --git` line used a/ b/ prefixes, which must be removed from ---/+++ paths. */
  gitPrefixes: boolean;
  /** `---`/`+++` already seen: another pair starts a new file. */
  sawFileHeader: boolean;
}

/** Parses a unified diff. Throws InvalidDiffError when the text is not one. */
export function parseUnifiedDiff(text: string): ParsedDiff {
  const lines = text.split('\n');
  const n = lines.length;
  const files: FileDiff[] = [];
  let state: FileState | null = null;
  let sawCommitHeader = false;
  /** Inside a commit header and message, where "---" and "+++" lines are prose. */
  let inCommitMessage = false;
  const plainFiles = new Set<FileDiff>();

  for (let i = 0; i < n; ) {
    const line = stripCR(lines[i]!);

    if (line.startsWith('diff --git ')) {
      inCommitMessage = false;
      state = startGitFile(line.slice(11));
      files.push(state.file);
      i++;
      continue;
    }
    if (line.startsWith('diff --cc ') || line.startsWith('diff --combined ')) {
      // Combined diffs of merge commits have a different hunk format; their lines are not reviewed.
      state = null;
      i = skipUntilNextFile(lines, i + 1);
      continue;
    }
    if (COMMIT_HEADER.test(line)) {
      // A new commit of `git format-patch` / `git show`: its message comes before its first `diff --git`.
      sawCommitHeader = true;
      inCommitMessage = true;
      state = null;
      i++;
      continue;
    }
    if (!inCommitMessage && line.startsWith('--- ') && i + 1 < n && stripCR(lines[i + 1]!).startsWith('+++ ')) {
      if (!state || state.sawFileHeader || state.file.hunks.length > 0) {
        state = startPlainFile();
        files.push(state.file);
      }
      applyFileHeader(state, line.slice(4), stripCR(lines[i + 1]!).slice(4));
      if (!state.git) plainFiles.add(state.file);
      i += 2;
      continue;
    }
    if (line.startsWith('@@ ') || line === '@@') {
      if (!state) {
        throw new InvalidDiffError(
          `Line ${i + 1}: found a hunk header ("@@ ... @@") before any file header; a unified diff names each file first ("diff --git a/x b/x" or "--- a/x" and "+++ b/x").`,
        );
      }
      i = readHunk(lines, i, state.file);
      continue;
    }
    if (state && state.file.hunks.length === 0 && !state.sawFileHeader) {
      if (applyExtendedHeader(state, line)) {
        i++;
        continue;
      }
      if (line === 'GIT binary patch') {
        state.file.binary = true;
        i = skipUntilNextFile(lines, i + 1);
        continue;
      }
    }
    if (line.startsWith('Binary files ') && line.endsWith(' differ')) {
      // git (no ---/+++ for binaries) or plain `diff` on binary files.
      if (state && state.file.hunks.length === 0 && !state.sawFileHeader) state.file.binary = true;
      else {
        state = startPlainFile();
        state.file.binary = true;
        applyBinaryFilesLine(state, line);
        files.push(state.file);
      }
      i++;
      continue;
    }
    // Anything else is outside the diff proper: a commit message, a diffstat, a signature trailer.
    i++;
  }

  if (files.length === 0 && !sawCommitHeader) {
    throw new InvalidDiffError(
      'Expected a unified diff (as made by `git diff` or `diff -u`): file headers ("diff --git a/x b/x", or "--- a/x" followed by "+++ b/x") and hunks ("@@ -1,3 +1,4 @@"); found none.',
    );
  }
  for (const file of files) finishFile(file, plainFiles.has(file));
  return { files };
}

function stripCR(line: string): string {
  return line.charCodeAt(line.length - 1) === 13 ? line.slice(0, -1) : line;
}

function newFile(): FileDiff {
  return { oldPath: null, newPath: null, status: 'modified', binary: false, hunks: [], addedLines: 0 };
}

function startPlainFile(): FileState {
  return { file: newFile(), git: false, gitPrefixes: false, sawFileHeader: false };
}

/** `diff --git a/x b/y`: paths are only a fallback, for files without ---/+++ (binary, mode-only, pure renames). */
function startGitFile(rest: string): FileState {
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
  const strip = (p: string) => p.replace(/^[a-z]\//, '');
  for (const at of candidates) {
    if (strip(rest.slice(0, at)) === strip(rest.slice(at + 1))) return [rest.slice(0, at), rest.slice(at + 1)];
  }
  const bAt = rest.indexOf(' b/');
  const at = bAt >= 0 ? bAt : (candidates[0] ?? -1);
  return at < 0 ? [rest, rest] : [rest.slice(0, at), rest.slice(at + 1)];
}

/** Path of a ---/+++ line: quoted, or up to a tab (git adds one after paths with spaces; diff -u puts the timestamp there). */
function headerPath(rest: string): string {
  return readPathToken(rest, '\t').path;
}

function applyFileHeader(state: FileState, oldRaw: string, newRaw: string): void {
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
function applyExtendedHeader(state: FileState, line: string): boolean {
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
function applyBinaryFilesLine(state: FileState, line: string): void {
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

function skipUntilNextFile(lines: string[], from: number): number {
  let i = from;
  while (i < lines.length && !lines[i]!.startsWith('diff ')) i++;
  return i;
}

/**
 * Reads one hunk starting at its header line; returns the index of the first line after it.
 * The header's counts say where the hunk ends, so content lines beginning with "---", "+++" or
 * "@@" are read as content. A blank line while both counts remain is a context line whose
 * leading space an editor stripped.
 */
function readHunk(lines: string[], start: number, file: FileDiff): number {
  const header = stripCR(lines[start]!);
  const m = HUNK_HEADER.exec(header);
  if (!m) {
    throw new InvalidDiffError(
      `Line ${start + 1}: expected a hunk header of the form "@@ -start,count +start,count @@".`,
    );
  }
  const hunk: Hunk = {
    oldStart: Number(m[1]),
    oldLines: m[2] === undefined ? 1 : Number(m[2]),
    newStart: Number(m[3]),
    newLines: m[4] === undefined ? 1 : Number(m[4]),
    lines: [],
  };
  file.hunks.push(hunk);
  let oldLeft = hunk.oldLines;
  let newLeft = hunk.newLines;
  let newLine = hunk.newStart;
  const out = hunk.lines;
  const n = lines.length;
  let i = start + 1;
  for (; i < n && (oldLeft > 0 || newLeft > 0); i++) {
    const raw = lines[i]!;
    const c = raw.charCodeAt(0);
    if (c === 43 /* + */ && newLeft > 0) {
      out.push({ kind: '+', text: stripCR(raw.slice(1)), newLine: newLine++ });
      newLeft--;
      file.addedLines++;
    } else if (c === 45 /* - */ && oldLeft > 0) {
      out.push({ kind: '-', text: stripCR(raw.slice(1)), newLine: 0 });
      oldLeft--;
    } else if (c === 32 /* space */ && oldLeft > 0 && newLeft > 0) {
      out.push({ kind: ' ', text: stripCR(raw.slice(1)), newLine: newLine++ });
      oldLeft--;
      newLeft--;
    } else if (c === 92 /* \ */) {
      // "\ No newline at end of file": belongs to the line before; counts nothing.
    } else if ((raw === '' || raw === '\r') && oldLeft > 0 && newLeft > 0 && i < n - 1) {
      out.push({ kind: ' ', text: '', newLine: newLine++ });
      oldLeft--;
      newLeft--;
    } else {
      // The hunk is shorter than its header says (a truncated or hand-edited diff): keep what was read.
      break;
    }
  }
  while (i < n && lines[i]!.charCodeAt(0) === 92) i++;
  return i;
}

function finishFile(file: FileDiff, plain: boolean): void {
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
