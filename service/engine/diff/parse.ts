// Unified diff → plain data. Reads `git diff` (also the three-dot form), `git format-patch` /
// `git show` output and plain `diff -u`. New-file line numbers are computed here and only here.
//
// One pass over the text with indexOf, no per-line strings or objects: the engine reads the
// result as offsets into the diff (DiffIndex); parseUnifiedDiff materializes it as plain objects.
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

/** A hunk of a DiffIndex: its lines are `first .. first + count - 1` of the index's line table. */
export interface IndexedHunk {
  oldStart: number;
  oldLines: number;
  newStart: number;
  newLines: number;
  first: number;
  count: number;
}

export interface IndexedFile extends Omit<FileDiff, 'hunks'> {
  hunks: IndexedHunk[];
  /** Sum of (text length + 1) over every line of every hunk. */
  hunkChars: number;
}

/**
 * Every hunk line of the diff, in text order, as offsets into the diff's text: the text of line
 * k is `text.slice(start[k], end[k])` (no marker, no CR).
 */
export interface LineTable {
  count: number;
  start: Int32Array;
  end: Int32Array;
  /** 43 '+' added, 45 '-' deleted, 32 ' ' context. */
  kind: Uint8Array;
  /** 1-based line in the new file; 0 for deleted lines. */
  newLine: Int32Array;
}

/** A parsed diff as offsets into its text: what the engine reads. */
export interface DiffIndex {
  text: string;
  files: IndexedFile[];
  lines: LineTable;
}

export const ADDED = 43;
export const DELETED = 45;
export const CONTEXT = 32;

const HUNK_HEADER = /^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@/;
const DEV_NULL = '/dev/null';
/** A commit header of `git format-patch` (mbox "From <sha> ...") or `git show` ("commit <sha>"). */
const COMMIT_HEADER = /^(?:From [0-9a-f]{7,64} |commit [0-9a-f]{7,64}\b)/;

interface FileState {
  file: IndexedFile;
  /** Came from a `diff --git` line. */
  git: boolean;
  /** The `diff --git` line used a/ b/ prefixes, which must be removed from ---/+++ paths. */
  gitPrefixes: boolean;
  /** `---`/`+++` already seen: another pair starts a new file. */
  sawFileHeader: boolean;
}

/** Parses a unified diff. Throws InvalidDiffError when the text is not one. */
export function parseUnifiedDiff(text: string): ParsedDiff {
  return materialize(indexUnifiedDiff(text));
}

/** The DiffIndex as plain objects: one DiffLine per hunk line. */
export function materialize(index: DiffIndex): ParsedDiff {
  return {
    files: index.files.map(({ hunks, hunkChars: _, ...file }) => ({
      ...file,
      hunks: hunks.map(({ first, count, ...hunk }) => ({ ...hunk, lines: diffLines(index, first, count) })),
    })),
  };
}

/** Lines `first .. first + count - 1` of the index as DiffLine objects. */
export function diffLines(index: DiffIndex, first: number, count: number): DiffLine[] {
  const { start, end, kind, newLine } = index.lines;
  const out: DiffLine[] = [];
  for (let k = first; k < first + count; k++) {
    out.push({ kind: String.fromCharCode(kind[k]!) as DiffLine['kind'], text: index.text.slice(start[k], end[k]), newLine: newLine[k]! });
  }
  return out;
}

/** Reads the lines of a diff's text one at a time, by offset. */
class Cursor {
  /** Offset of the current line. */
  pos = 0;
  /** 0-based number of the current line, for error messages. */
  line = 0;
  readonly text: string;
  constructor(text: string) {
    this.text = text;
  }

  get done(): boolean {
    return this.pos >= this.text.length;
  }

  /** Offset of the end of the current line (its LF, or the end of the text). */
  endOf(pos: number): number {
    const end = this.text.indexOf('\n', pos);
    return end < 0 ? this.text.length : end;
  }

  /** The current line without its CR. */
  current(): string {
    return this.lineAt(this.pos);
  }

  lineAt(pos: number): string {
    let end = this.endOf(pos);
    if (end > pos && this.text.charCodeAt(end - 1) === 13) end--;
    return this.text.slice(pos, end);
  }

  /** The line after the current one, or null at the last line. */
  next(): string | null {
    const end = this.text.indexOf('\n', this.pos);
    return end < 0 ? null : this.lineAt(end + 1);
  }

  advance(): void {
    this.pos = this.endOf(this.pos) + 1;
    this.line++;
  }
}

class LineTableBuilder implements LineTable {
  count = 0;
  start: Int32Array;
  end: Int32Array;
  kind: Uint8Array;
  newLine: Int32Array;
  constructor(capacity: number) {
    this.start = new Int32Array(capacity);
    this.end = new Int32Array(capacity);
    this.kind = new Uint8Array(capacity);
    this.newLine = new Int32Array(capacity);
  }

  /** Room for `lines` more lines. */
  reserve(lines: number): void {
    if (this.count + lines > this.start.length) this.grow(this.count + lines);
  }

  private grow(atLeast: number): void {
    const size = Math.max(atLeast, this.start.length * 2);
    const start = new Int32Array(size);
    const end = new Int32Array(size);
    const kind = new Uint8Array(size);
    const newLine = new Int32Array(size);
    start.set(this.start);
    end.set(this.end);
    kind.set(this.kind);
    newLine.set(this.newLine);
    Object.assign(this, { start, end, kind, newLine });
  }
}

/**
 * Parses a unified diff into offsets. Throws InvalidDiffError when the text is not one.
 * `reuse`: the line table of an earlier result that is no longer read, to fill again.
 */
export function indexUnifiedDiff(text: string, reuse?: LineTable): DiffIndex {
  const cursor = new Cursor(text);
  let table: LineTableBuilder;
  if (reuse instanceof LineTableBuilder) {
    table = reuse;
    table.count = 0;
  } else table = new LineTableBuilder(Math.max(64, text.length >> 5));
  const files: IndexedFile[] = [];
  let state: FileState | null = null;
  let sawCommitHeader = false;
  /** Inside a commit header and message, where "---" and "+++" lines are prose. */
  let inCommitMessage = false;
  const plainFiles = new Set<IndexedFile>();

  while (!cursor.done) {
    const line = cursor.current();

    if (line.startsWith('diff --git ')) {
      inCommitMessage = false;
      state = startGitFile(line.slice(11));
      files.push(state.file);
      cursor.advance();
      continue;
    }
    if (line.startsWith('diff --cc ') || line.startsWith('diff --combined ')) {
      // Combined diffs of merge commits have a different hunk format; their lines are not reviewed.
      state = null;
      cursor.advance();
      skipUntilNextFile(cursor);
      continue;
    }
    if (COMMIT_HEADER.test(line)) {
      // A new commit of `git format-patch` / `git show`: its message comes before its first `diff --git`.
      sawCommitHeader = true;
      inCommitMessage = true;
      state = null;
      cursor.advance();
      continue;
    }
    if (!inCommitMessage && line.startsWith('--- ')) {
      const next = cursor.next();
      if (next !== null && next.startsWith('+++ ')) {
        if (!state || state.sawFileHeader || state.file.hunks.length > 0) {
          state = startPlainFile();
          files.push(state.file);
        }
        applyFileHeader(state, line.slice(4), next.slice(4));
        if (!state.git) plainFiles.add(state.file);
        cursor.advance();
        cursor.advance();
        continue;
      }
    }
    if (line.startsWith('@@ ') || line === '@@') {
      if (!state) {
        throw new InvalidDiffError(
          `Line ${cursor.line + 1}: found a hunk header ("@@ ... @@") before any file header; a unified diff names each file first ("diff --git a/x b/x" or "--- a/x" and "+++ b/x").`,
        );
      }
      readHunk(cursor, line, state.file, table);
      continue;
    }
    if (state && state.file.hunks.length === 0 && !state.sawFileHeader) {
      if (applyExtendedHeader(state, line)) {
        cursor.advance();
        continue;
      }
      if (line === 'GIT binary patch') {
        state.file.binary = true;
        cursor.advance();
        skipUntilNextFile(cursor);
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
      cursor.advance();
      continue;
    }
    // Anything else is outside the diff proper: a commit message, a diffstat, a signature trailer.
    cursor.advance();
  }

  if (files.length === 0 && !sawCommitHeader) {
    throw new InvalidDiffError(
      'Expected a unified diff (as made by `git diff` or `diff -u`): file headers ("diff --git a/x b/x", or "--- a/x" followed by "+++ b/x") and hunks ("@@ -1,3 +1,4 @@"); found none.',
    );
  }
  for (const file of files) finishFile(file, plainFiles.has(file));
  return { text, files, lines: table };
}

function newFile(): IndexedFile {
  return { oldPath: null, newPath: null, status: 'modified', binary: false, hunks: [], addedLines: 0, hunkChars: 0 };
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

function skipUntilNextFile(cursor: Cursor): void {
  const text = cursor.text;
  while (!cursor.done && !text.startsWith('diff ', cursor.pos)) cursor.advance();
}

/**
 * Reads one hunk, the cursor on its header line; leaves the cursor on the first line after it.
 * The header's counts say where the hunk ends, so content lines beginning with "---", "+++" or
 * "@@" are read as content. A blank line while both counts remain is a context line whose
 * leading space an editor stripped.
 */
function readHunk(cursor: Cursor, header: string, file: IndexedFile, table: LineTableBuilder): void {
  const m = HUNK_HEADER.exec(header);
  if (!m) {
    throw new InvalidDiffError(
      `Line ${cursor.line + 1}: expected a hunk header of the form "@@ -start,count +start,count @@".`,
    );
  }
  const hunk: IndexedHunk = {
    oldStart: Number(m[1]),
    oldLines: m[2] === undefined ? 1 : Number(m[2]),
    newStart: Number(m[3]),
    newLines: m[4] === undefined ? 1 : Number(m[4]),
    first: table.count,
    count: 0,
  };
  file.hunks.push(hunk);
  let oldLeft = hunk.oldLines;
  let newLeft = hunk.newLines;
  let newLine = hunk.newStart;
  let added = 0;
  let chars = 0;
  const text = cursor.text;
  const n = text.length;
  let pos = cursor.endOf(cursor.pos) + 1;
  let lineNo = cursor.line + 1;
  // The counts bound the lines: make room once, then write the columns directly (the parser's hot loop).
  table.reserve(Math.min(oldLeft + newLeft, n - pos + 1));
  const { start, end, kind, newLine: newLines } = table;
  let k = table.count;
  while (pos <= n && (oldLeft > 0 || newLeft > 0)) {
    const lf = text.indexOf('\n', pos);
    const lineEnd = lf < 0 ? n : lf;
    let textEnd = lineEnd;
    if (textEnd > pos && text.charCodeAt(textEnd - 1) === 13) textEnd--;
    const c = pos < lineEnd ? text.charCodeAt(pos) : -1;
    if (c === ADDED && newLeft > 0) {
      newLines[k] = newLine++;
      newLeft--;
      added++;
    } else if (c === DELETED && oldLeft > 0) {
      newLines[k] = 0;
      oldLeft--;
    } else if (c === CONTEXT && oldLeft > 0 && newLeft > 0) {
      newLines[k] = newLine++;
      oldLeft--;
      newLeft--;
    } else if (c === 92 /* \ */) {
      // "\ No newline at end of file": belongs to the line before; counts nothing.
      pos = lineEnd + 1;
      lineNo++;
      continue;
    } else if (textEnd === pos && lf >= 0 && oldLeft > 0 && newLeft > 0) {
      // A blank line: a context line whose leading space was stripped.
      start[k] = pos;
      end[k] = pos;
      kind[k] = CONTEXT;
      newLines[k++] = newLine++;
      oldLeft--;
      newLeft--;
      chars += 1;
      pos = lineEnd + 1;
      lineNo++;
      continue;
    } else {
      // The hunk is shorter than its header says (a truncated or hand-edited diff): keep what was read.
      break;
    }
    start[k] = pos + 1;
    end[k] = textEnd;
    kind[k++] = c;
    chars += textEnd - pos;
    pos = lineEnd + 1;
    lineNo++;
  }
  table.count = k;
  while (pos < n && text.charCodeAt(pos) === 92) {
    pos = cursor.endOf(pos) + 1;
    lineNo++;
  }
  hunk.count = table.count - hunk.first;
  file.addedLines += added;
  file.hunkChars += chars;
  cursor.pos = pos;
  cursor.line = lineNo;
}

function finishFile(file: IndexedFile, plain: boolean): void {
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
