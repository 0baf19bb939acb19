// The line table: every hunk line of a diff as offsets into its text, in typed arrays (no string
// or object per line), which is what the engine reads; and its builder, which the parser fills.
import type { DiffLine, FileDiff, ParsedDiff } from './model.ts';

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
    out.push({
      kind: String.fromCharCode(kind[k]!) as DiffLine['kind'],
      text: index.text.slice(start[k], end[k]),
      newLine: newLine[k]!,
    });
  }
  return out;
}

/** A LineTable that grows; `reserve` before writing its columns directly. */
export class LineTableBuilder implements LineTable {
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
    if (this.count + lines > this.start.length) this.#grow(this.count + lines);
  }

  #grow(atLeast: number): void {
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
