// Unified diff → plain data: the main loop and the hunks. Reads `git diff` (also the three-dot
// form), `git format-patch` / `git show` output and plain `diff -u`. New-file line numbers are
// computed here and only here.
//
// One pass over the text with indexOf, no per-line strings or objects: the engine reads the
// result as offsets into the diff (DiffIndex); parseUnifiedDiff materializes it as plain objects.
import { InvalidDiffError } from '../types.ts';
import {
  applyBinaryFilesLine,
  applyExtendedHeader,
  applyFileHeader,
  finishFile,
  startGitFile,
  startPlainFile,
} from './file-headers.ts';
import type { FileState } from './file-headers.ts';
import type { DiffIndex, IndexedFile, IndexedHunk, LineTable } from './line-table.ts';
import { ADDED, CONTEXT, DELETED, LineTableBuilder, materialize } from './line-table.ts';
import type { ParsedDiff } from './model.ts';
import { formatCount } from '../../format-count.ts';

const HUNK_HEADER = /^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@/;
/** A commit header of `git format-patch` (mbox "From <sha> ...") or `git show` ("commit <sha>"). */
const COMMIT_HEADER = /^(?:From [0-9a-f]{7,64} |commit [0-9a-f]{7,64}\b)/;

/** Parses a unified diff. Throws InvalidDiffError when the text is not one. */
export function parseUnifiedDiff(text: string): ParsedDiff {
  return materialize(indexUnifiedDiff(text));
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
      if (next?.startsWith('+++ ')) {
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

function skipUntilNextFile(cursor: Cursor): void {
  const text = cursor.text;
  while (!cursor.done && !text.startsWith('diff ', cursor.pos)) cursor.advance();
}

/**
 * The largest line number a diff may use: 2^31 - 1, what the line table (Int32Array) holds and
 * what the API's `line` and SARIF's `startLine` promise to be. No real file comes near it.
 */
const MAX_LINE_NUMBER = 2_147_483_647;
const MAX = formatCount(MAX_LINE_NUMBER);

/** Refuses a hunk whose lines would be numbered past MAX_LINE_NUMBER, or whose added lines would be numbered 0. */
function checkLineNumbers(hunk: IndexedHunk, lineNo: number): void {
  checkSide('old', hunk.oldStart, hunk.oldLines, lineNo);
  checkSide('new', hunk.newStart, hunk.newLines, lineNo);
  if (hunk.newStart === 0 && hunk.newLines > 0) {
    throw new InvalidDiffError(
      `Line ${lineNo}: the hunk header numbers its new lines from line 0; lines are numbered from 1 ("+1,${hunk.newLines}").`,
    );
  }
}

function checkSide(side: 'old' | 'new', start: number, count: number, lineNo: number): void {
  if (start + Math.max(count, 1) - 1 > MAX_LINE_NUMBER) {
    throw new InvalidDiffError(
      `Line ${lineNo}: the hunk header puts ${side} lines past line ${MAX} (it starts at ${start} with ${count} lines); line numbers must be between 1 and ${MAX}.`,
    );
  }
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
  checkLineNumbers(hunk, cursor.line + 1);
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
